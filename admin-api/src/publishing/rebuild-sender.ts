import { randomUUID } from 'node:crypto';

import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { type RebuildRequest, sign, SIGNATURE_HEADER } from '@portfolio/contract/webhook';
import { IsNull, LessThanOrEqual } from 'typeorm';

import { DrainLoop } from '../common/drain-loop.js';
import { Lease } from '../common/lease.js';
import { rebuildDuration, rebuildRequests } from '../common/metrics.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { Db } from '../database/db.service.js';
import { retryDelayMs } from './backoff.js';
import { OutboxService } from './outbox.service.js';
import { OutboxEvent } from './outbox-event.entity.js';
import { PublishAttempt } from './publish-attempt.entity.js';

/**
 * At most this many distinct changes are listed in a request; the count still covers all of them.
 * A longer list is cut short, which the builder answers with a full publish (every page rendered):
 * during a burst of additions (8 clients adding 20,000 books) 200 was often passed between two
 * publishes. 2,000 changes are about 110 KB of JSON (the builder takes 512 KB).
 */
const MAX_LISTED_CHANGES = 2000;
/** The attempt log keeps about this many rows. */
const KEEP_ATTEMPTS = 2000;
/** The sending replica holds the lease this long, renewed every third of it while a request is out. */
export const SENDER_LEASE_MS = 30_000;
/** How soon a replica that found the lease taken looks again. */
const LEASE_BUSY_RETRY_MS = 1000;

interface PendingBatch {
  first: OutboxEvent;
  last: OutboxEvent;
  count: number;
}

export interface SenderState {
  configured: boolean;
  sending: boolean;
  publishNowRequested: boolean;
  nextAttemptAt: Date | null;
}

/**
 * Turns outbox rows into rebuild requests. Runs beside the request handlers and never inside
 * them: a save only writes its outbox row and emits 'committed', so a slow or dead webhook
 * cannot slow or fail it. Timing comes from the rows' own timestamps, so a restart (or another
 * replica) picks up exactly where things were. One loop per process, and of several replicas only
 * the holder of the 'rebuild-sender' lease sends, reading the batch again once it holds it: so
 * never two requests at once, and one request per burst whichever replicas saved it.
 */
