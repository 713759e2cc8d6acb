/**
 * Content in two languages. Every item keeps the specification's fields as they are: they hold the
 * item in its own language (`contentLanguage`, or detected from the text when null). The other
 * language's version of the fields a visitor reads lives in `translations[lang]`; a field missing
 * there falls back to the item's own text (which a page then marks with its own `lang`/`dir`).
 *
 * Translated per kind: `translated` in kinds.ts, what a visitor reads as prose; never links, dates,
 * numbers, enums (a book's awards, ISBN and `language` label are not; news' category badge is a fixed
 * label in both languages already). The spec's `arabicTitle` of plays stays, and is the Arabic title
 * when `translations.ar.title` is empty.
 */
import { type ContentKind, TRANSLATED_FIELDS } from './kinds.js';
import { isLang, type Lang, LANGUAGES } from './languages.js';

export { type Lang, LANGUAGES };

export { TRANSLATED_FIELDS };

export type TranslatedKind = ContentKind;
export type BookText = (typeof TRANSLATED_FIELDS)['books'][number];
export type EssayText = (typeof TRANSLATED_FIELDS)['essays'][number];
export type ArtworkText = (typeof TRANSLATED_FIELDS)['artworks'][number];
export type NewsText = (typeof TRANSLATED_FIELDS)['news'][number];
export type PlayText = (typeof TRANSLATED_FIELDS)['plays'][number];

/** One language's version of some fields; a blank or null field means "not translated". */
export type TextVersion<F extends string> = { [K in F]?: string | null };
/** `{ ar?: {...}, en?: {...} }`: always an object in answers (`{}` when nothing is translated). */
export type Translations<F extends string> = { [L in Lang]?: TextVersion<F> };

/** What an item needs for the rules below (any of the five kinds). */
export interface Translatable {
  contentLanguage: Lang | null;
  translations: Translations<string>;
}

// The letters that decide a text's language (one UTF-16 unit each): Arabic blocks and presentation
// forms, Latin with its accented letters. Counted in a loop, not with String.match: the site asks this
// for every field of every card it renders, and match() built an array of every letter.
const isArabicLetter = (c: number) =>
  (c >= 0x0600 && c <= 0x06ff) ||
  (c >= 0x0750 && c <= 0x077f) ||
  (c >= 0x08a0 && c <= 0x08ff) ||
  (c >= 0xfb50 && c <= 0xfdff) ||
  (c >= 0xfe70 && c <= 0xfeff);
const isLatinLetter = (c: number) => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || (c >= 0xc0 && c <= 0x24f);

/** More Arabic letters than Latin ones in the first `limit` characters of the texts joined by one space is Arabic. */
function languageOf(texts: readonly string[], limit = Infinity): Lang {
  let arabic = 0;
  let latin = 0;
  let seen = 0;
  for (let t = 0; t < texts.length && seen < limit; t++) {
    if (t > 0) seen++; // the space between two texts
    const text = texts[t];
    const end = Math.min(text.length, limit - seen);
    for (let i = 0; i < end; i++) {
      const c = text.charCodeAt(i);
      if (isArabicLetter(c)) arabic++;
      else if (isLatinLetter(c)) latin++;
    }
    seen += Math.max(end, 0);
  }
  return arabic > latin ? 'ar' : 'en';
}

/** The language of a text by its letters: more Arabic letters than Latin ones is Arabic. */
export function detectLanguage(text: string): Lang {
  return languageOf([text]);
}

const blank = (v: unknown) => typeof v !== 'string' || v.trim() === '';

/** The item's own language: as chosen, or detected from its translated fields. */
export function itemLanguage(kind: TranslatedKind, item: Translatable): Lang {
  if (isLang(item.contentLanguage)) return item.contentLanguage;
  const own = item as unknown as Record<string, unknown>;
  return languageOf(
    TRANSLATED_FIELDS[kind].map((f) => (typeof own[f] === 'string' ? (own[f] as string) : '')),
    4000,
  );
}

/** A field as a visitor reads it: the text and the language it is in. */
export interface ShownText {
  text: string;
  lang: Lang;
}

/**
 * The field `field` of an item for a visitor reading `lang`: that language's version when there
 * is one, else the item's own text in its own language. Null when the field is empty in both.
 */
export function textFor(kind: TranslatedKind, item: Translatable, field: string, lang: Lang): ShownText | null {
  const own = itemLanguage(kind, item);
  const original = (item as unknown as Record<string, unknown>)[field];
  let translated = lang === own ? undefined : item.translations?.[lang]?.[field];
  if (blank(translated) && kind === 'plays' && field === 'title' && lang === 'ar' && own !== 'ar') {
    translated = (item as unknown as { arabicTitle?: string | null }).arabicTitle;
  }
  if (!blank(translated)) return { text: translated as string, lang };
  if (!blank(original)) return { text: original as string, lang: own };
  return null;
}

/** The languages an item still lacks: every field its own text fills needs a version in each other language. */
export function missingLanguages(kind: TranslatedKind, item: Translatable): Lang[] {
  const own = itemLanguage(kind, item);
  const fields = TRANSLATED_FIELDS[kind] as readonly string[];
  const record = item as unknown as Record<string, unknown>;
  const complete = (other: Lang) => fields.every((f) => blank(record[f]) || textFor(kind, item, f, other)?.lang === other);
  return LANGUAGES.filter((other) => other !== own && !complete(other));
}

/** Whether an item has both languages. */
export const isTranslated = (kind: TranslatedKind, item: Translatable) => missingLanguages(kind, item).length === 0;
