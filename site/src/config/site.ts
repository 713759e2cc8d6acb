/**
 * Who the site is about: the author's details, edited in the overlay's Settings tab and read from
 * the API when a page is rendered (GET /api/settings). A page that calls loadSite() depends on
 * `settings`, so a saved change re-renders it. The SITE_* variables only seed the settings at the
 * API's first start.
 */
import type { PublicSiteSettings, SocialLink } from '@portfolio/contract/types';
import { api } from '../lib/api';

/** A text in both languages; null where that language has none (a page shows the other one then). */
export interface Both {
  en: string | null;
  ar: string | null;
}

export interface Site {
  author: { en: string; ar: string };
  subtitle: Both;
  quote: Both;
  biography: { en: string; ar: string };
  location: Both;
  portrait: string | null;
  email: string;
  social: SocialLink[];
  poweredBy: { name: string; url: string | null } | null;
  copyrightYear: number;
  /** The public address: canonical links, sitemap, feeds, share cards. */
  url: URL;
}

export function siteOf(s: PublicSiteSettings): Site {
  return {
    author: { en: s.authorNameEn, ar: s.authorNameAr },
    subtitle: { en: s.subtitleEn, ar: s.subtitleAr },
    quote: { en: s.quoteEn, ar: s.quoteAr },
    biography: { en: s.biographyEn, ar: s.biographyAr },
    location: { en: s.locationEn, ar: s.locationAr },
    portrait: s.portraitImage,
    email: s.contactEmail,
    social: s.socialLinks,
    poweredBy: s.footerCreditName ? { name: s.footerCreditName, url: s.footerCreditUrl } : null,
    copyrightYear: s.copyrightYear,
    url: new URL(`${s.siteUrl.replace(/\/+$/, '')}/`),
  };
}

/** The settings for the current render (fetched once per publish). */
export const loadSite = async (): Promise<Site> => siteOf(await api.settings());

/** One language's text, or the other's when it has none: `lang` says which it is. */
export function inLanguage(text: Both, lang: 'en' | 'ar'): { text: string; lang: 'en' | 'ar' } | null {
  const other = lang === 'en' ? 'ar' : 'en';
  if (text[lang]) return { text: text[lang]!, lang };
  if (text[other]) return { text: text[other]!, lang: other };
  return null;
}
