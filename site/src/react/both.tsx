import { LANGUAGES, perLanguage, type Lang } from '@portfolio/contract/languages';

/**
 * A text in every language, server-rendered (the markup of lib/lang.ts eachLanguageHtml for plain
 * strings); CSS shows the one matching <html lang>, so there is no flash before hydration.
 */
export function Both({ text }: { text: Record<Lang, string> }) {
  return (
    <>
      {LANGUAGES.map((lang) => (
        <span key={lang} data-lang={lang} lang={lang}>
          {text[lang]}
        </span>
      ))}
    </>
  );
}

/** One key of an island's strings (i18n pick()) in every language. */
export const ofKey = <K extends string>(strings: Record<Lang, Record<K, string>>, key: K) => perLanguage((lang) => strings[lang][key]);
