/**
 * An essay's reading time: its words over a reading speed, in whole minutes (one at least), written
 * with the language's plural forms (Arabic has six: Intl.PluralRules('ar')) and the digits the site
 * writes dates with (lib/dates.ts: Intl's own for the language).
 */
import { type Lang, LANGUAGES } from '@portfolio/contract/languages';

import { type Key, t } from '../i18n';
import { withoutImageParagraphs } from './content';

/**
 * Words a minute. English 200; Arabic 180: an Arabic word joins article, prepositions and pronouns
 * to the word (والكتاب, بقلمها), so a sentence has fewer, longer words and reads at fewer per minute.
 */
export const WORDS_PER_MINUTE: Record<Lang, number> = { en: 200, ar: 180 };

/**
 * The words a reader reads in a plain or lightly marked-up text: image lines left out, an image's
 * or link's address not counted (a link's text is), and marks such as `*`, `#`, `>` or `-` standing
 * alone are not words.
 */
export function wordCount(text: string): number {
  const plain = withoutImageParagraphs(text)
    .replace(/!\[[^\]\r\n]*\]\([^()\s]*\)/g, ' ')
    .replace(/\[([^\]\r\n]*)\]\([^()\s]*\)/g, '$1');
  let words = 0;
  for (const word of plain.split(/\s+/)) if (/[\p{L}\p{N}]/u.test(word)) words++;
  return words;
}

/** Whole minutes to read `text` written in `lang`: one at least. */
export const readingMinutes = (text: string, lang: Lang): number => Math.max(1, Math.round(wordCount(text) / WORDS_PER_MINUTE[lang]));

const plurals = Object.fromEntries(LANGUAGES.map((lang) => [lang, new Intl.PluralRules(lang)])) as Record<Lang, Intl.PluralRules>;
const numbers = Object.fromEntries(LANGUAGES.map((lang) => [lang, new Intl.NumberFormat(lang)])) as Record<Lang, Intl.NumberFormat>;

/** '5 min read', «دقيقتان للقراءة», «11 دقيقة للقراءة». */
export function readingTimeText(minutes: number, lang: Lang): string {
  const form = plurals[lang].select(minutes) as Intl.LDMLPluralRule;
  return t(lang, `readingTime.${form}` satisfies Key, { minutes: numbers[lang].format(minutes) });
}
