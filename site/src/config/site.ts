/**
 * Who the site is about: the author's details, edited in the overlay's Settings tab and read from
 * the API when a page is rendered (GET /api/settings). A page that calls loadSite() depends on
 * `settings`, so a saved change re-renders it. The SITE_* variables only seed the settings at the
 * API's first start.
 */
import { type Lang, LANGUAGES } from '@portfolio/contract/languages';
import type { PublicSiteSettings, SocialLink } from '@portfolio/contract/types';

import { api } from '../lib/api';

/** A text in both languages; null where that language has none (a page shows the other one then). */
export type Both = Record<Lang, string | null>;

export interface Site {
  author: Record<Lang, string>;
  subtitle: Both;
  quote: Both;
  biography: Record<Lang, string>;
  /** The bio box at the end of essays and news; null: none written (lib/bio.ts falls back on the biography). */
  shortBio: Both;
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
    shortBio: { en: s.shortBioEn, ar: s.shortBioAr },
    location: { en: s.locationEn, ar: s.locationAr },
    portrait: s.portraitImage,
    email: s.contactEmail,
    social: s.socialLinks,
    poweredBy: s.footerCreditName ? { name: s.footerCreditName, url: s.footerCreditUrl } : null,
    copyrightYear: s.copyrightYear,
    url: siteUrlOf(s.siteUrl),
  };
}

/** The public address as a URL ending in `/`, to resolve site paths against. */
export const siteUrlOf = (siteUrl: string) => new URL(`${siteUrl.replace(/\/+$/, '')}/`);

/** The public address alone: a page that shows nothing else of the settings reads only it (api.siteUrl). */
export const loadSiteUrl = async (): Promise<URL> => siteUrlOf(await api.siteUrl());

/** The settings for the current render (fetched once per publish). */
export const loadSite = async (): Promise<Site> => siteOf(await api.settings());

/** Whether a text has a version in any language. */
export const hasText = (text: Both) => LANGUAGES.some((lang) => text[lang]);

/** One language's text, or the other's when it has none: `lang` says which it is. */
export function inLanguage(text: Both, lang: Lang): { text: string; lang: Lang } | null {
  const shown = [lang, ...LANGUAGES.filter((other) => other !== lang)].find((l) => text[l]);
  return shown ? { text: text[shown]!, lang: shown } : null;
}
