import { fieldFormat, formattedHtml, formattedPlainText, type PlainLayout, type TextImage } from '@portfolio/contract/formatted-text';
import { dirOf, type Lang, LANGUAGE_INFO, languageOfPath, LANGUAGES, unprefixedPath } from '@portfolio/contract/languages';
import { type ShownText, textFor, type Translatable, type TranslatedKind } from '@portfolio/contract/translations';

import { type Key, t, type Vars } from '../i18n';
import { pagePath } from './page-path';

/**
 * Each language besides the specification's has its own addresses (contract languages.ts: `/ar/`,
 * `/ar/books/3` … are the pages of `/`, `/books/3` … prebuilt in Arabic, lang="ar" dir="rtl" in the
 * HTML). The specification's addresses stay as they were: their language is the visitor's choice
 * (localStorage `language`), set before first paint.
 */
const PREFIXED = LANGUAGES.filter((lang) => LANGUAGE_INFO[lang].prefix !== '');

/**
 * The values of the `[...lang]` segment of the page files under `pages/[...lang]/`: '' (the
 * specification's addresses) and each other language's prefix (`ar`). Any other value is no page.
 */
export const LANG_SEGMENTS: readonly string[] = LANGUAGES.map((lang) => LANGUAGE_INFO[lang].prefix.slice(1));

/** The fixed language of a page address: 'ar' under /ar/, null on the specification's addresses (the visitor chooses). */
export function pageLang(pathname: string): Lang | null {
  const lang = languageOfPath(pagePath(pathname));
  return LANGUAGE_INFO[lang].prefix ? lang : null;
}

/** The specification's address of a page: `/ar/books/3` → `/books/3`, `/ar` → `/`. */
export function specPath(pathname: string): string {
  return unprefixedPath(pagePath(pathname));
}

/** A page's address in a language: `/books/3` → `/ar/books/3`, `/` → `/ar/` (the specification's address for the first language). */
export function langPath(lang: Lang, pathname: string): string {
  const path = specPath(pathname);
  const prefix = LANGUAGE_INFO[lang].prefix;
  if (!prefix) return path;
  return path === '/' ? `${prefix}/` : `${prefix}${path}`;
}

/** Site paths that are not pages (files, feeds, the API): links to them are the same in every language. */
const NOT_A_PAGE = new RegExp(
  `^/(?:${PREFIXED.map((lang) => `${LANGUAGE_INFO[lang].prefix.slice(1)}(?:/|$)|`).join('')}` +
    'api/|uploads/|objects/|public-objects/|admin-ui/|_astro/|pagefind/|search-index/|favicon|og-image|robots\\.txt|sitemap\\.xml)',
);

/**
 * A link as a page in `lang` (its fixed language, or null on the specification's addresses) writes
 * it: a page in a prefixed language links to the other pages at their addresses in that language, so
 * an Arabic reader stays on the Arabic site (`/books/3` → `/ar/books/3`, `/rss/essays.xml` →
 * `/ar/rss/essays.xml`). Links carrying `?lang=` (the language switch), links to files and the API,
 * and links elsewhere are left as they are.
 */
