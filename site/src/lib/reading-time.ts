/**
 * An essay's reading time: its words over a reading speed, in whole minutes (one at least), written
 * with the language's plural forms (Arabic has six: Intl.PluralRules('ar')) and the digits the site
 * writes dates with (lib/dates.ts: Intl's own for the language).
 */
import { type Lang, LANGUAGES } from '@portfolio/contract/languages';
import { textFor, type Translatable } from '@portfolio/contract/translations';

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
 * alone are not words. One pass over the characters: the essays list counts every essay in every
 * language at each publish (4,000 essays of 1,000 words: about 0.1 s, where splitting and a
 * Unicode regex per word took 3 s).
 */
export function wordCount(text: string): number {
  const plain = text.includes('](')
    ? withoutImageParagraphs(text)
        .replace(/!\[[^\]\r\n]*\]\([^()\s]*\)/g, ' ')
        .replace(/\[([^\]\r\n]*)\]\([^()\s]*\)/g, '$1')
    : text;
  let words = 0;
  let inWord = false;
  let counted = false;
  for (let i = 0; i < plain.length; i++) {
    const c = plain.charCodeAt(i);
    if (isSpace(c)) {
      inWord = false;
      continue;
    }
    if (!inWord) {
      inWord = true;
      counted = false;
    }
    if (!counted && isWordChar(c)) {
      words++;
      counted = true;
    }
  }
  return words;
}

const isSpace = (c: number) =>
  c <= 32 ||
  c === 0xa0 ||
  c === 0x1680 ||
  (c >= 0x2000 && c <= 0x200a) ||
  c === 0x2028 ||
  c === 0x2029 ||
  c === 0x202f ||
  c === 0x205f ||
  c === 0x3000 ||
  c === 0xfeff;

/** A letter or digit of any script; punctuation and symbols (`—`, `«»`, `،؛؟`, `…`) are not. */
function isWordChar(c: number): boolean {
  if (c < 0x80) return (c >= 48 && c <= 57) || ((c | 32) >= 97 && (c | 32) <= 122);
  if (c >= 0x600 && c <= 0x6ff) return c !== 0x60c && c !== 0x61b && c !== 0x61f && (c < 0x66a || c > 0x66d);
  return c >= 0xc0 && c !== 0xd7 && c !== 0xf7 && (c < 0x2010 || c > 0x2bff) && (c < 0x3000 || c > 0x303f);
}

/** Whole minutes to read `text` written in `lang`: one at least. */
export const readingMinutes = (text: string, lang: Lang): number => Math.max(1, Math.round(wordCount(text) / WORDS_PER_MINUTE[lang]));

const minutesOf = new WeakMap<Translatable, Map<Lang, number>>();

/**
 * Minutes to read an essay as a reader of `reader` is shown it (the version in that language, or the
 * other, at the speed of the language it is in). Kept per item object: the API client brings
 * unchanged items forward from one publish to the next (api.ts readCollection), so the essays list
 * counts only the essays an edit changed.
 */
export function essayReadingMinutes(essay: Translatable, reader: Lang): number {
  let known = minutesOf.get(essay);
  if (!known) minutesOf.set(essay, (known = new Map()));
  let minutes = known.get(reader);
  if (minutes === undefined) {
    const shown = textFor('essays', essay, 'content', reader);
    minutes = readingMinutes(shown?.text ?? '', shown?.lang ?? reader);
    known.set(reader, minutes);
  }
  return minutes;
}

const plurals = Object.fromEntries(LANGUAGES.map((lang) => [lang, new Intl.PluralRules(lang)])) as Record<Lang, Intl.PluralRules>;
const numbers = Object.fromEntries(LANGUAGES.map((lang) => [lang, new Intl.NumberFormat(lang)])) as Record<Lang, Intl.NumberFormat>;

/** '5 min read', «دقيقتان للقراءة», «11 دقيقة للقراءة». */
export function readingTimeText(minutes: number, lang: Lang): string {
  const form = plurals[lang].select(minutes) as Intl.LDMLPluralRule;
  return t(lang, `readingTime.${form}` satisfies Key, { minutes: numbers[lang].format(minutes) });
}
