import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import { DEFAULT_LANG, isLang, type Lang, pathFor } from '@portfolio/contract/languages';
import type { MessageKey } from '@portfolio/contract/messages';
import { NEWSLETTER_TOPICS, type NewsletterPreferences, type NewsletterTopic } from '@portfolio/contract/newsletter';
import { isEmailAddress } from '@portfolio/contract/rules';

import { RateLimiter } from '../auth/rate-limiter.js';
import { notice, refusal } from '../common/api-message.js';
import { Db } from '../database/db.service.js';
import { MailQueue } from '../mail/mail-queue.js';
import { Subscriber } from './entities.js';
import { renderConfirmMail } from './mail-render.js';
import { NewsletterContext } from './newsletter-context.js';
import { CONFIRM_TTL_MS, newLinkNonce, NewsletterTokens } from './tokens.js';

/** Like the contact form: enough for people, a brake for scripts. */
const PER_CLIENT_PER_HOUR = 10;
/** A pending address asking again gets its confirmation again, at most this often. */
const CONFIRM_RESEND_MS = 10 * 60_000;
export const MAX_EMAIL = 254;

/** A page of the site, in a language: `/newsletter/confirmed`, `/ar/newsletter/confirmed`. */
export const sitePage = (lang: Lang, page: string) => pathFor(lang, `/newsletter/${page}`);

const invalid = (key: MessageKey, field: string) => new BadRequestException(refusal(key, { field }));

/**
 * An address as stored, or a 400 in the form's words. Trimmed and lower-cased whole: the domain is
 * case-blind by definition, and the local part is too at every mail provider readers use, so one
 * mailbox is one row whatever case it was typed in (RFC 5321 lets a server tell cases apart; none
 * that matters does). Then the rule every part checks (`isEmailAddress`): no `<…>`, no empty domain label (`example..org`).
 */
export function checkEmail(value: unknown): string {
  if (value === undefined || value === null || (typeof value === 'string' && !value.trim()))
    throw invalid('validation.emailRequired', 'email');
  if (typeof value !== 'string' || value.length > MAX_EMAIL + 10) throw invalid('validation.emailInvalid', 'email');
  const email = value.trim().toLowerCase();
  if (email.length > MAX_EMAIL || !isEmailAddress(email)) throw invalid('validation.emailInvalid', 'email');
  return email;
}

export function checkLanguage(value: unknown, fallback: Lang | null): Lang {
  if ((value === undefined || value === '') && fallback) return fallback;
  if (!isLang(value)) throw invalid('validation.newsletterLanguage', 'language');
  return value;
}

/** Topics as a form (repeated field) or JSON (array) sends them; none given: `whenNone`. */
export function checkTopics(value: unknown, whenNone: NewsletterTopic[]): NewsletterTopic[] {
  if (value === undefined || value === null || value === '') return whenNone;
  const list = Array.isArray(value) ? value : [value];
  if (
    list.length > NEWSLETTER_TOPICS.length * 2 ||
    !list.every((t) => typeof t === 'string' && (NEWSLETTER_TOPICS as readonly string[]).includes(t))
  ) {
    throw invalid('validation.newsletterTopics', 'topics');
  }
  return NEWSLETTER_TOPICS.filter((t) => list.includes(t));
}

/**
 * What readers do without an account: subscribe (double opt-in), confirm, change their preferences,
 * unsubscribe. Every answer to a subscription is the same whatever the address's state, so nobody
 * learns who subscribed.
 */
@Injectable()
export class NewsletterPublicService {
  constructor(
    private readonly db: Db,
    private readonly limiter: RateLimiter,
    private readonly mailQueue: MailQueue,
    private readonly tokens: NewsletterTokens,
    private readonly context: NewsletterContext,
  ) {}

