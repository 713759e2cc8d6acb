import { CONTENT_KINDS, type ContentKind, type KindDefinition, KINDS } from '@portfolio/contract/kinds';
import { LANGUAGE_INFO, LANGUAGES } from '@portfolio/contract/languages';

import type { Key } from '../i18n';

/**
 * The not-found texts of the sections (specification §2): the address of a missing item shows its
 * section's text and back link. Each is also a page of its own, `/404/<section>` (and `/ar/404/<section>`),
 * which nginx and the API answer for such an address (infra/nginx/site.conf, admin-api/src/static-files.ts),
 * so the right text shows without JavaScript; `/404` picks one in the browser where a host has only it.
 */
type KindWithPage = { [K in ContentKind]: (typeof KINDS)[K]['labels'] extends { notFoundPage: object } ? K : never }[ContentKind];
type KindWithArchive = { [K in ContentKind]: (typeof KINDS)[K] extends { category: { archive: unknown } } ? K : never }[ContentKind];
interface SectionTexts {
  title: Key;
  back: Key;
  href: string;
}

/**
 * A book's reviews page, then each kind whose items have pages (@portfolio/contract/kinds), with its
 * list as the way back, then each kind's category archives (`essays_category`: `/essays/category/x`).
 */
export const NOT_FOUND_SECTIONS = {
  reviews: { title: 'reviews.empty', back: 'reviews.back', href: '/books' },
  ...(Object.fromEntries(
    CONTENT_KINDS.flatMap((kind) => {
      const page = (KINDS[kind] as KindDefinition).labels.notFoundPage;
      return page ? [[kind, { ...page, href: KINDS[kind].listPage }]] : [];
    }),
  ) as Record<KindWithPage, SectionTexts>),
  ...(Object.fromEntries(
    CONTENT_KINDS.flatMap((kind) => {
      const { category, labels, listPage } = KINDS[kind] as KindDefinition;
      return category?.archive && labels.notFoundPage
        ? [[`${kind}_category`, { title: 'category.notFound', back: labels.notFoundPage.back, href: listPage }]]
        : [];
    }),
  ) as Record<`${KindWithArchive}_category`, SectionTexts>),
} satisfies Record<string, SectionTexts>;

export type NotFoundSection = keyof typeof NOT_FOUND_SECTIONS;
export const notFoundSections = Object.keys(NOT_FOUND_SECTIONS) as NotFoundSection[];

/**
 * For the generic page's script: the first segments of the kinds' item page addresses as one pattern
 * (`/books/1`, `/book/1/reviews`, `/essays/1` … → `books?|essays|news|plays`), and the languages'
 * address prefixes (`\/ar`).
 */
export const ITEM_SEGMENTS = (() => {
  const pages = CONTENT_KINDS.flatMap((kind) => (KINDS[kind] as KindDefinition).itemPages);
  const segments = [...new Set(pages.map((page) => page.path(0).split('/')[1]))];
  const plural = (s: string) => s.endsWith('s') && segments.includes(s.slice(0, -1));
  return segments
    .filter((s) => !segments.includes(`${s}s`))
    .map((s) => (plural(s) ? `${s}?` : s))
    .join('|');
})();
const prefixes = LANGUAGES.map((lang) => LANGUAGE_INFO[lang].prefix.replace(/\//g, '\\/')).filter(Boolean);
export const PREFIX_PATTERN = prefixes.length === 1 ? prefixes[0] : `(?:${prefixes.join('|')})`;
