import {
  itemLanguage,
  type Lang,
  LANGUAGES,
  missingLanguages,
  type Translatable,
  TRANSLATED_FIELDS,
  type TranslatedKind,
} from '@portfolio/contract/translations';
import type { UploadFolder } from '@portfolio/contract/types';
import type { ReactNode } from 'react';

import { directionOf, useI18n } from '../i18n/i18n';
import { Badge } from './badge';
import { SelectField, TextAreaField, TextField } from './field';

/**
 * Editing an item in two languages (see @portfolio/contract/translations): the specification's
 * fields hold the item in its own language ('Written in'); beside each translated field sits its
 * version in the other language, which goes to `translations[other]`. The English version is
 * always the first column, the Arabic one the second, right-to-left.
 */
export interface BilingualValues<Field extends string = string> {
  contentLanguage: Lang;
  /** The other language's version of each translated field ('' = none). */
  translation: Record<Field, string>;
}

/** The language a translation is written in: of the two, the one the item is not written in. */
export const otherLanguage = (lang: Lang): Lang => LANGUAGES.find((l) => l !== lang)!;

/** The form's starting values: the item's language (as set, or detected), or for a new item the overlay's language. */
export function bilingualValues(kind: TranslatedKind, item: Translatable | null, uiLang: Lang): BilingualValues {
  const own = item ? itemLanguage(kind, item) : uiLang;
  const version = (item?.translations?.[otherLanguage(own)] ?? {}) as Record<string, string | null | undefined>;
  return { contentLanguage: own, translation: Object.fromEntries(TRANSLATED_FIELDS[kind].map((f) => [f, version[f] ?? ''])) };
}

/** The body's `contentLanguage` and `translations` (the whole object: a save replaces it). */
export function bilingualBody(kind: TranslatedKind, values: BilingualValues) {
  const version = Object.fromEntries(TRANSLATED_FIELDS[kind].map((f) => [f, values.translation[f]?.trim() || null]));
  return { contentLanguage: values.contentLanguage, translations: { [otherLanguage(values.contentLanguage)]: version } };
}

interface HeaderProps {
  value: Lang;
  onChange: (lang: Lang) => void;
}

/** 'Written in' and the two column headings (English | العربية). */
export function BilingualHeader({ value, onChange }: HeaderProps) {
  const { t } = useI18n();
  return (
    <div className="ao-bilingual-head">
      <SelectField
        label={t('translation.writtenIn')}
        value={value}
        onChange={(v) => onChange(v as Lang)}
        options={LANGUAGES.map((lang) => ({ value: lang, label: t(`translation.language.${lang}`) }))}
      />
      <p className="ao-hint">{t('translation.hint', { language: t(`translation.language.${otherLanguage(value)}`) })}</p>
    </div>
  );
}

interface RowProps {
  own: Lang;
  label: string;
  /** The other language's version of the field. */
  value: string;
  onChange: (value: string) => void;
  rows?: number;
  /** Formatted text: the other language's version gets the formatting bar too. */
  format?: UploadFolder;
  /** The field in the item's own language (the form's existing control). */
  children: ReactNode;
}

/** One translated field: its own-language control and the other language's version side by side. */
export function BilingualRow({ own, label, value, onChange, rows, format, children }: RowProps) {
  const { t } = useI18n();
  const other = otherLanguage(own);
  const translatedLabel = t('translation.field', { field: label, language: t(`translation.language.${other}`) });
  const common = { label: translatedLabel, value, onChange, lang: other, dir: directionOf(other) } as const;
  const translated = rows ? <TextAreaField {...common} rows={rows} format={format} /> : <TextField {...common} />;
  return (
    <div className="ao-bilingual">
      <div className="ao-bilingual-cell" data-lang={own}>
        {children}
      </div>
      <div className="ao-bilingual-cell" data-lang={other}>
        {translated}
      </div>
    </div>
  );
}

/** The list's badge: 'No Arabic version' / 'No English version' when the item lacks one. */
export function TranslationBadge({ kind, item }: { kind: TranslatedKind; item: Translatable }) {
  const { t } = useI18n();
  const missing = missingLanguages(kind, item)[0];
  return missing ? <Badge tone="warning">{t(`translation.missing.${missing}`)}</Badge> : null;
}

export type TranslationFilter = 'all' | 'missing' | 'complete';

/** The list's filter on translations. */
export function TranslationFilterField({ value, onChange }: { value: TranslationFilter; onChange: (v: TranslationFilter) => void }) {
  const { t } = useI18n();
  return (
    <SelectField
      className="ao-translation-filter"
      label={t('translation.filter')}
      value={value}
      onChange={(v) => onChange(v as TranslationFilter)}
      options={[
        { value: 'all', label: t('translation.filter.all') },
        { value: 'missing', label: t('translation.filter.missing') },
        { value: 'complete', label: t('translation.filter.complete') },
      ]}
    />
  );
}

export const matchesTranslationFilter = (kind: TranslatedKind, item: Translatable, filter: TranslationFilter) =>
  filter === 'all' || missingLanguages(kind, item).length > 0 === (filter === 'missing');

/** The props of a form's BilingualHeader and of each BilingualRow, from its `bilingual` value. */
export function bilingualProps<Field extends string>(values: BilingualValues<Field>, set: (values: BilingualValues<Field>) => void) {
  return {
    header: { value: values.contentLanguage, onChange: (contentLanguage: Lang) => set({ ...values, contentLanguage }) },
    row: (field: Field) => ({
      own: values.contentLanguage,
      value: values.translation[field] ?? '',
      onChange: (value: string) => set({ ...values, translation: { ...values.translation, [field]: value } }),
    }),
  };
}
