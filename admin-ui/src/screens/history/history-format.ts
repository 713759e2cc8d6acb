import { type Lang, LANGUAGES } from '@portfolio/contract/translations';

import { en, type UiKey } from '../../i18n/en';
import { localeOf, type Translate } from '../../i18n/i18n';

/** Columns that are not an item's content (the API leaves them out of changed fields too). */
const NOT_CONTENT = new Set([
  'id',
  'createdAt',
  'updatedAt',
  'createdByUserId',
  'lastUpdatedByUserId',
  'deletedAt',
  'deletedByUserId',
  'downloadCount',
]);

/** The content fields of two snapshots, in the newer one's order. */
export function historyFields(before: Record<string, unknown> | undefined, after: Record<string, unknown>): string[] {
  const fields = [...Object.keys(after), ...Object.keys(before ?? {}).filter((field) => !(field in after))];
  return fields.filter((field) => !NOT_CONTENT.has(field));
}

/**
 * A snapshot with its other-language versions as fields of their own (`translations.ar.title`), so a
 * comparison shows 'Title (Arabic)' with its changed words, not one line of JSON.
 */
export function flattenTranslations(snapshot: Record<string, unknown>): Record<string, unknown> {
  const { translations, ...rest } = snapshot;
  if (!translations || typeof translations !== 'object') return snapshot;
  const flat: Record<string, unknown> = { ...rest };
  for (const [language, fields] of Object.entries(translations as Record<string, unknown>)) {
    if (!fields || typeof fields !== 'object') continue;
    for (const [field, value] of Object.entries(fields as Record<string, unknown>)) flat[`translations.${language}.${field}`] = value;
  }
  return flat;
}

/** `translations.ar.title`: a field of the version in another language. */
const TRANSLATION_FIELD = new RegExp(`^translations\\.(${LANGUAGES.join('|')})\\.(.+)$`);

/** A field's label as the forms show it ('Cover Image'), or its name when the overlay has none. */
export function historyFieldLabel(field: string, t: Translate): string {
  if (field === 'isDeleted') return t('history.field.isDeleted');
  const version = TRANSLATION_FIELD.exec(field);
  if (version)
    return t('translation.field', { field: historyFieldLabel(version[2], t), language: t(`translation.language.${version[1] as Lang}`) });
  const key = `fields.${field}`;
  return key in en ? t(key as UiKey) : field;
}

/** A value as text: lists one entry a line, yes/no, empty shown as such; `long` texts are compared word by word. */
export function valueText(value: unknown, t: Translate): { text: string; empty: boolean; long: boolean } {
  if (value === null || value === undefined || value === '' || (Array.isArray(value) && !value.length))
    return { text: '', empty: true, long: false };
  if (typeof value === 'boolean') return { text: t(value ? 'history.yes' : 'history.no'), empty: false, long: false };
  const text = Array.isArray(value) ? value.map(String).join('\n') : typeof value === 'object' ? JSON.stringify(value) : String(value);
  return { text, empty: false, long: text.length > 60 || text.includes('\n') };
}

/** A moment for the history: date and time, in the overlay's language (Western digits). */
export function formatDateTime(iso: string, lang: Lang): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return new Intl.DateTimeFormat(localeOf(lang), { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}
