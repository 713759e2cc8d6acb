import { randomBytes } from 'node:crypto';

import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import type { Lang } from '@portfolio/contract/languages';
import { In, type ObjectLiteral } from 'typeorm';

import { portable, PROCESS_OWNER, run } from '../common/lease.js';
import { WakeTimer } from '../common/wake-timer.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { Db } from '../database/db.service.js';
import { ContentKinds } from '../kinds/content-kinds.js';
import type { MailLane } from '../mail/mail-lane.js';
import { DeliveryWithdrawn, isPermanentFailure, type Mail, MailTransport } from '../mail/mail-transport.js';
import { retryDelayMs } from '../publishing/backoff.js';
import { Campaign, Subscriber } from './entities.js';
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
/** Waits before trying again to record mails as sent (about 3.5 s in all, well within a claim). */
const RECORD_RETRIES_MS = [100, 400, 1000, 2000];

interface Claimed {
  id: number;
  campaignId: number;
  subscriberId: number;
  attempts: number;
  /** What the row's `claimedBy` says while this process holds it: the process and the batch. */
  claim: string;
}

/** A campaign's mail in one language, rendered once: only the reader's token (at `marker`) differs. */
interface Template {
  subject: string;
  text: string;
  html: string;
  marker: string;
}

/** What every mail of a campaign shares, read once per batch of claimed rows. */
interface Prepared {
  campaign: Campaign;
  item: Record<string, unknown>;
  settings: MailSettings;
  templates: Map<Lang, Template>;
}

interface Job {
  row: Claimed;
  subscriber: Subscriber;
  prepared: Prepared;
}

/** Send slots of one campaign reserved by this process (a block at a time). */
interface Slots {
  next: number;
  left: number;
  reserving: Promise<void> | null;
}

/**
 * Sends campaigns from their delivery rows (`newsletter_deliveries`), in every API process at once:
 * a row is sent by the process whose conditional UPDATE claimed it (a batch at a time, about a
 * second's worth of mails), and a claim that runs out (its sender died) lets another take it. The
 * rate (NEWSLETTER_RATE_PER_MINUTE) holds across replicas: mails take send slots from the campaign's
 * `nextSlotAt`, which each process advances by a block of slots with a conditional UPDATE. Each
 * process runs NEWSLETTER_CONCURRENCY workers, each with its own long-lived SMTP connection
 * (MailLane) on which mails go one after another.
 *
 * Never lost, at most one duplicate per connection after a crash: the row is marked sent only once
 * the SMTP server has accepted the message (its answer to the final dot), and the end of a worker's
 * next mail waits for that record. Before the end of the message goes out, a conditional
 * UPDATE checks that the claim is still this process's and the reader still subscribed
 * (MailLane.deliverOnce withholds the end until then), so an unsubscribe takes effect even for a
 * mail already on its way to the server and a row another process took is not sent twice. A crash
 * before the server's answer leaves an unfinished DATA that the server discards, and the row is
 * sent again; a crash between the server's answer and the record sends that one mail again (at
 * least once: a duplicate, never a silent loss).
 */
