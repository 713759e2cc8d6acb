import type { Key } from '../i18n';

/**
 * The not-found texts of the sections (specification §2): the address of a missing item shows its
 * section's text and back link. Each is also a page of its own, `/404/<section>` (and `/ar/404/<section>`),
 * which nginx and the API answer for such an address (infra/nginx/site.conf, admin-api/src/static-files.ts),
 * so the right text shows without JavaScript; `/404` picks one in the browser where a host has only it.
 */
export const NOT_FOUND_SECTIONS = {
  reviews: { title: 'reviews.empty', back: 'reviews.back', href: '/books' },
  books: { title: 'book.notFound', back: 'book.back', href: '/books' },
  essays: { title: 'essay.notFound', back: 'essay.back', href: '/essays' },
  news: { title: 'news.notFound', back: 'news.back', href: '/news' },
  plays: { title: 'play.notFound', back: 'play.back', href: '/plays' },
} as const satisfies Record<string, { title: Key; back: Key; href: string }>;

export type NotFoundSection = keyof typeof NOT_FOUND_SECTIONS;
export const notFoundSections = Object.keys(NOT_FOUND_SECTIONS) as NotFoundSection[];