@Injectable()
export class RebuildSender implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Publishing');
  private readonly shutdown = new AbortController();
  private readonly loop: DrainLoop;
  private poller: NodeJS.Timeout | null = null;
  private sending = false;
  /** Failed attempts in a row, and when the next may start. */
  private failures = 0;
  private retryAt = 0;
  private publishNowRequested = false;
  /**
   * The receiver answered 413 (an older builder takes 64 KB, about 1,100 changes): the list is left
   * out until a request is accepted, and the request says it is cut short (a full publish), so
   * publishing goes on instead of retrying the same body for ever.
   */
  private listTooLong = false;
  /** Kept across retries of one 'Publish now', so the builder sees repeats as repeats. */
  private publishNowKey: string | null = null;
  private readonly lease: Lease;

  constructor(
    private readonly db: Db,
    private readonly outbox: OutboxService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.lease = new Lease(db, 'rebuild-sender');
    this.loop = new DrainLoop(
      () => this.tick(),
      // Usually the database is briefly away; the rows wait in the outbox, so look again soon.
      (error) => this.logger.warn(`Could not read the outbox: ${describe(error)}`),
      Math.min(config.publishing.pollMs, 5000),
    );
  }

  get configured(): boolean {
    return Boolean(this.config.rebuildWebhook.url && this.config.rebuildWebhook.secret);
  }

  onApplicationBootstrap() {
    if (!this.configured) return;
    this.outbox.events.on('committed', this.loop.wake);
    this.poller = setInterval(this.loop.wake, this.config.publishing.pollMs).unref();
    this.loop.wake();
  }

  async onModuleDestroy() {
    const stopping = this.loop.stop(this.config.shutdownTimeoutMs);
    this.outbox.events.off('committed', this.loop.wake);
    if (this.poller) clearInterval(this.poller);
    // Only a request already out gets a moment to be answered; an aborted one leaves its rows
    // unprocessed, and the lease is given back, so another replica (or the next start) sends them.
    if (this.sending) await stopping;
    this.shutdown.abort();
    await this.loop.ended();
  }

  /** 'Publish now': send at once, even with nothing pending, skipping the quiet period and any retry wait. */
  publishNow() {
    this.publishNowRequested = true;
    this.retryAt = 0;
    this.loop.wake();
  }

  state(): SenderState {
    return {
      configured: this.configured,
      sending: this.sending,
      publishNowRequested: this.publishNowRequested,
      nextAttemptAt: this.retryAt > Date.now() ? new Date(this.retryAt) : null,
    };
  }

  /** One round of the loop: sends the pending batch once it is due, or sets the wake-up for when it will be. */
  private async tick() {
    this.loop.clear();
    const batch = await this.pendingBatch();
    if (!batch && !this.publishNowRequested) {
      this.failures = 0;
      this.retryAt = 0;
      return;
    }
    const now = Date.now();
    const { quietMs, maxWaitMs } = this.config.publishing;
    let due = now;
    if (batch && !this.publishNowRequested) {
      due = Math.min(batch.last.createdAt.getTime() + quietMs, batch.first.createdAt.getTime() + maxWaitMs);
    }
    due = Math.max(due, this.retryAt);
    if (due > now) return this.loop.at(due);

    const publishNow = this.publishNowRequested;
    if (!(await this.lease.acquire(SENDER_LEASE_MS, Date.now(), publishNow))) {
      // Another replica sends (or waits out a retry): look again when it should be done.
      const holder = await this.lease.holder();
      const until = holder?.until ?? 0;
      return this.loop.at(holder?.owner ? Math.min(until, Date.now() + LEASE_BUSY_RETRY_MS) : Math.max(until, Date.now() + 50));
    }
    let notBefore = 0;
    const renew = setInterval(() => void this.lease.acquire(SENDER_LEASE_MS).catch(() => undefined), SENDER_LEASE_MS / 3);
    renew.unref();
    try {
      // Under the lease: what another replica sent meanwhile is no longer pending.
      const fresh = await this.pendingBatch();
      if (!fresh && !publishNow) return;
      if (fresh && !publishNow) {
        const freshDue = Math.min(fresh.last.createdAt.getTime() + quietMs, fresh.first.createdAt.getTime() + maxWaitMs);
        if (freshDue > Date.now()) return this.loop.at(freshDue);
      }
      await this.send(fresh);
      if (this.retryAt > Date.now()) notBefore = this.retryAt;
    } finally {
      clearInterval(renew);
      await this.lease.release(this.loop.stopped ? 0 : notBefore).catch(() => undefined);
    }
    // Changes saved while the request was out are the next batch (after their own quiet period).
    this.loop.wake();
  }

  private async pendingBatch(): Promise<PendingBatch | null> {
    const m = this.db.manager;
    const where = { processedAt: IsNull() };
    const first = await m.findOne(OutboxEvent, { where, order: { id: 'ASC' } });
    if (!first) return null;
    const last = (await m.findOne(OutboxEvent, { where, order: { id: 'DESC' } })) ?? first;
    const count = await m.countBy(OutboxEvent, { ...where, id: LessThanOrEqual(last.id) });
    return { first, last, count };
  }

  private async send(batch: PendingBatch | null) {
    const { url, secret } = this.config.rebuildWebhook as { url: string; secret: string };
    const publishNow = this.publishNowRequested;
    this.publishNowRequested = false;
    if (publishNow) this.publishNowKey ??= `publish-now-${randomUUID()}`;
    const request = await this.buildRequest(batch, publishNow);
    const raw = JSON.stringify(request);
    const attempt = this.failures + 1;
    const started = Date.now();
    let statusCode: number | null = null;
    let error: string | null = null;
    this.sending = true;
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'portfolio-admin-api',
          'idempotency-key': request.idempotencyKey,
          [SIGNATURE_HEADER]: sign(secret, raw),
        },
        body: raw,
        redirect: 'manual',
        signal: AbortSignal.any([this.shutdown.signal, AbortSignal.timeout(this.config.publishing.requestTimeoutMs)]),
      });
      statusCode = res.status;
      if (res.status === 413 && request.changes.length) this.listTooLong = true;
      const text = await res.text().catch(() => '');
      if (!res.ok) error = `HTTP ${res.status}${text ? `: ${text.replace(/\s+/g, ' ').slice(0, 200)}` : ''}`;
    } catch (e) {
      error = describe(e);
    } finally {
      this.sending = false;
    }
    const succeeded = error === null;
    rebuildRequests.inc({ result: succeeded ? 'succeeded' : 'failed' });
    rebuildDuration.observe({}, (Date.now() - started) / 1000);

    await this.db.write(async (m) => {
      const { identifiers } = await m.insert(PublishAttempt, {
        idempotencyKey: request.idempotencyKey,
        reason: request.reason,
        firstEventId: batch?.first.id ?? null,
        lastEventId: batch?.last.id ?? null,
        changeCount: request.changeCount,
        attempt,
        startedAt: new Date(started),
        durationMs: Date.now() - started,
        statusCode,
        succeeded,
        error: error?.slice(0, 500) ?? null,
      });
      if (succeeded && batch) {
        await m.update(OutboxEvent, { id: LessThanOrEqual(batch.last.id), processedAt: IsNull() }, { processedAt: new Date() });
      }
      const id = Number(identifiers[0]?.id);
      if (id % 100 === 0) await m.delete(PublishAttempt, { id: LessThanOrEqual(id - KEEP_ATTEMPTS) });
    });

    if (succeeded) {
      if (this.failures) this.logger.log(`Rebuild request delivered after ${attempt} attempts`);
      this.listTooLong = false;
      this.failures = 0;
      this.retryAt = 0;
      if (publishNow) this.publishNowKey = null;
      return;
    }
    this.failures = attempt;
    this.retryAt = Date.now() + retryDelayMs(attempt, this.config.publishing.retryBaseMs, this.config.publishing.retryMaxMs);
    if (publishNow) this.publishNowRequested = true;
    if (!this.loop.stopped) {
      this.logger.warn(
        `Rebuild request failed (attempt ${attempt}): ${error}; next try in ${Math.round((this.retryAt - Date.now()) / 1000)} s`,
      );
    }
  }

  private async buildRequest(batch: PendingBatch | null, publishNow: boolean): Promise<RebuildRequest> {
    const m = this.db.manager;
    let changes: RebuildRequest['changes'] = [];
    let truncated = false;
    if (batch) {
      const rows = await m.find(OutboxEvent, {
        where: { processedAt: IsNull(), id: LessThanOrEqual(batch.last.id) },
        order: { id: 'DESC' },
        take: MAX_LISTED_CHANGES * 5,
      });
      // Newest action per item: a create then an update of the same book is one changed book.
      const seen = new Map<string, RebuildRequest['changes'][number]>();
      for (const r of rows) {
        if (r.fullPublish) continue;
        const key = `${r.kind}:${r.entityId}`;
        if (!seen.has(key)) seen.set(key, { kind: r.kind, entityId: r.entityId, action: r.action });
      }
      changes = [...seen.values()].reverse();
      const full = await m.existsBy(OutboxEvent, { processedAt: IsNull(), id: LessThanOrEqual(batch.last.id), fullPublish: true });
      truncated = full || changes.length > MAX_LISTED_CHANGES || rows.length < batch.count || this.listTooLong;
      changes = this.listTooLong ? [] : changes.slice(-MAX_LISTED_CHANGES);
    }
    const newest = batch ? batch.last.id : ((await m.find(OutboxEvent, { order: { id: 'DESC' }, take: 1 }))[0]?.id ?? 0);
    return {
      idempotencyKey:
        publishNow && this.publishNowKey
          ? this.publishNowKey
          : // Row ids plus the newest row's time: stable across retries, different after a database reset.
            `outbox-${batch!.first.id}-${batch!.last.id}-${batch!.last.createdAt.getTime()}`,
      reason: publishNow ? 'publish-now' : 'content-changed',
      sentAt: new Date().toISOString(),
      upToEventId: newest,
      changeCount: batch?.count ?? 0,
      changes,
      changesTruncated: truncated,
    };
  }
}

/** A short, log-safe description of why a request failed (never the URL's credentials or a stack). */
function describe(error: unknown): string {
  const e = error as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e?.name === 'TimeoutError') return 'no answer in time (timeout)';
  if (e?.name === 'AbortError') return 'cancelled because the API is stopping';
  if (e?.cause?.code) return `${e.cause.code}${e.cause.message ? ` (${e.cause.message})` : ''}`;
  return e?.message ?? String(error);
}
