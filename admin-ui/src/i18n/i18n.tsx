import { type Lang, LANGUAGES } from '@portfolio/contract/translations';
import { createContext, type ReactNode, useContext, useEffect, useMemo, useState } from 'react';

import { ar } from './ar';
import { en, type UiKey } from './en';
import { type Message, messageInLanguage } from './message';

export type Direction = 'ltr' | 'rtl';
export type Translate = (key: UiKey, params?: Record<string, string | number>) => string;

/** The overlay's words in each of the contract's languages: a language or a key missing fails to compile. */
const catalogues: Record<Lang, Record<UiKey, string>> = { en, ar };
const directions: Record<Lang, Direction> = { en: 'ltr', ar: 'rtl' };
/** Dates and numbers: Western digits in every language, as the overlay shows years and counts. */
const locales: Record<Lang, string> = { en: 'en', ar: 'ar-u-nu-latn' };

/** The writing direction of a language. */
export const directionOf = (lang: Lang): Direction => directions[lang];

/** The Intl locale of a language's dates and numbers. */
export const localeOf = (lang: Lang): string => locales[lang];

/** A language's name in that language ('English', 'العربية'). */
export const nativeName = (lang: Lang): string => catalogues[lang][`translation.language.${lang}`];

export interface I18n {
  lang: Lang;
  dir: Direction;
  /** The overlay's own words (en.ts, ar.ts). */
  t: Translate;
  /** A validation or server message (@portfolio/contract/messages), or a server sentence as sent. */
  msg: (message: Message) => string;
}

export function createI18n(lang: Lang, dir: Direction = directionOf(lang)): I18n {
  const dictionary = catalogues[lang];
  const t: Translate = (key, params) =>
    (dictionary[key] ?? en[key]).replace(/\{(\w+)\}/g, (whole, name: string) => (params && name in params ? String(params[name]) : whole));
  const msg = (message: Message) => messageInLanguage(message, lang);
  return { lang, dir, t, msg };
}

/** The page's language, as the site sets it on <html> (lang, dir); English when it is none of the contract's. */
export function readDocumentLanguage(): { lang: Lang; dir: Direction } {
  const root = document.documentElement;
  const lang = LANGUAGES.find((l) => root.lang.toLowerCase().startsWith(l)) ?? 'en';
  const dir: Direction = root.dir === 'rtl' || root.dir === 'ltr' ? root.dir : directionOf(lang);
  return { lang, dir };
}

const I18nContext = createContext<I18n>(createI18n('en'));

/** Follows the site's language switch while the overlay is open. */
export function I18nProvider({ children }: { children: ReactNode }) {
  const [language, setLanguage] = useState(readDocumentLanguage);
  useEffect(() => {
    const observer = new MutationObserver(() =>
      setLanguage((previous) => {
        const next = readDocumentLanguage();
        return next.lang === previous.lang && next.dir === previous.dir ? previous : next;
      }),
    );
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['lang', 'dir'] });
    return () => observer.disconnect();
  }, []);
  const value = useMemo(() => createI18n(language.lang, language.dir), [language]);
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

export function useI18n(): I18n {
  return useContext(I18nContext);
}
