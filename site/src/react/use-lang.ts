import { useEffect, useState } from 'react';

export type Lang = 'en' | 'ar';

const read = (): Lang => (typeof document !== 'undefined' && document.documentElement.lang === 'ar' ? 'ar' : 'en');

/** The page's current language, following changes made by the language switch. */
export function useLang(): Lang {
  const [lang, setLang] = useState<Lang>('en');
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
  html.dir = lang === 'ar' ? 'rtl' : 'ltr';
  const title = html.getAttribute(`data-title-${lang}`);
  if (title) document.title = title;
}
