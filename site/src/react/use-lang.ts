import { DEFAULT_LANG, dirOf, type Lang, LANGUAGE_INFO, LANGUAGES } from '@portfolio/contract/languages';
import { useEffect, useState } from 'react';

export type { Lang };
export { dirOf };

/** <html lang>: always one of the languages (set by the server, or by the head script from the visitor's choice). */
const read = (): Lang => (typeof document !== 'undefined' ? (document.documentElement.lang as Lang) : DEFAULT_LANG);

/** The page's current language, following changes made by the language switch. */
export function useLang(): Lang {
  const [lang, setLang] = useState<Lang>(DEFAULT_LANG);
  useEffect(() => {
    setLang(read());
    const observer = new MutationObserver(() => setLang(read()));
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['lang'] });
    return () => observer.disconnect();
  }, []);
  return lang;
}

export function setLanguage(lang: Lang) {
  try {
    localStorage.setItem('language', lang);
  } catch {
    // Private mode: the choice lasts for this page only.
  }
  const html = document.documentElement;
  html.lang = lang;
  html.dir = dirOf(lang);
  const title = html.getAttribute(`data-title-${lang}`);
  if (title) document.title = title;
}

/** The address prefixes of the languages that have their own addresses (`/ar`), from the language list. */
const PREFIXES = LANGUAGES.map((lang) => LANGUAGE_INFO[lang].prefix).filter(Boolean);

/** A page's address as this page links to it: under the page's own language prefix on /ar/… (as lib/lang.ts langPath). */
export function localPath(path: string): string {
  const prefix = PREFIXES.find((p) => location.pathname === p || location.pathname.startsWith(`${p}/`));
  return !prefix ? path : path === '/' ? `${prefix}/` : `${prefix}${path}`;
}
