import { randomBytes } from 'node:crypto';

import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import type { Lang } from '@portfolio/contract/languages';
import type { ObjectLiteral } from 'typeorm';

import { portable, PROCESS_OWNER, run } from '../common/lease.js';
import { WakeTimer } from '../common/wake-timer.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { Db } from '../database/db.service.js';
import { ContentKinds } from '../kinds/content-kinds.js';
import { DeliveryWithdrawn, isPermanentFailure, MailTransport } from '../mail/mail-transport.js';
import { retryDelayMs } from '../publishing/backoff.js';
import { Campaign, Delivery, Subscriber } from './entities.js';
import { renderItemMail } from './mail-render.js';
import { type MailSettings, NewsletterContext } from './newsletter-context.js';
import { isLive } from './offers.js';
import { sitePage } from './public.service.js';
import { NewsletterTokens } from './tokens.js';

/** Temporary failures are retried this often (about an hour with the waits below), then the row fails. */
export const MAX_ATTEMPTS = 15;
const RETRY_BASE_MS = 1000;
const RETRY_MAX_MS = 10 * 60_000;
/** A reader whose mailbox refused this many mails for good gets no more until they change something. */
export const PAUSE_AFTER_PERMANENT_FAILURES = 3;
/** How often each process looks for work it was not woken for (another replica's campaign, a dead sender's rows). */
const POLL_MS = 5_000;
/** Unconfirmed addresses are forgotten after this long. */
const FORGET_PENDING_MS = 7 * 24 * 3_600_000;

interface Claimed {
  id: number;
  campaignId: number;
  subscriberId: number;
  attempts: number;
}

/**
 * Sends campaigns from their delivery rows (`newsletter_deliveries`), in every API process at once:
 * a row is sent by the process whose conditional UPDATE claimed it, and a claim that runs out (its
 * sender died) lets another take it. The rate (NEWSLETTER_RATE_PER_MINUTE) holds across replicas:
 * each mail first reserves the campaign's next send slot with a conditional UPDATE of its
 * `nextSlotAt`. Each process runs NEWSLETTER_CONCURRENCY mails at a time.
 *
 * Exactly once: the row is marked sent while the SMTP server waits for the end of the message,
 * and the message ends only after that commit (MailTransport.deliverOnce). A crash before the
 * commit leaves an unfinished DATA that the server discards, and the row is sent again; a crash
 * after it leaves a row that says sent. The commit also checks the reader is still subscribed,
 * so an unsubscribe takes effect even for a mail already on its way to the server.
 */
