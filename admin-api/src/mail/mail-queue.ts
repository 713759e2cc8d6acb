import { randomBytes } from 'node:crypto';

import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { type EntityManager, IsNull, LessThanOrEqual } from 'typeorm';

import { DrainLoop } from '../common/drain-loop.js';
import { portable, PROCESS_OWNER, run } from '../common/lease.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { Db } from '../database/db.service.js';
import { retryDelayMs } from '../publishing/backoff.js';
import { isPermanentFailure, type Mail, MailTransport } from './mail-transport.js';
import { OutgoingMail } from './outgoing-mail.entity.js';

/** Attempts before a mail is given up on: with the waits below, about an hour of trying. */
export const MAX_ATTEMPTS = 15;
const RETRY_BASE_MS = 1000;
const RETRY_MAX_MS = 10 * 60_000;
/** How often each process looks for mails it was not woken for (another replica's, or one whose sender died). */
const POLL_MS = 30_000;
/** Mails given up on stay this long for the operator to read, then go. */
const KEEP_FAILED_MS = 30 * 24 * 3_600_000;

/**
 * A durable queue of outgoing mails in the database (table `mail_queue`). A request handler only
 * inserts a row, in its own transaction, and wakes the sender after the commit, so the answer never
 * waits for a mail server and a restart loses nothing. Every API process runs a sender; a row is
 * sent by the one whose conditional UPDATE claimed it (as with leases), and a claim that runs out
 * (its sender died) lets another process take it. Delivery is at least once: a sender killed after
 * the server accepted a mail but before deleting its row sends it again.
 */
@Injectable()
export class MailQueue implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Mail');
  private readonly owner = `${PROCESS_OWNER}:${randomBytes(3).toString('hex')}`;
  /** Longer than the transport's bounded steps (connect, greeting, the answers) can add up to. */
  private readonly claimMs: number;
  private readonly loop = new DrainLoop(
    () => this.sendDue(),
    (error) => {
      if (!this.loop.stopped) this.logger.warn(`Could not read the mail queue: ${describe(error)}`);
    },
  );
  /** Old failures are swept hourly, not at start: a start writes nothing when no mail waits. */
  private lastSweep = Date.now();

  constructor(
    private readonly db: Db,
    private readonly transport: MailTransport,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.claimMs = 4 * config.mail.timeoutMs + 5000;
  }

  /** Queues a mail in the caller's transaction (`db.write`); call `wake()` once that has committed. */
  async enqueue(m: EntityManager, mail: Mail) {
    const now = Date.now();
    await m.insert(OutgoingMail, {
      recipient: mail.to,
      subject: mail.subject,
      body: mail.text,
      html: mail.html ?? null,
      fromName: mail.from?.name ?? null,
      fromAddress: mail.from?.address ?? null,
      createdAt: now,
      dueAt: now,
      claimedBy: null,
      attempts: 0,
      failedAt: null,
      lastError: null,
    });
  }

  onApplicationBootstrap() {
    this.wake();
  }

  async onModuleDestroy() {
    // A delivery under way gets a moment to finish; one cut off is sent again once its claim runs out.
    await this.loop.stop(this.config.shutdownTimeoutMs);
  }

  /** Has the sender look for due mails now (or once more after the round under way). */
  readonly wake = () => this.loop.wake();

  /** One round of the loop: sends every mail that is due, then sets the next wake-up. */
  private async sendDue() {
    for (let mail = await this.claimNext(); mail; mail = this.loop.stopped ? null : await this.claimNext()) await this.deliver(mail);
    await this.scheduleNext();
  }

  /** Takes the oldest mail that is due for this process to send, or null when none is. */
  async claimNext(): Promise<OutgoingMail | null> {
    const now = Date.now();
    const due = await this.db.manager.find(OutgoingMail, {
      select: { id: true },
      where: { failedAt: IsNull(), dueAt: LessThanOrEqual(now) },
      order: { id: 'ASC' },
      take: 5,
    });
    const claim = portable(
      this.db,
      'UPDATE "mail_queue" SET "claimedBy" = ?, "dueAt" = ?, "attempts" = "attempts" + 1 WHERE "id" = ? AND "failedAt" IS NULL AND "dueAt" <= ?',
    );
    for (const { id } of due) {
      // Of several processes reaching for the same row, only one UPDATE matches it.
      if ((await this.db.write((m) => run(m, claim, [this.owner, now + this.claimMs, id, now]))) === 1) {
        return this.db.manager.findOneBy(OutgoingMail, { id });
      }
    }
    return null;
  }

  private async deliver(mail: OutgoingMail) {
    let where: string;
    try {
      where = await this.transport.deliver({
        to: mail.recipient,
        subject: mail.subject,
        text: mail.body,
        ...(mail.html ? { html: mail.html } : {}),
        ...(mail.fromAddress ? { from: { name: mail.fromName ?? '', address: mail.fromAddress } } : {}),
      });
    } catch (error) {
      const reason = describe(error).slice(0, 500);
      const release = (sets: string, params: unknown[]) =>
        this.db.write((m) =>
          run(
            m,
            portable(this.db, `UPDATE "mail_queue" SET ${sets}, "lastError" = ?, "claimedBy" = NULL WHERE "id" = ? AND "claimedBy" = ?`),
            [...params, reason, mail.id, this.owner],
          ),
        );
      if (isPermanentFailure(error) || mail.attempts >= MAX_ATTEMPTS) {
        // The body goes (it may hold a link that still works); address, subject and reason stay.
        await release('"failedAt" = ?, "body" = ?, "html" = NULL', [Date.now(), '']);
        this.logger.error(`Gave up on mail #${mail.id} "${mail.subject}" after ${mail.attempts} attempt(s): ${reason}`);
      } else {
        const waitMs = retryDelayMs(mail.attempts, RETRY_BASE_MS, RETRY_MAX_MS);
        await release('"dueAt" = ?', [Date.now() + waitMs]);
        this.logger.warn(
          `Mail #${mail.id} "${mail.subject}" not delivered (attempt ${mail.attempts}): ${reason}; next try in ${Math.ceil(waitMs / 1000)} s`,
        );
      }
      return;
    }
    // Delivered: the row, and the link in its body, go.
    await this.db.write((m) => run(m, portable(this.db, 'DELETE FROM "mail_queue" WHERE "id" = ?'), [mail.id]));
    this.logger.log(`Sent mail #${mail.id} "${mail.subject}" ${where}`);
  }

  private async scheduleNext() {
    const now = Date.now();
    if (now - this.lastSweep > 3_600_000) {
      this.lastSweep = now;
      await this.db.write((m) => run(m, portable(this.db, 'DELETE FROM "mail_queue" WHERE "failedAt" < ?'), [now - KEEP_FAILED_MS]));
    }
    const rows = (await this.db.manager.query(
      portable(this.db, 'SELECT MIN("dueAt") AS "next" FROM "mail_queue" WHERE "failedAt" IS NULL'),
    )) as { next: string | number | null }[];
    const next = rows[0]?.next == null ? Infinity : Number(rows[0].next);
    this.loop.at(Math.min(next, now + POLL_MS));
  }
}

/** What went wrong, without a stack (nodemailer's messages carry the server's answer, never the mail). */
function describe(error: unknown): string {
  const e = error as { code?: string; message?: string };
  return [e?.code, e?.message ?? String(error)].filter(Boolean).join(': ').replace(/\s+/g, ' ');
}
