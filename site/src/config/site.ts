/**
 * Who the site is about, and the fixed contact details. Set at build time through the
 * environment; the defaults are placeholders, clearly so, until the author fills them in.
 */
const env = (name: string, fallback: string) => {
  const value = process.env[name];
  return value && value.trim() ? value.trim() : fallback;
};

export const site = {
  author: { en: env('SITE_AUTHOR_NAME', 'Author Name'), ar: env('SITE_AUTHOR_NAME_AR', 'اسم الكاتب') },
  email: env('SITE_CONTACT_EMAIL', 'hello@example.com'),
  social: {
    instagram: env('SITE_INSTAGRAM_URL', 'https://www.instagram.com/'),
    facebook: env('SITE_FACEBOOK_URL', 'https://www.facebook.com/'),
    twitter: env('SITE_TWITTER_URL', 'https://twitter.com/'),
  },
  poweredBy: { name: env('SITE_POWERED_BY_NAME', 'Example Agency'), url: env('SITE_POWERED_BY_URL', 'https://example.com/') },
  copyrightYear: 2025,
};
