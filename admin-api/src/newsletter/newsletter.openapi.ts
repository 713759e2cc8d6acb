import { type Lang, LANGUAGES } from '@portfolio/contract/languages';
import type { MessageKey } from '@portfolio/contract/messages';
import { type CampaignState, NEWSLETTER_TOPICS, type SubscriberState } from '@portfolio/contract/newsletter';

import { ref } from '../common/openapi-schema.js';
import { PAUSE_AFTER_PERMANENT_FAILURES } from './sender.js';

/** OpenAPI schemas of the newsletter's JSON answers (@portfolio/contract/newsletter). */
const text = { type: 'string' };
const id = { type: 'integer', minimum: 1 };
const count = { type: 'integer', minimum: 0 };
const time = { type: 'string', format: 'date-time' };
const nullableTime = { ...time, nullable: true };
// Records, so that a state added to the contract's type fails to compile until it is listed here.
const subscriberStates: Record<SubscriberState, true> = { pending: true, confirmed: true, unsubscribed: true, paused: true };
const campaignStates: Record<CampaignState, true> = { sending: true, done: true };
const noticeKeys = ['notice.newsletterCheckInbox', 'notice.newsletterTestSent'] as const satisfies readonly MessageKey[];

const topic = { type: 'string', enum: [...NEWSLETTER_TOPICS] };
const topics = { type: 'array', items: topic, uniqueItems: true, description: 'In the order of NEWSLETTER_TOPICS.' };
const language = { type: 'string', enum: [...LANGUAGES] };
const subscriberState = { type: 'string', enum: Object.keys(subscriberStates) };
/** One count per key, every key present (0 when none). */
const counts = (keys: readonly string[], description: string) => ({
  type: 'object',
  required: [...keys],
  properties: Object.fromEntries(keys.map((key) => [key, count])),
  description,
});

export const NEWSLETTER_SCHEMAS = {
  Subscriber: {
    type: 'object',
    required: ['id', 'email', 'language', 'topics', 'state', 'createdAt', 'confirmedAt', 'unsubscribedAt', 'permanentFailures'],
    properties: {
      id,
      email: { type: 'string', format: 'email', description: 'Trimmed and lower-case: one subscriber per mailbox.' },
      language: { ...language, description: 'The language of their mails.' },
      topics,
      state: { ...subscriberState, description: `'paused': ${PAUSE_AFTER_PERMANENT_FAILURES} permanent delivery failures in a row.` },
      createdAt: time,
      confirmedAt: nullableTime,
      unsubscribedAt: nullableTime,
      permanentFailures: { ...count, description: 'Permanent delivery failures in a row.' },
    },
  },
  SubscriberList: {
    type: 'object',
    required: ['items', 'total', 'page', 'pageSize', 'counts', 'mailLinks'],
    properties: {
      items: { type: 'array', items: ref('Subscriber'), description: 'Newest first.' },
      total: { ...count, description: 'Subscribers matching the filters.' },
      page: { type: 'integer', minimum: 1 },
      pageSize: { type: 'integer', minimum: 1, maximum: 200 },
      counts: {
        type: 'object',
        required: ['byState', 'byLanguage'],
        description: 'Over all subscribers, not just this page and its filters.',
        properties: {
          byState: counts(Object.keys(subscriberStates), 'Subscribers in each state.'),
          byLanguage: counts(LANGUAGES, 'Confirmed subscribers of each language.'),
        },
      },
      mailLinks: {
        type: 'object',
        required: ['base', 'local'],
        description: 'Where the links in mails lead: the site address of Settings (first given by SITE_URL or PUBLIC_URL).',
        properties: {
          base: { type: 'string', description: 'e.g. https://example.com' },
          local: { type: 'boolean', description: 'An address of this computer (localhost, 127.x, ::1): readers could not open the links.' },
        },
      },
    },
  },
  SubscriberImportResult: {
    type: 'object',
    required: ['created', 'updated', 'skipped', 'errors'],
    properties: {
      created: count,
      updated: { ...count, description: 'Addresses already here, confirmed; they keep the language and topics their reader chose.' },
      skipped: { ...count, description: 'Lines with an error, repeated addresses, and readers who unsubscribed (they stay unsubscribed).' },
      errors: {
        type: 'array',
        items: {
          type: 'object',
          required: ['line', 'message'],
          properties: { line: { type: 'integer', minimum: 2, description: 'The line of the file (1 is the header).' }, message: text },
        },
      },
    },
  },
  NewsletterPreferences: {
    type: 'object',
    required: ['email', 'language', 'topics', 'state'],
    properties: { email: { type: 'string', format: 'email' }, language, topics, state: subscriberState },
  },
  NewsletterOffer: {
    type: 'object',
    required: ['kind', 'id', 'title', 'liveAt'],
    properties: { kind: topic, id, title: text, liveAt: { ...time, description: 'When the item first went live.' } },
  },
  MailPreview: { type: 'object', required: ['subject', 'html', 'text'], properties: { subject: text, html: text, text } },
  NewsletterPreview: {
    type: 'object',
    description: "The item's mail in each language; its links point at a sample reader's preferences.",
    required: [...LANGUAGES],
    properties: Object.fromEntries(LANGUAGES.map((lang: Lang) => [lang, ref('MailPreview')])),
  },
  Campaign: {
    type: 'object',
    required: [
      'id',
      'kind',
      'itemId',
      'title',
      'state',
      'createdAt',
      'createdByUserId',
      'finishedAt',
      'total',
      'sent',
      'failed',
      'skipped',
      'remaining',
    ],
    properties: {
      id,
      kind: topic,
      itemId: id,
      title: text,
      state: { type: 'string', enum: Object.keys(campaignStates) },
      createdAt: time,
      createdByUserId: { type: 'integer', nullable: true },
      finishedAt: nullableTime,
      total: { ...count, description: 'sent + failed + skipped + remaining (rows of readers removed on request are gone).' },
      sent: count,
      failed: count,
      skipped: { ...count, description: 'Readers who left or were paused before their mail went, or the item stopped being live.' },
      remaining: count,
    },
  },
  NewsletterNotice: {
    type: 'object',
    required: ['message', 'messageKey'],
    properties: { message: { type: 'string', description: 'In English.' }, messageKey: { type: 'string', enum: [...noticeKeys] } },
  },
};

type NewsletterSchema = keyof typeof NEWSLETTER_SCHEMAS;
/** The `schema` of a response: the component, or an array of it. */
export const newsletterSchemaRef = (name: NewsletterSchema, list = false) =>
  list ? { type: 'array' as const, items: ref(name) } : ref(name);
