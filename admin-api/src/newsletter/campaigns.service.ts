import { BadRequestException, ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import { KINDS } from '@portfolio/contract/kinds';
import { type Lang, LANGUAGES, perLanguage } from '@portfolio/contract/languages';
import type { Campaign as CampaignAnswer, MailPreview, NewsletterOffer, NewsletterTopic } from '@portfolio/contract/newsletter';
import { In, type ObjectLiteral } from 'typeorm';

import type { AuthContext } from '../auth/auth-context.js';
import { notice, refusal } from '../common/api-message.js';
import { Db, insertRows } from '../database/db.service.js';
import { ContentKinds } from '../kinds/content-kinds.js';
import { MailQueue } from '../mail/mail-queue.js';
import { Campaign, Delivery, Offer, Subscriber } from './entities.js';
import { renderItemMail } from './mail-render.js';
import { NewsletterContext } from './newsletter-context.js';
import { isLive, isNewsletterKind } from './offers.js';
import { sitePage } from './public.service.js';
import { NewsletterSender } from './sender.js';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
const INSERT_CHUNK = 500;

/** The admin's side of sending: offers, previews, a test mail, and campaigns with their progress. */
@Injectable()
export class CampaignsService {
  constructor(
    private readonly db: Db,
    private readonly kinds: ContentKinds,
    private readonly context: NewsletterContext,
    private readonly mailQueue: MailQueue,
    private readonly sender: NewsletterSender,
  ) {}

  /** The item, or a 404 in its kind's words (a kind that is not a newsletter topic: 400). */
  async item(kind: string, id: number): Promise<Record<string, unknown>> {
    if (!isNewsletterKind(kind)) throw new BadRequestException(refusal('validation.newsletterTopics', { field: 'kind' }));
    const entity = this.kinds.service(kind).resource.entity;
    const item = (await this.db.manager.findOneBy(entity, { id } as ObjectLiteral)) as Record<string, unknown> | null;
    if (!item) throw new NotFoundException(refusal(KINDS[kind].labels.notFound));
    return item;
  }

  async offers(): Promise<NewsletterOffer[]> {
    const open = await this.db.manager.find(Offer, { where: { state: 'open' }, order: { liveAt: 'DESC', id: 'DESC' } });
    const answers: NewsletterOffer[] = [];
    for (const offer of open) {
      const entity = this.kinds.service(offer.kind).resource.entity;
      const item = (await this.db.manager.findOneBy(entity, { id: offer.itemId } as ObjectLiteral)) as Record<string, unknown> | null;
      if (!item || item.isDeleted) continue;
      answers.push({ kind: offer.kind, id: offer.itemId, title: String(item.title), liveAt: new Date(offer.liveAt).toISOString() });
    }
    return answers;
  }

  async dismiss(kind: string, id: number): Promise<void> {
    await this.item(kind, id);
    await this.db.write(async (m) => {
      const offer = await m.findOneBy(Offer, { kind: kind as NewsletterTopic, itemId: id });
      if (offer) {
        if (offer.state === 'open') await m.update(Offer, { id: offer.id }, { state: 'dismissed' });
      } else await m.insert(Offer, { kind: kind as NewsletterTopic, itemId: id, liveAt: Date.now(), state: 'dismissed' });
    });
  }

  /** "Dismiss all": the offers the admin was shown are no longer offered (none is sent); one that came up since stays. */
  async dismissAll(shown: readonly { kind: NewsletterTopic; id: number }[]): Promise<void> {
    await this.db.write(async (m) => {
      for (const kind of new Set(shown.map((offer) => offer.kind))) {
        const ids = shown.filter((offer) => offer.kind === kind).map((offer) => offer.id);
        await m.update(Offer, { state: 'open', kind, itemId: In(ids) }, { state: 'dismissed' });
      }
    });
  }

  /** The mail as each language's readers get it (the links point at a sample reader's preferences). */
  async preview(kind: string, id: number): Promise<Record<Lang, MailPreview>> {
    const item = await this.item(kind, id);
    const settings = await this.context.mailSettings();
    return perLanguage((lang) =>
      renderItemMail(kind as NewsletterTopic, item, lang, {
        siteUrl: settings.siteUrl,
        footer: settings.footer[lang],
        manageUrl: `${settings.siteUrl}${sitePage(lang, 'preferences')}?token=preview`,
      }),
    );
  }

  /** The mail in every language to the signed-in admin, through the ordinary mail queue. */
  async sendTest(kind: string, id: number, auth: AuthContext) {
    const previews = await this.preview(kind, id);
    const { from } = await this.context.mailSettings();
    await this.db.write(async (m) => {
      for (const lang of LANGUAGES) {
        const p = previews[lang];
        await this.mailQueue.enqueue(m, { to: auth.user.email, subject: p.subject, text: p.text, html: p.html, from: from(lang) });
      }
    });
    this.mailQueue.wake();
    return notice('notice.newsletterTestSent');
  }

  /** One delivery row per confirmed reader following the kind, written with the campaign in one transaction. */
  async create(kind: string, id: number, auth: AuthContext): Promise<CampaignAnswer> {
    const item = await this.item(kind, id);
    const topic = kind as NewsletterTopic;
    if (!isLive(topic, item, Date.now())) throw new BadRequestException(refusal('error.newsletterNotLive'));
    const created = await this.db.write(async (m) => {
      if (await m.existsBy(Campaign, { kind: topic, itemId: id })) throw new ConflictException(refusal('error.newsletterAlreadySent'));
      const readers = (
        await m.find(Subscriber, { where: { state: 'confirmed' }, select: { id: true, topics: true }, order: { id: 'ASC' } })
      ).filter((s) => s.topics.includes(topic));
      const now = Date.now();
      const campaign = await m.save(
        m.create(Campaign, {
          kind: topic,
          itemId: id,
          title: String(item.title).slice(0, 500),
          state: readers.length ? 'sending' : 'done',
          createdAt: now,
          createdByUserId: auth.user.id,
          finishedAt: readers.length ? null : now,
          total: readers.length,
          nextSlotAt: 0,
        }),
      );
      for (let i = 0; i < readers.length; i += INSERT_CHUNK) {
        await insertRows(
          m,
          Delivery,
          readers.slice(i, i + INSERT_CHUNK).map((r) => ({
            campaignId: campaign.id,
            subscriberId: r.id,
            state: 'queued' as const,
            dueAt: now,
            claimedBy: null,
            attempts: 0,
            sentAt: null,
            lastError: null,
          })),
        );
      }
      const offer = await m.findOneBy(Offer, { kind: topic, itemId: id });
      if (offer) await m.update(Offer, { id: offer.id }, { state: 'sent' });
      else await m.insert(Offer, { kind: topic, itemId: id, liveAt: now, state: 'sent' });
      return campaign;
    });
    this.sender.wake();
    return (await this.answers([created]))[0];
  }

  async list(): Promise<CampaignAnswer[]> {
    return this.answers(await this.db.manager.find(Campaign, { order: { createdAt: 'DESC', id: 'DESC' } }));
  }

  async get(id: number): Promise<CampaignAnswer> {
    const campaign = await this.db.manager.findOneBy(Campaign, { id });
    if (!campaign) throw new NotFoundException(refusal('error.campaignNotFound'));
    return (await this.answers([campaign]))[0];
  }

  private async answers(campaigns: Campaign[]): Promise<CampaignAnswer[]> {
    if (!campaigns.length) return [];
    const ids = campaigns.map((c) => c.id);
    const counts = (await this.db.manager
      .createQueryBuilder(Delivery, 'd')
      .select('d.campaignId', 'campaignId')
      .addSelect('d.state', 'state')
      .addSelect('COUNT(*)', 'n')
      .where({ campaignId: In(ids) })
      .groupBy('d.campaignId')
      .addGroupBy('d.state')
      .getRawMany()) as { campaignId: number | string; state: string; n: number | string }[];
    const of = (id: number, state: string) =>
      counts.filter((c) => Number(c.campaignId) === id && c.state === state).reduce((a, c) => a + Number(c.n), 0);
    return campaigns.map((c) => {
      const sent = of(c.id, 'sent');
      const failed = of(c.id, 'failed');
      const skipped = of(c.id, 'skipped');
      return {
        id: c.id,
        kind: c.kind,
        itemId: c.itemId,
        title: c.title,
        state: c.state,
        createdAt: iso(c.createdAt)!,
        createdByUserId: c.createdByUserId,
        finishedAt: iso(c.finishedAt),
        // Rows of readers removed on request are gone: the total counts what is left.
        total: sent + failed + skipped + of(c.id, 'queued') + of(c.id, 'sending'),
        sent,
        failed,
        skipped,
        remaining: of(c.id, 'queued') + of(c.id, 'sending'),
      };
    });
  }
}
