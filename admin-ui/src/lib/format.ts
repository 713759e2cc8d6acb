import type { Lang } from '@portfolio/contract/translations';

/** A date for lists, in the overlay's language (Western digits, as years and counts are shown). */
export function formatDate(iso: string | null | undefined, lang: Lang): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return new Intl.DateTimeFormat(lang === 'ar' ? 'ar-u-nu-latn' : 'en', { dateStyle: 'medium' }).format(date);
}
