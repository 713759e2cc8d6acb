/**
 * The content kinds, each declared once: what the API, the site, the overlay and the builder know
 * about a kind comes from here (the lists below are derived, never restated). Adding a kind starts
 * with an entry here; the compiler then points at what the kind still lacks (its types in types.ts,
 * its entity and module in admin-api, its pages in site/src/pages, its overlay screen).
 */
import type { MessageKey } from './messages.js';
import type { ListOrder } from './rules.js';

/** Who may see an item besides admins: the field that makes it public and the values that do, or null (always public). */
export interface PublishRule {
  field: string;
  values: readonly (string | boolean)[];
}

/** How an item leaves the lists. Every kind has the trash (`isDeleted`); some also remove for good. */
export interface SoftDeleteStyle {
  /** Whether admins' lists include items in the trash when the query does not say (books: only with ?includeDeleted=true). */
  adminListsDeleted: boolean;
  /** Why an item in the trash may not be edited (books: 'Cannot edit deleted books'); absent: it may. */
  notEditableInTrash?: MessageKey;
  /** DELETE removes the item for good (its history stays, so a revision restore brings it back). */
  removable: boolean;
}

/** A public page of one item: its address, and whether the item has it (a book's reviews page only with reviews). */
export interface ItemPage {
  path: (id: number) => string;
  when?: (item: Record<string, unknown>) => boolean;
}

/**
 * A kind whose items carry a category: the field holding it (as entered; its slug names the group)
 * and the archive page of one category (`/essays/category/poetry`), when the kind has such pages.
 */
export interface CategoryField {
  field: string;
  /** The archive page of a category by its slug (percent-encoded in the address); absent: no archive pages. */
  archive?: (slug: string) => string;
}

export interface KindDefinition {
  /** The overlay's tab, also the prefix of its UI strings ('gallery.added'). */
  tab: string;
  /** The site's list page. */
  listPage: string;
  /** The site's pages of one item, in the order the sitemap lists them (none: artworks show in the gallery). */
  itemPages: readonly ItemPage[];
  /** The order of the public list, newest or latest first, the id breaking ties (see LIST_ORDER). */
  order: ListOrder;
  /** The field that groups items (related items on an item page; archive pages of a category). */
  category?: CategoryField;
  publish: PublishRule | null;
  /** The kind has `publishAt`: anonymous visitors see an item only from that time on. */
  scheduled: boolean;
  softDelete: SoftDeleteStyle;
  /** The fields a visitor reads in the other language (see translations.ts). */
  translated: readonly string[];
  /** The fields search looks in besides the title, in the index's order. */
  searchable: readonly string[];
  /** The field holding the item's picture (search results, cards). */
  image: string;
  /** Readers can follow the kind by mail: its items are offered for a newsletter campaign when they first go live (see newsletter.ts). */
  newsletter?: true;
  /** Keys of the words that name the kind: the API's not-found message, the site's navigation and search labels, the site's not-found page. */
  labels: {
    notFound: MessageKey;
    nav: string;
    search: string;
    notFoundPage?: { title: string; back: string };
  };
}

const published: PublishRule = { field: 'published', values: [true] };

export const KINDS = {
  books: {
    tab: 'books',
    listPage: '/books',
    itemPages: [
      { path: (id) => `/books/${id}` },
      { path: (id) => `/book/${id}/reviews`, when: (book) => Array.isArray(book.reviews) && book.reviews.length > 0 },
    ],
    order: { year: 'DESC', id: 'DESC' },
    category: { field: 'genre' },
    publish: published,
    scheduled: true,
    softDelete: { adminListsDeleted: false, removable: false, notEditableInTrash: 'error.deletedBookNotEditable' },
    translated: ['title', 'description', 'publisher', 'genre'],
    searchable: ['description', 'publisher', 'genre'],
    image: 'coverImage',
    newsletter: true,
    labels: {
      notFound: 'error.bookNotFound',
      nav: 'nav.books',
      search: 'search.kind.books',
      notFoundPage: { title: 'book.notFound', back: 'book.back' },
    },
  },
  essays: {
    tab: 'essays',
    listPage: '/essays',
    itemPages: [{ path: (id) => `/essays/${id}` }],
    order: { publishedDate: 'DESC', createdAt: 'DESC', id: 'DESC' },
    category: { field: 'category', archive: (slug) => `/essays/category/${encodeURIComponent(slug)}` },
    publish: published,
    scheduled: true,
    softDelete: { adminListsDeleted: true, removable: false },
    translated: ['title', 'excerpt', 'content', 'publication', 'category'],
    searchable: ['excerpt', 'content', 'publication', 'category'],
    image: 'imageUrl',
    newsletter: true,
    labels: {
      notFound: 'error.essayNotFound',
      nav: 'nav.essays',
      search: 'search.kind.essays',
      notFoundPage: { title: 'essay.notFound', back: 'essay.back' },
    },
  },
  artworks: {
    tab: 'gallery',
    listPage: '/gallery',
    itemPages: [],
    order: { createdAt: 'DESC', id: 'DESC' },
    publish: null,
    scheduled: false,
    softDelete: { adminListsDeleted: true, removable: false },
    translated: ['title', 'medium', 'description'],
    searchable: ['medium', 'description'],
    image: 'image',
    labels: { notFound: 'error.artworkNotFound', nav: 'nav.gallery', search: 'search.kind.artworks' },
  },
  news: {
    tab: 'news',
    listPage: '/news',
    itemPages: [{ path: (id) => `/news/${id}` }],
    order: { publishedDate: 'DESC', id: 'DESC' },
    category: { field: 'category', archive: (slug) => `/news/category/${encodeURIComponent(slug)}` },
    publish: published,
    scheduled: true,
    softDelete: { adminListsDeleted: true, removable: false },
    translated: ['title', 'excerpt', 'content'],
    searchable: ['excerpt', 'content'],
    image: 'imageUrl',
    newsletter: true,
    labels: {
      notFound: 'error.newsNotFound',
      nav: 'nav.news',
      search: 'search.kind.news',
      notFoundPage: { title: 'news.notFound', back: 'news.back' },
    },
  },
  plays: {
    tab: 'plays',
    listPage: '/plays',
    itemPages: [{ path: (id) => `/plays/${id}` }],
    order: { createdAt: 'DESC', id: 'DESC' },
    category: { field: 'genre' },
    publish: { field: 'status', values: ['published', 'performed'] },
    scheduled: true,
    softDelete: { adminListsDeleted: true, removable: true },
    translated: ['title', 'description', 'content', 'genre'],
    // The specification's Arabic title is searched as well.
    searchable: ['arabicTitle', 'description', 'content', 'genre'],
    image: 'image',
    labels: {
      notFound: 'error.playNotFound',
      nav: 'nav.plays',
      search: 'search.kind.plays',
      notFoundPage: { title: 'play.notFound', back: 'play.back' },
    },
  },
} as const satisfies Record<string, KindDefinition>;

