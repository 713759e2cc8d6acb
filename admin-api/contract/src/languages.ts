/**
 * The languages of the product, in one list: everything that differs per language (types of
 * translations, catalogues, page addresses, text direction) is derived from it. The first is the
 * specification's language: its texts are the API's answers, and its pages have the specification's
 * addresses (no prefix); every other language also has its own prefixed addresses (`/ar/books`).
 */
export const LANGUAGE_INFO = {
  en: { dir: 'ltr', prefix: '', locale: 'en_US' },
  ar: { dir: 'rtl', prefix: '/ar', locale: 'ar_AR' },
} as const satisfies Record<string, { dir: 'ltr' | 'rtl'; prefix: string; /** Open Graph's og:locale. */ locale: string }>;

export type Lang = keyof typeof LANGUAGE_INFO;
// Pure: bundles that import the contract's index for something else drop it.
export const LANGUAGES = /* @__PURE__ */ Object.keys(LANGUAGE_INFO) as readonly Lang[];
/** The specification's language: the first of the list. */
export const DEFAULT_LANG: Lang = 'en';

export const dirOf = (lang: Lang): 'ltr' | 'rtl' => LANGUAGE_INFO[lang].dir;
export const isLang = (value: unknown): value is Lang => typeof value === 'string' && Object.hasOwn(LANGUAGE_INFO, value);

/** One value per language: `perLanguage((lang) => t(lang, key))`. */
export const perLanguage = <T>(make: (lang: Lang) => T): Record<Lang, T> =>
  Object.fromEntries(LANGUAGES.map((lang) => [lang, make(lang)])) as Record<Lang, T>;

/** The languages with their own prefixed addresses: all but the first. */
const PREFIXED = /* @__PURE__ */ LANGUAGES.filter((lang) => LANGUAGE_INFO[lang].prefix !== '');

/** The language of a site address: the one whose prefix it is under (`/ar`, `/ar/books/3` → 'ar'), else the first. */
export function languageOfPath(path: string): Lang {
  return PREFIXED.find((lang) => path === LANGUAGE_INFO[lang].prefix || path.startsWith(`${LANGUAGE_INFO[lang].prefix}/`)) ?? DEFAULT_LANG;
}

/** The specification's address of a site address: `/ar/books/3` → `/books/3`, `/ar` and `/ar/` → `/`. */
export function unprefixedPath(path: string): string {
  return path.slice(LANGUAGE_INFO[languageOfPath(path)].prefix.length) || '/';
}

/** A specification's address in a language: `/books/3` → `/ar/books/3`, `/` → `/ar`; as it is in the first language. */
export function pathFor(lang: Lang, path: string): string {
  const prefix = LANGUAGE_INFO[lang].prefix;
  return !prefix ? path : path === '/' ? prefix : `${prefix}${path}`;
}
