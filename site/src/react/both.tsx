import type { Lang } from '@portfolio/contract/languages';

/*
 * Client code reads the languages from the records the page gives it (one key per language, in the
 * list's order: i18n pick(), perLanguage()), so the islands carry no copy of the list.
 */

/**
 * A text in every language, server-rendered (the markup of lib/lang.ts eachLanguageHtml for plain
 * strings); CSS shows the one matching <html lang>, so there is no flash before hydration.
 */
export function Both({ text }: { text: Record<Lang, string> }) {
  return (
    <>
      {Object.entries(text).map(([lang, value]) => (
        <span key={lang} data-lang={lang} lang={lang}>
          {value}
        </span>
      ))}
    </>
  );
}

/** A value for each language of a record: `eachLanguage(strings, (texts) => texts['nav.admin'])`. */
export const eachLanguage = <T, U>(record: Record<Lang, T>, make: (value: T, lang: Lang) => U) =>
  Object.fromEntries(Object.entries<T>(record).map(([lang, value]) => [lang, make(value, lang as Lang)])) as Record<Lang, U>;

/** One key of an island's strings (i18n pick()) in every language. */
export const ofKey = <K extends string>(strings: Record<Lang, Record<K, string>>, key: K) => eachLanguage(strings, (texts) => texts[key]);
