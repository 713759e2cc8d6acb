import { createContext, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { ar } from './ar';
import { en, type MessageKey } from './en';

export type Language = 'en' | 'ar';
export type Direction = 'ltr' | 'rtl';
export type Translate = (key: MessageKey, params?: Record<string, string | number>) => string;

const dictionaries: Record<Language, Record<MessageKey, string>> = { en, ar };

// Server messages and validation results are the specification's English sentences; this finds
// their key so they can be shown in Arabic too. The first key with a given text wins.
const keyByEnglish = new Map<string, MessageKey>();
for (const [key, text] of Object.entries(en)) if (!keyByEnglish.has(text)) keyByEnglish.set(text, key as MessageKey);

export interface I18n {
  lang: Language;
  dir: Direction;
  t: Translate;
  /** Translates a message known by its English text; unknown messages are shown as they are. */
  tm: (message: string) => string;
}

export function createI18n(lang: Language, dir: Direction = lang === 'ar' ? 'rtl' : 'ltr'): I18n {
  const dictionary = dictionaries[lang];
  const t: Translate = (key, params) =>
    (dictionary[key] ?? en[key]).replace(/\{(\w+)\}/g, (whole, name: string) => (params && name in params ? String(params[name]) : whole));
  const tm = (message: string) => {
    const key = keyByEnglish.get(message);
    return key ? dictionary[key] : message;
  };
  return { lang, dir, t, tm };
}

/** The page's language, as the site sets it on <html> (lang 'en' | 'ar', dir). */
export function readDocumentLanguage(): { lang: Language; dir: Direction } {
  const root = document.documentElement;
  const lang: Language = root.lang.toLowerCase().startsWith('ar') ? 'ar' : 'en';
  const dir: Direction = root.dir === 'rtl' || root.dir === 'ltr' ? root.dir : lang === 'ar' ? 'rtl' : 'ltr';
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
