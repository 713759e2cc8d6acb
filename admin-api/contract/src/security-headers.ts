/**
 * The headers every page of the site is sent with, whoever serves it: nginx in production
 * (infra/nginx/security-headers.conf, which infra/test/nginx.spec.mjs checks is equal to this) and
 * the API when it serves the site itself (`npm start`) and its API docs page (/api/docs).
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'X-Frame-Options': 'SAMEORIGIN',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=()',
  // Inline scripts are allowed because Astro inlines its island loader and the language bootstrap in
  // <head>. Frames from any https: address, because the content names them: a review or a play's
  // script PDF may live on any host, besides Drive previews and videos.
  'Content-Security-Policy':
    "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data: https:; font-src 'self' data:; connect-src 'self'; frame-src 'self' https:; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'self'",
};

/**
 * What /uploads/ adds to every file (nginx's site.conf too): opened on its own, an uploaded file
 * runs nothing and loads nothing as a page of this site, whatever its bytes.
 */
export const UPLOAD_CSP = "default-src 'none'; sandbox";
