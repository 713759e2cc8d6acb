import { textFor, type Lang, type ShownText, type Translatable, type TranslatedKind } from '@portfolio/contract/translations';
import { pagePath } from './page-path';

/**
 * The Arabic site at its own addresses: `/ar/`, `/ar/books/3` … are the pages of `/`, `/books/3` …
 * prebuilt in Arabic (lang="ar" dir="rtl" in the HTML). The specification's addresses stay as they
 * were: their language is the visitor's choice (localStorage `language`), set before first paint.
 */
export const AR_PREFIX = '/ar';

/** The fixed language of a page address: 'ar' under /ar/, null on the specification's addresses (the visitor chooses). */
export function pageLang(pathname: string): Lang | null {
  const path = pagePath(pathname);
  return path === AR_PREFIX || path.startsWith(`${AR_PREFIX}/`) ? 'ar' : null;
}

/** The specification's address of a page: `/ar/books/3` → `/books/3`, `/ar` → `/`. */
export function specPath(pathname: string): string {
  const path = pagePath(pathname);
  if (pageLang(path) !== 'ar') return path;
  return path.slice(AR_PREFIX.length) || '/';
}

/** The Arabic address of a page: `/books/3` → `/ar/books/3`, `/` → `/ar/`. */
export function arabicPath(pathname: string): string {
  const path = specPath(pathname);
  return path === '/' ? `${AR_PREFIX}/` : `${AR_PREFIX}${path}`;
}

/** Site paths that are not pages (files, feeds, the API): links to them are the same in both languages. */
const NOT_A_PAGE = /^\/(?:ar(?:\/|$)|api\/|uploads\/|objects\/|public-objects\/|admin-ui\/|_astro\/|pagefind\/|search-index\/|favicon|og-image|robots\.txt|sitemap\.xml)/;

/**
 * The HTML of a page rendered at an /ar/ address: its links to other pages point to their /ar/
 * addresses, so an Arabic reader stays on the Arabic site (`href="/books/3"` → `href="/ar/books/3"`,
 * `/rss/essays.xml` → `/ar/rss/essays.xml`). Links carrying `?lang=` (the language switch) and
 * links to files and the API are left as they are.
 */
export function localizeLinks(html: string): string {
  return html.replace(/(\shref=")(\/[^"]*)"/g, (whole, attr: string, href: string) => {
    if (href.startsWith('//') || NOT_A_PAGE.test(href) || /[?&]lang=/.test(href)) return whole;
    const [path, rest = ''] = href.split(/(?=[?#])/, 2);
    return `${attr}${path === '/' ? `${AR_PREFIX}/` : AR_PREFIX + path}${rest}"`;
  });
}

/** One field of an item, as the page shows it: for each language the visitor may read, the text and its own language. */
export interface FieldVersions {
  /** One version for every reader (one language only, or a page in a fixed language). */
  one?: ShownText;
  /** Different text per reader language (the specification's addresses, item in both languages). */
  en?: ShownText;
  ar?: ShownText;
}

/**
 * What to render for a field: on an /ar/ page the Arabic version (or the other, marked as such);
 * on the specification's addresses both versions when they differ, each shown in its language.
 */
export function fieldVersions(kind: TranslatedKind, item: Translatable, field: string, fixed: Lang | null): FieldVersions {
  if (fixed) {
    const one = textFor(kind, item, field, fixed);
    return one ? { one } : {};
  }
  const en = textFor(kind, item, field, 'en');
  const ar = textFor(kind, item, field, 'ar');
  if (!en || !ar) return en || ar ? { one: (en ?? ar)! } : {};
  if (en.text === ar.text && en.lang === ar.lang) return { one: en };
  return { en, ar };
}

/** A field as plain text in one language (titles of feeds, meta descriptions): the version for `lang`, or the other. */
export function plainText(kind: TranslatedKind, item: Translatable, field: string, lang: Lang): string {
  return textFor(kind, item, field, lang)?.text ?? '';
}

export const dirOf = (lang: Lang) => (lang === 'ar' ? 'rtl' : 'ltr');