@Injectable()
export class NewsletterSender implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Newsletter');
  private readonly owner = `${PROCESS_OWNER}:${randomBytes(3).toString('hex')}`;
  private readonly claimMs: number;
  private readonly wakeTimer = new WakeTimer(() => this.wake());
  private workers = 0;
  private again = false;
  private stopped = false;
  private readonly running = new Set<Promise<void>>();
  /** Old unconfirmed addresses are swept hourly, not at start: a start writes nothing. */
  private lastSweep = Date.now();

  constructor(
    private readonly db: Db,
    private readonly transport: MailTransport,
    private readonly kinds: ContentKinds,
    private readonly context: NewsletterContext,
    private readonly tokens: NewsletterTokens,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    // Longer than a mail can take: the wait for its slot plus the transport's bounded steps.
    this.claimMs = 4 * config.mail.timeoutMs + 5000 + 2 * (60_000 / config.newsletter.ratePerMinute) * config.newsletter.concurrency;
  }

  onApplicationBootstrap() {
    this.wake();
  }

  async onModuleDestroy() {
    this.stopped = true;
    this.wakeTimer.clear();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.all(this.running), new Promise((resolve) => (timer = setTimeout(resolve, this.config.shutdownTimeoutMs)))]);
    clearTimeout(timer);
  }

  readonly wake = () => {
    if (this.stopped) return;
    this.again = true;
    while (this.workers < this.config.newsletter.concurrency) {
      this.workers++;
      const worker = this.work().finally(() => {
        this.running.delete(worker);
        this.workers--;
        if (this.workers === 0 && !this.stopped) void this.scheduleNext();
      });
      this.running.add(worker);
    }
  };

  private async work() {
    try {
      while (!this.stopped) {
        this.again = false;
        const row = await this.claimNext();
        if (!row) {
          if (this.again) continue;
          return;
        }
        await this.send(row);
      }
    } catch (error) {
      if (!this.stopped) this.logger.warn(`Could not read the newsletter queue: ${describe(error)}`);
    }
  }

  private q(sql: string) {
    return portable(this.db, sql);
  }

  /** Takes a due row (queued, or claimed by a sender whose claim ran out), or null when none is. */
  async claimNext(): Promise<Claimed | null> {
    const now = Date.now();
    const due = (await this.db.manager.query(
      this.q(
        `SELECT "id" FROM "newsletter_deliveries" WHERE "state" IN ('queued', 'sending') AND "dueAt" <= ? ORDER BY "dueAt", "id" LIMIT ${2 * this.config.newsletter.concurrency + 2}`,
      ),
      [now],
    )) as { id: number }[];
    const claim = this.q(
      `UPDATE "newsletter_deliveries" SET "state" = 'sending', "claimedBy" = ?, "dueAt" = ?, "attempts" = "attempts" + 1 WHERE "id" = ? AND "state" IN ('queued', 'sending') AND "dueAt" <= ?`,
    );
    // Workers of one process start at different rows, so they rarely race for the same one.
    const start = due.length ? Math.floor(Math.random() * due.length) : 0;
    for (let i = 0; i < due.length; i++) {
      const id = Number(due[(start + i) % due.length].id);
      if ((await this.db.write((m) => run(m, claim, [this.owner, now + this.claimMs, id, now]))) === 1) {
        const row = await this.db.manager.findOneBy(Delivery, { id });
        if (row) return { id, campaignId: row.campaignId, subscriberId: row.subscriberId, attempts: row.attempts };
      }
    }
    return null;
  }

  /** Waits for this process's turn under the rate shared by every replica (the campaign's next free slot). */
  private async waitForSlot(campaignId: number) {
    const intervalMs = 60_000 / this.config.newsletter.ratePerMinute;
    for (;;) {
      const rows = (await this.db.manager.query(this.q('SELECT "nextSlotAt" FROM "newsletter_campaigns" WHERE "id" = ?'), [
        campaignId,
      ])) as {
        nextSlotAt: string | number;
      }[];
      if (!rows[0]) return;
      const taken = Number(rows[0].nextSlotAt);
      const slot = Math.max(taken, Date.now());
      const reserved = await this.db.write((m) =>
        run(m, this.q('UPDATE "newsletter_campaigns" SET "nextSlotAt" = ? WHERE "id" = ? AND "nextSlotAt" = ?'), [
          Math.round(slot + intervalMs),
          campaignId,
          taken,
        ]),
      );
      if (reserved !== 1) continue;
      const waitMs = slot - Date.now();
      if (waitMs > 0) await new Promise((resolve) => setTimeout(resolve, waitMs));
      return;
    }
  }

  private async finish(row: Claimed, state: 'skipped' | 'failed' | 'queued', error: string | null, dueAt = Date.now()) {
    await this.db.write((m) =>
      run(
        m,
        this.q(
          'UPDATE "newsletter_deliveries" SET "state" = ?, "lastError" = ?, "dueAt" = ?, "claimedBy" = NULL WHERE "id" = ? AND "claimedBy" = ? AND "state" IN (\'sending\', \'sent\')',
        ),
        [state, error, dueAt, row.id, this.owner],
      ),
    );
  }

  private async send(row: Claimed) {
    const [subscriber, campaign] = await Promise.all([
      this.db.manager.findOneBy(Subscriber, { id: row.subscriberId }),
      this.db.manager.findOneBy(Campaign, { id: row.campaignId }),
    ]);
    if (!campaign) return;
    if (!subscriber || subscriber.state !== 'confirmed' || !subscriber.topics.includes(campaign.kind)) {
      await this.finish(row, 'skipped', subscriber ? `reader ${subscriber.state}` : 'reader removed');
      return this.closeIfDone(campaign.id);
    }
    const entity = this.kinds.service(campaign.kind).resource.entity;
    const item = (await this.db.manager.findOneBy(entity, { id: campaign.itemId } as ObjectLiteral)) as Record<string, unknown> | null;
    if (!item || !isLive(campaign.kind, item, Date.now())) {
      await this.finish(row, 'skipped', 'the item is no longer live');
      return this.closeIfDone(campaign.id);
    }
    const settings = await this.context.mailSettings();
    const mail = this.mailFor(campaign, item, subscriber, settings);
    await this.waitForSlot(campaign.id);
    const commit = this.q(
      `UPDATE "newsletter_deliveries" SET "state" = 'sent', "sentAt" = ? WHERE "id" = ? AND "claimedBy" = ? AND "state" = 'sending' AND "subscriberId" IN (SELECT "id" FROM "newsletter_subscribers" WHERE "id" = ? AND "state" = 'confirmed')`,
    );
    try {
      await this.transport.deliverOnce(mail, async () => {
        if (this.stopped) return false;
        return (await this.db.write((m) => run(m, commit, [Date.now(), row.id, this.owner, subscriber.id]))) === 1;
      });
      await this.db.write(async (m) => {
        await run(m, this.q('UPDATE "newsletter_deliveries" SET "claimedBy" = NULL WHERE "id" = ? AND "state" = \'sent\''), [row.id]);
        await run(m, this.q('UPDATE "newsletter_subscribers" SET "permanentFailures" = 0 WHERE "id" = ? AND "permanentFailures" > 0'), [
          subscriber.id,
        ]);
      });
    } catch (error) {
      await this.failed(row, subscriber.id, error);
    }
    await this.closeIfDone(campaign.id);
  }

  private async failed(row: Claimed, subscriberId: number, error: unknown) {
    const reason = describe(error).slice(0, 500);
    if (error instanceof DeliveryWithdrawn) {
      // The reader left while the mail was on its way (or the claim passed to another process): nothing was sent.
      const left = await this.db.manager.findOneBy(Subscriber, { id: subscriberId });
      if (!left || left.state !== 'confirmed') await this.finish(row, 'skipped', `reader ${left ? left.state : 'removed'}`);
      else await this.finish(row, 'queued', null);
      return;
    }
    const e = error as { ended?: boolean; responseCode?: number };
    if (e.ended && typeof e.responseCode !== 'number') {
      // The end of the message went out and no refusal came back (a timeout, a dropped connection):
      // the server may well have taken it, so it is not sent again (at most once, never twice).
      await this.db.write((m) =>
        run(m, this.q('UPDATE "newsletter_deliveries" SET "claimedBy" = NULL, "lastError" = ? WHERE "id" = ? AND "state" = \'sent\''), [
          `no answer after the end of the message: ${reason}`.slice(0, 500),
          row.id,
        ]),
      );
      this.logger.warn(`Newsletter delivery #${row.id}: no answer after the end of the message (${reason}); counted as sent`);
      return;
    }
    if (isPermanentFailure(error) || row.attempts >= MAX_ATTEMPTS) {
      await this.finish(row, 'failed', reason);
      if (isPermanentFailure(error)) {
        await this.db.write(async (m) => {
          await run(m, this.q('UPDATE "newsletter_subscribers" SET "permanentFailures" = "permanentFailures" + 1 WHERE "id" = ?'), [
            subscriberId,
          ]);
          await run(
            m,
            this.q(
              'UPDATE "newsletter_subscribers" SET "state" = \'paused\' WHERE "id" = ? AND "state" = \'confirmed\' AND "permanentFailures" >= ?',
            ),
            [subscriberId, PAUSE_AFTER_PERMANENT_FAILURES],
          );
        });
      }
      this.logger.warn(`Newsletter delivery #${row.id} failed for good: ${reason}`);
    } else {
      const waitMs = retryDelayMs(row.attempts, RETRY_BASE_MS, RETRY_MAX_MS);
      await this.finish(row, 'queued', reason, Date.now() + waitMs);
      this.logger.warn(
        `Newsletter delivery #${row.id} not delivered (attempt ${row.attempts}): ${reason}; next try in ${Math.ceil(waitMs / 1000)} s`,
      );
    }
  }

  private mailFor(campaign: Campaign, item: Record<string, unknown>, subscriber: Subscriber, settings: MailSettings) {
    const lang: Lang = subscriber.language;
    const token = this.tokens.manage(subscriber.id, subscriber.linkGeneration);
    const rendered = renderItemMail(campaign.kind, item, lang, {
      siteUrl: settings.siteUrl,
      footer: settings.footer[lang],
      manageUrl: `${settings.siteUrl}${sitePage(lang, 'preferences')}?token=${token}`,
    });
    const host = new URL(settings.siteUrl).hostname || 'localhost';
    return {
      to: subscriber.email,
      ...rendered,
      ...(settings.from ? { from: settings.from } : {}),
      messageId: `<newsletter-${campaign.id}-${subscriber.id}@${host}>`,
      headers: {
        'List-Unsubscribe': `<${settings.siteUrl}/api/newsletter/unsubscribe?token=${token}>`,
        'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      },
    };
  }

  /** A campaign with no row left to send is done (whichever process sends its last row says so). */
  private async closeIfDone(campaignId: number) {
    await this.db.write((m) =>
      run(
        m,
        this.q(
          `UPDATE "newsletter_campaigns" SET "state" = 'done', "finishedAt" = ? WHERE "id" = ? AND "state" = 'sending' AND NOT EXISTS (SELECT 1 FROM "newsletter_deliveries" WHERE "campaignId" = ? AND "state" IN ('queued', 'sending'))`,
        ),
        [Date.now(), campaignId, campaignId],
      ),
    );
  }

  private async scheduleNext() {
    try {
      const now = Date.now();
      if (now - this.lastSweep > 3_600_000) {
        this.lastSweep = now;
        const forgotten = await this.db.write((m) =>
          run(m, this.q('DELETE FROM "newsletter_subscribers" WHERE "state" = \'pending\' AND "pendingSince" < ?'), [
            now - FORGET_PENDING_MS,
          ]),
        );
        if (forgotten) this.logger.log(`Forgot ${forgotten} unconfirmed address(es) older than 7 days`);
      }
      const rows = (await this.db.manager.query(
        this.q(`SELECT MIN("dueAt") AS "next" FROM "newsletter_deliveries" WHERE "state" IN ('queued', 'sending')`),
      )) as { next: string | number | null }[];
      const next = rows[0]?.next == null ? Infinity : Number(rows[0].next);
      if (!this.stopped) this.wakeTimer.at(Math.min(next, now + POLL_MS));
    } catch (error) {
      if (!this.stopped) {
        this.logger.warn(`Could not read the newsletter queue: ${describe(error)}`);
        this.wakeTimer.at(Date.now() + POLL_MS);
      }
    }
  }
}

function describe(error: unknown): string {
  const e = error as { code?: string; message?: string };
  return [e?.code, e?.message ?? String(error)].filter(Boolean).join(': ').replace(/\s+/g, ' ');
}