  /** Throws a 400 for bad input and a 429 over the limit; otherwise the same answer every time. */
  async subscribe(body: Record<string, unknown>, clientIp: string) {
    const email = checkEmail(body.email);
    const pageLang = isLang(body.lang) ? body.lang : null;
    const language = checkLanguage(body.language, pageLang ?? DEFAULT_LANG);
    const topics = checkTopics(body.topics, [...NEWSLETTER_TOPICS]);
    await this.limiter.consume(`newsletter:ip:${clientIp}`, PER_CLIENT_PER_HOUR, 3_600_000);
    const honeypot = typeof body.website === 'string' ? body.website.trim() : body.website;
    if (honeypot) return notice('notice.newsletterCheckInbox');

    const settings = await this.context.mailSettings();
    const queued = await this.db.write(async (m) => {
      const now = Date.now();
      let row = await m.findOneBy(Subscriber, { email });
      if (row && (row.state === 'confirmed' || row.state === 'paused')) return false;
      if (row && row.state === 'pending') {
        row.language = language;
        row.topics = topics;
        if (row.confirmMailAt !== null && now - row.confirmMailAt < CONFIRM_RESEND_MS) {
          await m.save(row);
          return false;
        }
      } else if (row) {
        // Subscribing again after leaving: the links of the mails sent before stop working.
        Object.assign(row, { state: 'pending', language, topics, pendingSince: now, unsubscribedAt: null });
        Object.assign(row, { linkNonce: newLinkNonce(), linkGeneration: row.linkGeneration + 1 });
      } else {
        row = m.create(Subscriber, {
          email,
          language,
          topics,
          state: 'pending',
          createdAt: now,
          pendingSince: now,
          linkNonce: newLinkNonce(),
        });
      }
      row.confirmMailAt = now;
      row = await m.save(row);
      const mail = renderConfirmMail(
        language,
        `${settings.siteUrl}/api/newsletter/confirm?token=${this.tokens.confirm(row, language, now)}`,
        {
          name: settings.authorName[language],
          host: new URL(settings.siteUrl).host,
        },
      );
      await this.mailQueue.enqueue(m, {
        to: email,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        from: settings.from(language),
      });
      return true;
    });
    if (queued) this.mailQueue.wake();
    return notice('notice.newsletterCheckInbox');
  }

  /**
   * The site page to go to: confirmed; already-subscribed (the link of a reader who is subscribed,
   * opened again, however old); or link-invalid (in the token's language when it names one).
   */
  async confirm(token: unknown): Promise<string> {
    const claim = this.tokens.readConfirm(token);
    if (!claim) return sitePage(DEFAULT_LANG, 'link-invalid');
    const now = Date.now();
    const page = await this.db.write(async (m) => {
      const row = await m.findOneBy(Subscriber, { id: claim.subscriberId });
      if (!row || !this.tokens.holds(claim, row)) return null;
      if (row.state === 'confirmed' || row.state === 'paused') return sitePage(row.language, 'already-subscribed');
      // Seconds in the token: a link issued in the second the wait began still counts.
      if (
        now - claim.issuedAt > CONFIRM_TTL_MS ||
        row.state !== 'pending' ||
        row.pendingSince === null ||
        claim.issuedAt < Math.floor(row.pendingSince / 1000) * 1000
      )
        return null;
      Object.assign(row, { state: 'confirmed', confirmedAt: now, pendingSince: null, unsubscribedAt: null });
      await m.save(row);
      return sitePage(row.language, 'confirmed');
    });
    return page ?? sitePage(claim.language, 'link-invalid');
  }

  private async holder(token: unknown): Promise<Subscriber> {
    const claim = this.tokens.readManage(token);
    const row = claim ? await this.db.manager.findOneBy(Subscriber, { id: claim.subscriberId }) : null;
    if (!claim || !this.tokens.holds(claim, row)) throw new NotFoundException(refusal('error.newsletterLinkInvalid'));
    return row!;
  }

  async preferences(token: unknown): Promise<NewsletterPreferences> {
    return preferencesOf(await this.holder(token));
  }

  async updatePreferences(token: unknown, body: Record<string, unknown>): Promise<NewsletterPreferences> {
    const found = await this.holder(token);
    const language = checkLanguage(body?.language, found.language);
    const topics = checkTopics(body?.topics, found.topics);
    const saved = await this.db.write(async (m) => {
      const row = await m.findOneBy(Subscriber, { id: found.id });
      // Removed, or given a new nonce, since the link was read.
      if (!row || row.linkNonce !== found.linkNonce || row.linkGeneration !== found.linkGeneration)
        throw new NotFoundException(refusal('error.newsletterLinkInvalid'));
      Object.assign(row, { language, topics });
      if (row.state === 'unsubscribed' && topics.length)
        Object.assign(row, { state: 'confirmed', unsubscribedAt: null, confirmedAt: row.confirmedAt ?? Date.now() });
      return m.save(row);
    });
    return preferencesOf(saved);
  }

  /** Idempotent: a replay finds the reader already gone and changes nothing. Null: the token is not a reader's. */
  async unsubscribe(token: unknown): Promise<Lang | null> {
    const claim = this.tokens.readManage(token);
    if (!claim) return null;
    return this.db.write(async (m) => {
      const row = await m.findOneBy(Subscriber, { id: claim.subscriberId });
      if (!row || !this.tokens.holds(claim, row)) return null;
      if (row.state !== 'unsubscribed') {
        Object.assign(row, { state: 'unsubscribed', unsubscribedAt: Date.now(), pendingSince: null });
        await m.save(row);
      }
      return row.language;
    });
  }
}

export const preferencesOf = (row: Subscriber): NewsletterPreferences => ({
  email: row.email,
  language: row.language,
  topics: row.topics,
  state: row.state,
});
