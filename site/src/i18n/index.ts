import { type Lang, LANGUAGES, perLanguage } from '@portfolio/contract/languages';

import { ar } from './ar';
import { en, type Key } from './en';

export type { Key, Lang };
export const LANGS = LANGUAGES;
/** One catalogue per language of the list (contract languages.ts); each is typed by the English keys. */
export const dictionaries: Record<Lang, Record<Key, string>> = { en, ar };

export type Vars = Record<string, string | number>;

const fill = (text: string, vars?: Vars) =>
  vars ? text.replace(/\{(\w+)\}/g, (m, name) => (name in vars ? String(vars[name]) : m)) : text;

/** The text of `key` in `lang`, with {placeholders} filled. */
export function t(lang: Lang, key: Key, vars?: Vars): string {
  return fill(dictionaries[lang][key], vars);
}

/** Words as a list in prose: `books, essays and news` (`الكتب والمقالات والأخبار`). */
export function listText(lang: Lang, words: readonly string[]): string {
  if (words.length < 2) return words.join('');
  return `${words.slice(0, -1).join(t(lang, 'list.separator'))}${t(lang, 'list.lastSeparator')}${words.at(-1)}`;
}

/** Both languages at once, for static HTML that shows the one chosen in the browser. */
export function both(key: Key, vars?: Vars): Record<Lang, string> {
  return perLanguage((lang) => t(lang, key, vars));
}

/** A subset of both dictionaries, passed to an island as a prop (islands get only what they use). */
export function pick<K extends Key>(keys: readonly K[]): Record<Lang, Record<K, string>> {
  return perLanguage((lang) => Object.fromEntries(keys.map((key) => [key, dictionaries[lang][key]])) as Record<K, string>);
}
