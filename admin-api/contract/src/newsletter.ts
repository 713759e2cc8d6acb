import type { ContentKind, KINDS } from './kinds.js';
import type { Lang } from './languages.js';

/** What a reader can follow; each is a content kind that can be mailed (registry flag `newsletter: true`). */
export const NEWSLETTER_TOPICS = ['essays', 'news', 'books'] as const;
export type NewsletterTopic = (typeof NEWSLETTER_TOPICS)[number];
type Flagged = { [K in ContentKind]: (typeof KINDS)[K] extends { newsletter: true } ? K : never }[ContentKind];
// The topics are exactly the kinds flagged `newsletter: true` in the registry; a difference fails to compile here.
const topicsAreFlagged: [Exclude<Flagged, NewsletterTopic> | Exclude<NewsletterTopic, Flagged>] extends [never] ? true : false = true;
void topicsAreFlagged;

export type SubscriberState = 'pending' | 'confirmed' | 'unsubscribed' | 'paused';
export interface Subscriber {
  id: number;
  email: string;
  language: Lang;
  topics: NewsletterTopic[];
  state: SubscriberState;
  createdAt: string;
  confirmedAt: string | null;
  unsubscribedAt: string | null;
  permanentFailures: number;
}
export interface SubscriberList {
  items: Subscriber[];
  total: number;
  page: number;
  pageSize: number;
  /** Counts over all subscribers, not just this page. */
  counts: { byState: Record<SubscriberState, number>; byLanguage: Record<Lang, number> /* confirmed only */ };
  /**
   * Where the links in mails lead (the site address of Settings, first given by SITE_URL or
   * PUBLIC_URL); `local`: an address of this computer (localhost, 127.x, ::1) that readers cannot open.
   */
  mailLinks: { base: string; local: boolean };
}
export interface SubscriberImportResult {
  created: number;
  updated: number;
  skipped: number;
  errors: { line: number; message: string }[];
}
export interface NewsletterPreferences {
  email: string;
  language: Lang;
  topics: NewsletterTopic[];
  state: SubscriberState;
}
export interface NewsletterOffer {
  kind: NewsletterTopic;
  id: number;
  title: string;
  liveAt: string;
}
export interface MailPreview {
  subject: string;
  html: string;
  text: string;
}
export type CampaignState = 'sending' | 'done';
export interface Campaign {
  id: number;
  kind: NewsletterTopic;
  itemId: number;
  title: string;
  state: CampaignState;
  createdAt: string;
  createdByUserId: number | null;
  finishedAt: string | null;
  total: number;
  sent: number;
  failed: number;
  skipped: number;
  remaining: number;
}
