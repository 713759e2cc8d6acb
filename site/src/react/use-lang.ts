import { DEFAULT_LANG, dirOf, type Lang } from '@portfolio/contract/languages';
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
