import type { PublicSiteSettings } from './types.js';

/**
 * What the site settings hold on a new install when the environment says nothing (admin-api seeds
 * the one settings row from SITE_* variables at first start, these filling the gaps). The texts are
 * the site's placeholders, clearly so, until the author writes her own in the overlay.
 */
export const SETTINGS_PLACEHOLDERS: Omit<PublicSiteSettings, 'updatedAt' | 'siteUrl'> = {
  authorNameEn: 'Author Name',
  authorNameAr: 'اسم الكاتب',
  subtitleEn: 'Writer & Visual Artist from Gaza',
  subtitleAr: 'كاتبة وفنانة تشكيلية من غزة',
  quoteEn: '“I write so that the sea remembers our names.”',
  quoteAr: '«أكتبُ كي يتذكّر البحرُ أسماءنا.»',
  biographyEn:
    'A writer and visual artist born and raised in Gaza, working between fiction, poetry, theatre and painting. Her books, essays and canvases carry the daily life, memory and resilience of a city by the sea. (Placeholder biography: the author replaces this text.)',
  biographyAr:
    'كاتبة وفنانة تشكيلية وُلدت ونشأت في غزة، تتنقّل بين الرواية والشعر والمسرح والرسم. تحمل كتبها ومقالاتها ولوحاتها الحياة اليومية والذاكرة وصمود مدينة على البحر. (سيرة مؤقتة: تستبدلها الكاتبة بنصّها.)',
  shortBioEn: 'A writer and visual artist from Gaza. (Placeholder short bio: the author replaces this text.)',
  shortBioAr: 'كاتبة وفنانة تشكيلية من غزة. (نبذة مؤقتة: تستبدلها الكاتبة بنصّها.)',
  portraitImage: null,
  contactEmail: 'hello@example.com',
  locationEn: 'Gaza City, Palestine',
  locationAr: 'غزة',
  socialLinks: [
    { label: 'Instagram', url: 'https://www.instagram.com/' },
    { label: 'Facebook', url: 'https://www.facebook.com/' },
    { label: 'Twitter', url: 'https://twitter.com/' },
  ],
  footerCreditName: 'Example Agency',
  footerCreditUrl: 'https://example.com/',
  copyrightYear: 2025,
};

/** Limits of the settings' fields: the API refuses longer values, the overlay's inputs stop at them. */
export const SETTINGS_LIMITS = {
  name: 200,
  subtitle: 300,
  quote: 1000,
  biography: 20_000,
  shortBio: 500,
  location: 200,
  email: 254,
  link: 2000,
  linkName: 50,
  socialLinks: 12,
} as const;
