/**
 * One formatter per language for the whole process: an Intl.DateTimeFormat holds tens of kilobytes
 * of ICU's memory outside the JavaScript heap until it is collected, so one made per date (1,000
 * news cards, every item page) left the renderer's allocator holding about 50 MB it never gave back.
 */
import type { Lang } from '@portfolio/contract/languages';

const formatters: Record<Lang, Intl.DateTimeFormat> = {
  en: new Intl.DateTimeFormat('en-GB', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' }),
  ar: new Intl.DateTimeFormat('ar', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' }),
};

/** Dates as a visitor reads them; the Arabic form is rendered too and chosen by CSS. */
export const formatDate = (iso: string, lang: Lang = 'en') => formatters[lang].format(new Date(iso));
