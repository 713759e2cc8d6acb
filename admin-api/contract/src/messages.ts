import type { Lang } from './languages.js';
import { ar } from './messages/ar.js';
import { en, type MessageKey } from './messages/en.js';

/**
 * Every message the API sends and the overlay shows for validation and errors, by key, one catalogue
 * per language (messages/en.ts, messages/ar.ts). The API answers with the English text (the specification's sentences, unchanged) and
 * the key; the overlay shows the text of the key in its language, so a sentence can be reworded in
 * either language without losing the other.
 *
 * Parameters are written `{name}`. A parameter is a number or a string inserted as it is (limits,
 * a list of accepted values), or a MessageRef, which is translated into the same language: field
 * labels are passed that way (`{field}` ← `{ key: 'label.year' }`), so 'Year must be a whole number'
 * reads 'يجب أن تكون قيمة السنة عددًا صحيحًا'. A sentence about one named field that the
 * specification writes out ('Title is required') stays a key of its own: Arabic words agree with
 * their noun, so whole sentences translate better than templates; templates are for the API's
 * generic validators, and their Arabic is phrased to agree with any label ('قيمة {field}').
 *
 * Latin fragments in the Arabic (http://, /, ISO 8601, variable names) sit between the direction
 * isolates U+2066 … U+2069, or 'http://' shows as '//:http' in right-to-left text.
 */
export const MESSAGE_CATALOGUES: Record<Lang, Record<MessageKey, string>> = { en, ar };

/** Every message by key, with its text in each language (`MESSAGES[key].ar`). */
export const MESSAGES = /* @__PURE__ */ Object.fromEntries(
  (Object.keys(en) as MessageKey[]).map((key) => [
    key,
    Object.fromEntries(Object.entries(MESSAGE_CATALOGUES).map(([lang, texts]) => [lang, texts[key]])),
  ]),
) as Record<MessageKey, Record<Lang, string>>;

export type { MessageKey };
export type MessageLanguage = Lang;

export type MessageParam = string | number | MessageRef;
export type MessageParams = Record<string, MessageParam>;

/** A message by key, with its parameters: what the API sends besides the English text. */
export interface MessageRef {
  key: MessageKey;
  params?: MessageParams;
}

export function isMessageKey(value: unknown): value is MessageKey {
  return typeof value === 'string' && Object.hasOwn(en, value);
}

/**
 * Whether a value (e.g. from an answer's `errorKeys`) is a MessageRef this catalogue can show:
 * a known key and parameters that are numbers, strings or such refs. An API newer than the
 * overlay may send keys it does not know; the overlay then shows the English text as sent.
 */
export function isMessageRef(value: unknown): value is MessageRef {
  if (!value || typeof value !== 'object') return false;
  const { key, params } = value as { key?: unknown; params?: unknown };
  if (!isMessageKey(key)) return false;
  if (params === undefined) return true;
  if (!params || typeof params !== 'object' || Array.isArray(params)) return false;
  return Object.values(params).every((p) => typeof p === 'string' || typeof p === 'number' || isMessageRef(p));
}

/** The text of a message in a language; `params` (if given) are merged over the ref's own. */
export function messageText(message: MessageRef | MessageKey, lang: MessageLanguage, params?: MessageParams): string {
  const ref = typeof message === 'string' ? { key: message } : message;
  const all = { ...ref.params, ...params };
  return MESSAGE_CATALOGUES[lang][ref.key].replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = all[name];
    if (value === undefined) return whole;
    return typeof value === 'object' ? messageText(value, lang) : String(value);
  });
}

/** The placeholders a text uses, e.g. `['field', 'max']`. */
export function messagePlaceholders(text: string): string[] {
  return [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
}
