/** Conversions between form inputs (strings) and the API's JSON values. */
import type { Translations } from '@portfolio/contract/translations';

import type { BilingualValues } from '../components/bilingual';

/** Blank means "cleared": null. */
export const optionalText = (value: string) => (value.trim() === '' ? null : value.trim());

export const optionalInt = (value: string) => (value.trim() === '' ? null : Number(value.trim()));

export const toInput = (value: string | number | null | undefined) => (value === null || value === undefined ? '' : String(value));

/** The local calendar date of today, as a date input holds it. */
export function today(): string {
  const now = new Date();
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
}

/** An ISO timestamp from the API → a date input's value. */
export const dateInput = (iso: string | null | undefined) => (iso ? iso.slice(0, 10) : '');

/**
 * A date input → an ISO string (or null). An unchanged date keeps the stored timestamp, so
 * editing a text does not move an item in a list ordered by date.
 */
export function isoDate(value: string, original?: string | null): string | null {
  if (!value) return null;
  if (original && dateInput(original) === value) return original;
  return new Date(`${value}T00:00:00.000Z`).toISOString();
}

/** A text list as the API stores it: trimmed entries, blanks dropped. */
export const cleanList = (values: string[]) => values.map((value) => value.trim()).filter(Boolean);

/** How a form holds one field of the API's item: texts, numbers and dates as text; booleans, text lists and choices as they are. */
type FormField<V> = V extends boolean
  ? boolean
  : V extends readonly string[]
    ? string[]
    : string extends NonNullable<V>
      ? string
      : V extends number | null
        ? string
        : V;

/**
 * A form's values, made from the contract's input type (`SiteSettingsInput` …): every field the API
 * takes, held as a form holds it. `Override` sets what a form holds differently (a book's reviews as
 * title and URL). A field added to the contract is a field the form must fill.
 */
export type FieldValues<Input, Override = unknown> = Omit<
  { [F in keyof Input]-?: FormField<Exclude<Input[F], undefined>> },
  keyof Override
> &
  Override;

/** A content form's values (`FormValues<EssayInput>`): the fields as above, the translations as the bilingual part. */
export type FormValues<Input, Override = unknown> = FieldValues<Omit<Input, 'contentLanguage' | 'translations'>, Override> & {
  bilingual: BilingualValues<TranslatedField<Input>>;
};

/** The fields an input type translates (`EssayInput` → 'title' | 'excerpt' | …), from its `translations`. */
type TranslatedField<Input> = Input extends { translations?: Translations<infer Field> } ? Field : never;

/**
 * A content form's request body but the two languages' part (`contentLanguage`, `translations`):
 * every field of the contract's input type, so a field added there is one the form must send.
 */
export type FormBody<Input> = { [F in Exclude<keyof Input, 'contentLanguage' | 'translations'>]-?: Input[F] };