@Injectable()
export class NewsletterSender implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Newsletter');
  private readonly owner = `${PROCESS_OWNER}:${randomBytes(3).toString('hex')}`;
  private readonly claimMs: number;
  private readonly intervalMs: number;
  /** Rows claimed at once: about a second's worth at the rate, at least one per worker. */
  private readonly batchSize: number;
  private readonly wakeTimer = new WakeTimer(() => this.wake());
  private workers = 0;
  private again = false;
  private stopped = false;
  private readonly running = new Set<Promise<void>>();
  /** Claimed rows not yet taken by a worker (at most one batch). */
  private buffer: Job[] = [];
  private refilling: Promise<number> | null = null;
  private claims = 0;
  private readonly slots = new Map<number, Slots>();
  /** Rows whose mail the server took, to record as sent in one write (and their campaigns to close); `recorded` resolves after it. */
  private settled: { id: number; campaignId: number; subscriberId: number | null; recorded: () => void }[] = [];
  private flushing: Promise<void> | null = null;
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
    const { ratePerMinute, concurrency } = config.newsletter;
    this.intervalMs = 60_000 / ratePerMinute;
    this.batchSize = Math.max(concurrency, Math.min(100, Math.ceil(ratePerMinute / 60)));
    // Longer than a mail can take: the wait in the batch and for its slot, plus the transport's bounded steps.
    this.claimMs = 4 * config.mail.timeoutMs + 5000 + (2 * concurrency + this.batchSize) * this.intervalMs;
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
    await this.release().catch(() => undefined);
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
    const lane = this.transport.openLane();
    /** When this worker's last mail taken by the server is recorded as sent. */
    let recorded: Promise<void> = Promise.resolve();
    try {
      while (!this.stopped) {
        this.again = false;
        const job = await this.next();
        if (!job) {
          if (this.again) continue;
          return;
        }
        ({ recorded } = await this.send(job, lane, recorded));
      }
    } catch (error) {
      if (!this.stopped) this.logger.warn(`Could not read the newsletter queue: ${describe(error)}`);
    } finally {
      lane.close();
      await this.flushing;
    }
  }

  private q(sql: string) {
    return portable(this.db, sql);
  }

  /** The next claimed row for a worker, claiming a batch when none is left; null when nothing is due. */
  private async next(): Promise<Job | null> {
    for (;;) {
      const job = this.buffer.shift();
      if (job) {
        // The next batch is claimed while this one's last rows go out, so the workers do not wait for it.
        if (this.buffer.length < this.config.newsletter.concurrency && !this.stopped) void this.startRefill().catch(() => undefined);
        return job;
      }
      if (this.stopped) return null;
      if (!(await this.startRefill()) && !this.buffer.length) return null;
    }
  }

  private startRefill(): Promise<number> {
    return (this.refilling ??= this.refill().finally(() => (this.refilling = null)));
  }

  /** Claims due rows (queued, or claimed by a sender whose claim ran out) and prepares them; answers how many it claimed. */
  async refill(): Promise<number> {
    const claimed = await this.claimBatch();
    if (!claimed.length) return 0;
    const ids = (list: number[]) => [...new Set(list)];
    const [subscribers, campaigns, settings] = await Promise.all([
      this.db.manager.findBy(Subscriber, { id: In(ids(claimed.map((r) => r.subscriberId))) }),
      this.db.manager.findBy(Campaign, { id: In(ids(claimed.map((r) => r.campaignId))) }),
      this.context.mailSettings(),
    ]);
    const readers = new Map(subscribers.map((s) => [s.id, s]));
    const prepared = new Map<number, Prepared | null>();
    for (const campaign of campaigns) {
      const entity = this.kinds.service(campaign.kind).resource.entity;
      const item = (await this.db.manager.findOneBy(entity, { id: campaign.itemId } as ObjectLiteral)) as Record<string, unknown> | null;
      prepared.set(
        campaign.id,
        item && isLive(campaign.kind, item, Date.now()) ? { campaign, item, settings, templates: new Map() } : null,
      );
    }
    const touched = new Set<number>();
    for (const row of claimed) {
      if (!prepared.has(row.campaignId)) continue;
      const subscriber = readers.get(row.subscriberId);
      const campaign = campaigns.find((c) => c.id === row.campaignId)!;
      if (!subscriber || subscriber.state !== 'confirmed' || !subscriber.topics.includes(campaign.kind)) {
        await this.finish(row, 'skipped', subscriber ? `reader ${subscriber.state}` : 'reader removed');
        touched.add(row.campaignId);
      } else if (!prepared.get(row.campaignId)) {
        await this.finish(row, 'skipped', 'the item is no longer live');
        touched.add(row.campaignId);
      } else this.buffer.push({ row, subscriber, prepared: prepared.get(row.campaignId)! });
    }
    for (const id of touched) await this.closeIfDone(id);
    return claimed.length;
  }

  /** One conditional UPDATE for a batch of due rows; a replica that took some of them first leaves the rest to this one. */
  private async claimBatch(): Promise<Claimed[]> {
    for (;;) {
      const now = Date.now();
      const due = (await this.db.manager.query(
        this.q(
          `SELECT "id" FROM "newsletter_deliveries" WHERE "state" IN ('queued', 'sending') AND "dueAt" <= ? ORDER BY "dueAt", "id" LIMIT ${this.batchSize}`,
        ),
        [now],
      )) as { id: number }[];
      if (!due.length) return [];
      const ids = due.map((r) => Number(r.id));
      const list = ids.map(() => '?').join(', ');
      const claim = `${this.owner}:${++this.claims}`;
      const taken = await this.db.write((m) =>
        run(
          m,
          this.q(
            `UPDATE "newsletter_deliveries" SET "state" = 'sending', "claimedBy" = ?, "dueAt" = ?, "attempts" = "attempts" + 1 WHERE "id" IN (${list}) AND "state" IN ('queued', 'sending') AND "dueAt" <= ?`,
          ),
          [claim, now + this.claimMs, ...ids, now],
        ),
      );
      if (!taken) continue;
      const rows = (await this.db.manager.query(
        this.q(
          `SELECT "id", "campaignId", "subscriberId", "attempts" FROM "newsletter_deliveries" WHERE "id" IN (${list}) AND "claimedBy" = ? AND "state" = 'sending' ORDER BY "dueAt", "id"`,
        ),
        [...ids, claim],
      )) as { id: number; campaignId: number; subscriberId: number; attempts: number }[];
      return rows.map((r) => ({
        id: Number(r.id),
        campaignId: Number(r.campaignId),
        subscriberId: Number(r.subscriberId),
        attempts: Number(r.attempts),
        claim,
      }));
    }
  }

  /** Gives back the rows this process claimed but will not send (it stops): due again at once, the attempt not counted. */
  private async release() {
    const rows = this.buffer.splice(0).map((j) => j.row);
    for (const row of rows) {
      await this.db.write((m) =>
        run(
          m,
          this.q(
            'UPDATE "newsletter_deliveries" SET "state" = \'queued\', "claimedBy" = NULL, "dueAt" = ?, "attempts" = "attempts" - 1 WHERE "id" = ? AND "claimedBy" = ? AND "state" = \'sending\'',
          ),
          [Date.now(), row.id, row.claim],
        ),
      );
    }
  }

  /**
   * Waits for this process's turn under the rate shared by every replica: the next slot of a block
   * reserved from the campaign's `nextSlotAt` (about a second's worth, so not one write per mail).
   */
  private async waitForSlot(campaignId: number) {
    for (;;) {
      let slots = this.slots.get(campaignId);
      // Slots left from a block that ended over a second ago are dropped: sending them all now would exceed the rate by more than a block.
      if (slots && slots.left > 0 && slots.next < Date.now() - 1000) slots.left = 0;
      if (slots && slots.left > 0) {
        const slot = slots.next;
        slots.next += this.intervalMs;
        slots.left--;
        const waitMs = slot - Date.now();
        if (waitMs > 0) await new Promise((resolve) => setTimeout(resolve, waitMs));
        return;
      }
      if (!slots) this.slots.set(campaignId, (slots = { next: 0, left: 0, reserving: null }));
      const own = slots;
      own.reserving ??= this.reserveSlots(campaignId, own).finally(() => (own.reserving = null));
      await own.reserving;
    }
  }

  private async reserveSlots(campaignId: number, slots: Slots) {
    const count = Math.max(1, Math.min(this.batchSize, Math.floor(1000 / this.intervalMs)));
    for (;;) {
      const rows = (await this.db.manager.query(this.q('SELECT "nextSlotAt" FROM "newsletter_campaigns" WHERE "id" = ?'), [
        campaignId,
      ])) as { nextSlotAt: string | number }[];
      if (!rows[0]) {
        Object.assign(slots, { next: Date.now(), left: 1 });
        return;
      }
      const taken = Number(rows[0].nextSlotAt);
      const slot = Math.max(taken, Date.now());
      const reserved = await this.db.write((m) =>
        run(m, this.q('UPDATE "newsletter_campaigns" SET "nextSlotAt" = ? WHERE "id" = ? AND "nextSlotAt" = ?'), [
          Math.round(slot + count * this.intervalMs),
          campaignId,
          taken,
        ]),
      );
      if (reserved !== 1) continue;
      Object.assign(slots, { next: slot, left: count });
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
        [state, error, dueAt, row.id, row.claim],
      ),
    );
  }

  /**
   * Sends one mail on `lane`; resolves, once the server has answered, with `recorded`: when it is recorded as sent.
   * The end of the message waits for `previous` (the worker's last mail recorded as sent): a crash
   * can repeat at most one mail per worker.
   */
  private async send({ row, subscriber, prepared }: Job, lane: MailLane, previous: Promise<void>): Promise<{ recorded: Promise<void> }> {
    const { campaign } = prepared;
    const mail = this.mailFor(prepared, subscriber);
    const message = await this.transport.compose(mail);
    await this.waitForSlot(campaign.id);
    // Still this process's row and still a reader: only then does the end of the message go out. The
    // claim starts again here, so no other process takes the row while the server answers and that is recorded.
    const confirm = this.q(
      `UPDATE "newsletter_deliveries" SET "sentAt" = ?, "dueAt" = ? WHERE "id" = ? AND "claimedBy" = ? AND "state" = 'sending' AND "subscriberId" IN (SELECT "id" FROM "newsletter_subscribers" WHERE "id" = ? AND "state" = 'confirmed')`,
    );
    try {
      await lane.deliverOnce({ from: this.transport.envelopeFrom(mail), to: mail.to, message }, async () => {
        await previous;
        if (this.stopped) return false;
        return (
          (await this.db.write((m) => run(m, confirm, [Date.now(), Date.now() + this.claimMs, row.id, row.claim, subscriber.id]))) === 1
        );
      });
    } catch (error) {
      await this.failed(row, subscriber.id, error);
      await this.closeIfDone(campaign.id);
      return { recorded: previous };
    }
    // The server took it: recorded as sent (one write for the mails of every worker meanwhile)
    // while this worker's next mail goes out, whose end waits for that record.
    const recorded = new Promise<void>((resolve) => {
      this.settled.push({
        id: row.id,
        campaignId: campaign.id,
        subscriberId: subscriber.permanentFailures > 0 ? subscriber.id : null,
        recorded: resolve,
      });
      this.startFlush();
    });
    return { recorded };
  }

  private startFlush() {
    this.flushing ??= this.flush().finally(() => {
      this.flushing = null;
      // An answer that arrived as the last write ended is recorded too: its worker's next mail waits for it.
      if (this.settled.length) this.startFlush();
    });
  }

  /** Records the rows whose server answered as sent (one write for all that gathered meanwhile), then closes their campaigns if done. */
  private async flush() {
    while (this.settled.length) {
      const batch = this.settled.splice(0, 500);
      const ids = batch.map((b) => b.id);
      const readers = batch.flatMap((b) => (b.subscriberId === null ? [] : [b.subscriberId]));
      try {
        await this.recordSent(ids, readers);
        for (const b of batch) b.recorded();
        for (const id of new Set(batch.map((b) => b.campaignId))) await this.closeIfDone(id);
      } catch (error) {
        // Their claims run out instead and they are sent again (at least once).
        if (!this.stopped) this.logger.warn(`Could not record the server's answers: ${describe(error)}`);
      } finally {
        for (const b of batch) b.recorded();
      }
    }
  }

  /**
   * Marks the rows sent, tried again for a few seconds (well within a claim) when the database refuses
   * it for now (a lock wait, a deadlock with another replica's claim): rows left `sending` would each
   * be sent again once their claims run out.
   */
  private async recordSent(ids: number[], readers: number[]) {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.db.write(async (m) => {
          await run(
            m,
            this.q(
              `UPDATE "newsletter_deliveries" SET "state" = 'sent', "claimedBy" = NULL WHERE "state" = 'sending' AND "id" IN (${ids.map(() => '?').join(', ')})`,
            ),
            ids,
          );
          if (readers.length)
            await run(
              m,
              this.q(
                `UPDATE "newsletter_subscribers" SET "permanentFailures" = 0 WHERE "permanentFailures" > 0 AND "id" IN (${readers.map(() => '?').join(', ')})`,
              ),
              readers,
            );
        });
      } catch (error) {
        if (this.stopped || attempt >= RECORD_RETRIES_MS.length) throw error;
        await new Promise((resolve) => setTimeout(resolve, RECORD_RETRIES_MS[attempt]));
      }
    }
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
      // the server may well have taken it, so it is not sent again, and the row keeps the error (not a silent loss).
      await this.db.write((m) =>
        run(
          m,
          this.q(
            'UPDATE "newsletter_deliveries" SET "state" = \'sent\', "claimedBy" = NULL, "lastError" = ? WHERE "id" = ? AND "claimedBy" = ? AND "state" = \'sending\'',
          ),
          [`no answer after the end of the message: ${reason}`.slice(0, 500), row.id, row.claim],
        ),
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

  private mailFor({ campaign, item, settings, templates }: Prepared, subscriber: Subscriber): Mail {
    const lang: Lang = subscriber.language;
    let template = templates.get(lang);
    if (!template) {
      const marker = `reader${randomBytes(9).toString('hex')}`;
      const rendered = renderItemMail(campaign.kind, item, lang, {
        siteUrl: settings.siteUrl,
        footer: settings.footer[lang],
        manageUrl: `${settings.siteUrl}${sitePage(lang, 'preferences')}?token=${marker}`,
      });
      template = { ...rendered, marker };
      templates.set(lang, template);
    }
    const token = this.tokens.manage(subscriber);
    const host = new URL(settings.siteUrl).hostname || 'localhost';
    return {
      to: subscriber.email,
      subject: template.subject,
      text: template.text.replaceAll(template.marker, token),
      html: template.html.replaceAll(template.marker, token),
      ...(settings.from(lang) ? { from: settings.from(lang) } : {}),
      messageId: `<newsletter-${campaign.id}-${subscriber.id}@${host}>`,
      headers: {
        'List-Unsubscribe': `<${settings.siteUrl}/api/newsletter/unsubscribe?token=${token}>`,
        'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      },
    };
  }

  /**
   * A campaign is done once every row has its outcome: none left to send (a row is `sending` until
   * the server's answer is recorded), and no sent row still claimed (as a sender before this one left
   * them until the server's answer; one of a sender that died counts once that claim runs out).
   * Whichever process settles the last row says so.
   */
  private async closeIfDone(campaignId: number) {
    const now = Date.now();
    const closed = await this.db.write((m) =>
      run(
        m,
        this.q(
          `UPDATE "newsletter_campaigns" SET "state" = 'done', "finishedAt" = ? WHERE "id" = ? AND "state" = 'sending' AND NOT EXISTS (SELECT 1 FROM "newsletter_deliveries" WHERE "campaignId" = ? AND "state" IN ('queued', 'sending')) AND NOT EXISTS (SELECT 1 FROM "newsletter_deliveries" WHERE "campaignId" = ? AND "state" = 'sent' AND "claimedBy" IS NOT NULL AND "dueAt" > ?)`,
        ),
        [now, campaignId, campaignId, campaignId, now],
      ),
    );
    if (closed) this.slots.delete(campaignId);
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
      // Campaigns whose last rows were sent by a process that died before the server's answer.
      const open = (await this.db.manager.query(this.q(`SELECT "id" FROM "newsletter_campaigns" WHERE "state" = 'sending'`))) as {
        id: number;
      }[];
      for (const { id } of open) await this.closeIfDone(Number(id));
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
