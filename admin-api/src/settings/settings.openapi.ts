import { ref } from '../common/openapi-schema.js';
/** OpenAPI schemas of the settings' answers (the request body's schema comes from UpdateSettingsDto's rules). */
const text = { type: 'string' };
const optionalText = { type: 'string', nullable: true };

export const settingsSchemaRef = (name: 'PublicSiteSettings' | 'SiteSettings') => ref(name);

const publicProperties = {
  authorNameEn: text,
  authorNameAr: text,
  subtitleEn: optionalText,
  subtitleAr: optionalText,
  quoteEn: optionalText,
  quoteAr: optionalText,
  biographyEn: { type: 'string', description: "The home page's 'A Voice from Gaza'; blank lines separate paragraphs." },
  biographyAr: text,
  shortBioEn: {
    type: 'string',
    nullable: true,
    maxLength: 500,
    description: "The bio box at the end of essays and news; null: the biography's first sentences.",
  },
  shortBioAr: { type: 'string', nullable: true, maxLength: 500 },
  portraitImage: {
    type: 'string',
    nullable: true,
    description: 'An uploaded image path (/uploads/general/…), a file name or an http(s) URL.',
  },
  contactEmail: { type: 'string', format: 'email' },
  locationEn: optionalText,
  locationAr: optionalText,
  socialLinks: { type: 'array', items: ref('SocialLink') },
  footerCreditName: { type: 'string', nullable: true, description: "The footer's 'Powered by' credit; null: no credit line." },
  footerCreditUrl: optionalText,
  copyrightYear: { type: 'integer', example: 2025 },
  siteUrl: { type: 'string', description: 'The public address of the site: canonical links, sitemap, feeds.' },
  updatedAt: { type: 'string', format: 'date-time' },
};

/** Admin-only: the newsletter's sender and footer. */
const newsletterProperties = {
  newsletterSenderName: {
    type: 'string',
    nullable: true,
    description: "The From name of newsletter mails; null: the author's name (MAIL_FROM's when it is set and no sender address is).",
  },
  newsletterSenderAddress: {
    type: 'string',
    format: 'email',
    nullable: true,
    description: "null: the server's MAIL_FROM; without it, no-reply@ the host of PUBLIC_URL.",
  },
  newsletterFooterEn: { type: 'string', nullable: true, description: 'A line at the end of every newsletter mail in English.' },
  newsletterFooterAr: { type: 'string', nullable: true, description: 'A line at the end of every newsletter mail in Arabic.' },
};

export const SETTINGS_SCHEMAS = {
  SocialLink: { type: 'object', required: ['label', 'url'], properties: { label: text, url: text } },
  PublicSiteSettings: { type: 'object', required: Object.keys(publicProperties), properties: publicProperties },
  SiteSettings: {
    type: 'object',
    required: [...Object.keys(publicProperties), ...Object.keys(newsletterProperties), 'lastUpdatedByUserId'],
    properties: { ...publicProperties, ...newsletterProperties, lastUpdatedByUserId: { type: 'integer', nullable: true } },
  },
};
