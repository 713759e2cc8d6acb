/** Dates as a visitor reads them; the Arabic form is rendered too and chosen by CSS. */
export const formatDate = (iso: string, lang: 'en' | 'ar' = 'en') =>
  new Intl.DateTimeFormat(lang === 'ar' ? 'ar' : 'en-GB', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' }).format(new Date(iso));