export function localHref(lang: Lang | null, href: string): string {
  if (!lang || !href || !LANGUAGE_INFO[lang].prefix || !href.startsWith('/') || href.startsWith('//')) return href;
  if (NOT_A_PAGE.test(href) || /[?&]lang=/.test(href)) return href;
  const [path, rest = ''] = href.split(/(?=[?#])/, 2);
  return `${langPath(lang, path)}${rest}`;
}

/** The page's link maker (Astro.locals.href, set by src/middleware.ts): `href('/books')` is `/ar/books` on an Arabic page. */
export const hrefMaker =
  (lang: Lang | null) =>
  <T extends string | null | undefined>(href: T): T =>
    (typeof href === 'string' ? localHref(lang, href) : href) as T;

/** One field of an item, as the page shows it: for each language the visitor may read, the text and its own language. */
export type FieldVersions = {
  /** One version for every reader (one language only, or a page in a fixed language). */
  one?: ShownText;
} & {
  /** Different text per reader language (the specification's addresses, item in every language). */
  [L in Lang]?: ShownText;
};

/**
 * What to render for a field: on an /ar/ page the Arabic version (or the other, marked as such);
 * on the specification's addresses both versions when they differ, each shown in its language.
 */
export function fieldVersions(kind: TranslatedKind, item: Translatable, field: string, fixed: Lang | null): FieldVersions {
  if (fixed) {
    const one = textFor(kind, item, field, fixed);
    return one ? { one } : {};
  }
  const versions = LANGUAGES.map((lang) => textFor(kind, item, field, lang));
  const first = versions.find((v) => v !== null);
  if (!first) return {};
  if (versions.some((v) => !v || v.text !== first.text || v.lang !== first.lang)) {
    return versions.every((v) => v) ? Object.fromEntries(LANGUAGES.map((lang, i) => [lang, versions[i]])) : { one: first };
  }
  return { one: first };
}

/**
 * A field as plain text in one language (titles of feeds, meta descriptions, excerpts): the version
 * for `lang`, or the other; a formatted text as its words alone (no markup, no Markdown syntax).
 */
export function plainText(kind: TranslatedKind, item: Translatable, field: string, lang: Lang): string {
  const text = textFor(kind, item, field, lang)?.text ?? '';
  const format = fieldFormat(kind, field, item as { textFormat?: 'plain' | 'markdown' });
  return format === 'markdown' ? formattedPlainText(text, format) : text;
}

export { dirOf };

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]);

export interface FieldHtmlOptions {
  /** The element around the text (default span). */
  as?: string;
  class?: string;
  style?: string;
  /** Splits a long text into paragraphs (each a <p>). */
  paragraphs?: (text: string) => string[];
  /** Shortens the text (cards). */
  shorten?: (text: string) => string;
  /** A paragraph's own markup instead of a <p> (an image inside an essay), or null for a <p>. */
  paragraphHtml?: (paragraph: string) => string | null;
  /**
   * A text that may carry formatting (@portfolio/contract/formatted-text), in the item's `textFormat`:
   * how plain text splits into paragraphs, and the markup of an upload image (null: plain text keeps
   * an image paragraph as text).
   */
  formatted?: { layout: PlainLayout; image?: ((image: TextImage) => string | null) | null };
}

/**
 * The markup of a content field in the reader's language (what components/Field.astro renders): on an
 * /ar/ page the Arabic version; on the specification's addresses both versions when the item has
 * both, CSS showing the one that matches <html lang>; a version in the other language carries its own
 * lang and dir. A plain function, so list pages with thousands of cards call it without a component
 * instance per field (a /books page of 4,000 books rendered in about half the time).
 */
export function fieldHtml(
  kind: TranslatedKind,
  item: Translatable,
  field: string,
  fixed: Lang | null,
  options: FieldHtmlOptions = {},
): string {
  const { as: tag = 'span', class: className, style, paragraphs, shorten, paragraphHtml, formatted } = options;
  const v = fieldVersions(kind, item, field, fixed);
  const inner = paragraphs || formatted ? 'div' : 'span';
  const format = fieldFormat(kind, field, item as { textFormat?: 'plain' | 'markdown' });
  // Shown unformatted (a card, a teaser), a Markdown text is its words, never its syntax.
  const words = (text: string) => (format === 'markdown' ? formattedPlainText(text, 'markdown') : text);
  // Footnote ids carry the reader's language: the specification's addresses hold both versions.
  const body = (text: string, reader: Lang, idPrefix = '') =>
    formatted
      ? formattedHtml(text, {
          format,
          layout: formatted.layout,
          image: format === 'markdown' ? (formatted.image ?? null) : formatted.image,
          href: hrefMaker(fixed),
          idPrefix,
          footnotes: { heading: t(reader, 'text.footnotes'), backLabel: t(reader, 'text.footnoteBack') },
        })
      : paragraphs
        ? paragraphs(words(text))
            .map((p) => paragraphHtml?.(p) ?? `<p>${escapeHtml(p)}</p>`)
            .join('')
        : escapeHtml(shorten ? shorten(words(text)) : words(text));
  // Formatted text is styled under .formatted (global.css); plain text keeps its markup as it was.
  const classes = [className, formatted && format === 'markdown' ? 'formatted' : ''].filter(Boolean).join(' ');
  const attrs = `${classes ? ` class="${escapeHtml(classes)}"` : ''}${style ? ` style="${escapeHtml(style)}"` : ''}`;
  if (v.one) return `<${tag}${attrs} lang="${v.one.lang}" dir="${dirOf(v.one.lang)}">${body(v.one.text, fixed ?? v.one.lang)}</${tag}>`;
  if (!LANGUAGES.every((lang) => v[lang])) return '';
  const each = LANGUAGES.map((lang) => {
    const shown = v[lang]!;
    return `<${inner} data-lang="${lang}" lang="${shown.lang}" dir="${dirOf(shown.lang)}">${body(shown.text, lang, `${lang}-`)}</${inner}>`;
  });
  return `<${tag}${attrs}>${each.join('')}</${tag}>`;
}

/**
 * A text in every language (what components/T.astro renders, and the cards' code): one element per
 * reader language, `data-lang` naming it, CSS showing the one that matches <html lang>. `text(lang)`
 * is the reader's version: a string written in that language, or a ShownText, which may be in
 * another language and is marked with its own lang and dir; null leaves that reader out.
 * `paragraphs`: each version is a <div> of <p>, split by that function.
 */
export function eachLanguageHtml(text: (lang: Lang) => string | ShownText | null, paragraphs?: (text: string) => string[]): string {
  let html = '';
  for (const lang of LANGUAGES) {
    const version = text(lang);
    if (version === null) continue;
    const attrs = typeof version === 'string' ? `lang="${lang}"` : `lang="${version.lang}" dir="${dirOf(version.lang)}"`;
    const value = typeof version === 'string' ? version : version.text;
    html += paragraphs
      ? `<div data-lang="${lang}" ${attrs}>${paragraphs(value)
          .map((p) => `<p>${escapeHtml(p)}</p>`)
          .join('')}</div>`
      : `<span data-lang="${lang}" ${attrs}>${escapeHtml(value)}</span>`;
  }
  return html;
}

/** A UI string in every language; `vars` may differ per language (e.g. the author's name). */
export function uiTextHtml(k: Key, vars?: Vars | ((lang: Lang) => Vars)): string {
  return eachLanguageHtml((lang) => t(lang, k, typeof vars === 'function' ? vars(lang) : vars));
}

/**
 * A UI string in both languages with one content field inside it ('Published in {publication}'):
 * each language's sentence holds the field's version for that reader (on an /ar/ page, the Arabic
 * version for both), marked with its own lang and dir when it is in the other language.
 */
export function uiTextWithField(k: Key, name: string, kind: TranslatedKind, item: Translatable, field: string, fixed: Lang | null): string {
  const MARK = '\u0000';
  return LANGUAGES.map((ui) => {
    const shown = textFor(kind, item, field, fixed ?? ui);
    const value = !shown
      ? ''
      : shown.lang === ui
        ? escapeHtml(shown.text)
        : `<span lang="${shown.lang}" dir="${dirOf(shown.lang)}">${escapeHtml(shown.text)}</span>`;
    return `<span data-lang="${ui}" lang="${ui}">${escapeHtml(t(ui, k, { [name]: MARK })).replace(MARK, value)}</span>`;
  }).join('');
}
