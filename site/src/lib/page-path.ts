/**
 * The page a visitor is on, as a route: `/`, `/books`, `/books/3`. With `build.format: 'file'`
 * Astro reports the home page as `/index.html` and others as `/books.html`, and a server may be
 * asked for `/books/` or `/index`: every comparison with the current page goes through here.
 */
export function pagePath(pathname: string): string {
  const path = pathname
    .replace(/[?#].*$/, '')
    .replace(/\.html$/, '')
    .replace(/(^|\/)index$/, '')
    .replace(/\/+$/, '');
  return path.startsWith('/') ? path : `/${path}`;
}

/** Whether a header link marks the page the visitor is on: its own page or one below it (`/book/…` counts as books). */
export function isCurrentSection(pathname: string, section: string): boolean {
  const path = pagePath(pathname);
  if (section === '/') return path === '/';
  return path === section || path.startsWith(`${section}/`) || (section === '/books' && path.startsWith('/book/'));
}