/** The kinds of content, named as their /api collections (the overlay's Gallery tab edits 'artworks'). */
export type ContentKind = keyof typeof KINDS;
export const CONTENT_KINDS = /* @__PURE__ */ Object.keys(KINDS) as ContentKind[];

/**
 * The order the site shows the kinds in: its navigation, the links of the search page, search
 * results of equal score and the search index's shards. A literal (checked against KINDS below), so
 * the browser's search code holds these five words and not the whole registry.
 */
export const SITE_ORDER = ['books', 'essays', 'artworks', 'plays', 'news'] as const;
type Missing = Exclude<ContentKind, (typeof SITE_ORDER)[number]>;
// A kind missing from SITE_ORDER fails to compile here.
const everyKindShown: [Missing] extends [never] ? true : Missing = true;
void everyKindShown;

const mapKinds = <V>(pick: (definition: KindDefinition, kind: ContentKind) => V) =>
  Object.fromEntries(CONTENT_KINDS.map((kind) => [kind, pick(KINDS[kind], kind)])) as Record<ContentKind, V>;

/** The overlay's tab of each kind, and back. */
export type ContentTab = (typeof KINDS)[ContentKind]['tab'];
export const kindOfTab = (tab: ContentTab): ContentKind => CONTENT_KINDS.find((kind) => KINDS[kind].tab === tab)!;

/**
 * The names of the site's pages one level under a language (site/src/pages/[...lang]/, files and
 * folders; the site's routes.spec checks the list). The site's router reads `/essays/category/books`
 * as the page `books` under a language `essays/category` (it tries `…/books` before
 * `…/essays/category/…`, and then finds no such language), so a category slug is never one of them.
 */
export const TOP_LEVEL_PAGES: readonly string[] = [
  '404',
  'book',
  'books',
  'contact',
  'essays',
  'gallery',
  'index',
  'news',
  'newsletter',
  'og-image.png',
  'plays',
  'rss',
  'search',
];

/**
 * A category's slug, the same in every language: the text as entered, trimmed, Latin letters in
 * lower case, every run of other characters than letters, marks and digits one hyphen
 * ('Short Stories' → 'short-stories', 'شعر' stays 'شعر'); '' for none. A slug that would be a page's
 * name gets '-category' ('Books' → 'books-category').
 */
export function categorySlug(value: unknown): string {
  if (typeof value !== 'string') return '';
  const slug = value
    .normalize('NFC')
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
  return TOP_LEVEL_PAGES.includes(slug) ? `${slug}-category` : slug;
}

/** The category archive address of an item (`/essays/category/poetry`), or null (no category, or the kind has no archives). */
export function categoryPage(kind: ContentKind, item: object): string | null {
  const category = (KINDS[kind] as KindDefinition).category;
  const slug = category?.archive ? categorySlug((item as Record<string, unknown>)[category.field]) : '';
  return slug ? category!.archive!(slug) : null;
}

/** The public addresses of one item: its own pages (those it has), its kind's list page and its category's archive. */
export function publicPages(kind: ContentKind, item: { id: number }): string[] {
  const { itemPages, listPage } = KINDS[kind] as KindDefinition;
  const own = itemPages
    .filter((page) => !page.when || page.when(item as unknown as Record<string, unknown>))
    .map((page) => page.path(item.id));
  const archive = categoryPage(kind, item);
  return [...own, listPage, ...(archive ? [archive] : [])];
}

/** The kinds whose items may carry a publication time. */
export const SCHEDULED_KINDS = /* @__PURE__ */ CONTENT_KINDS.filter((kind) => KINDS[kind].scheduled);

/** The order of each public list (`GET /api/books` …); see compareBy in rules.ts. */
export const LIST_ORDER = /* @__PURE__ */ mapKinds((definition) => definition.order) as { [K in ContentKind]: (typeof KINDS)[K]['order'] };

/** Translated fields per kind (translations.ts). */
export const TRANSLATED_FIELDS = /* @__PURE__ */ mapKinds((definition) => definition.translated) as {
  [K in ContentKind]: (typeof KINDS)[K]['translated'];
};
