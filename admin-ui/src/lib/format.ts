import type { Lang } from '@portfolio/contract/translations';

import { localeOf } from '../i18n/i18n';

/** A date for lists, in the overlay's language (Western digits, as years and counts are shown). */
export function formatDate(iso: string | null | undefined, lang: Lang): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return new Intl.DateTimeFormat(localeOf(lang), { dateStyle: 'medium' }).format(date);
}

/** A name or title inside a sentence, kept in its own direction (an English title in an Arabic sentence, or the reverse). */
export const isolated = (text: string) => `\u2068${text}\u2069`;
