// The builder's queue of rebuild requests:
// - At most one publish runs. Requests arriving meanwhile coalesce into exactly one follow-up
//   publish (their change lists merged), which starts after the running one and so reads every
//   change they announced. Repeated deliveries (the same idempotency key) and requests whose
//   changes are already live change nothing.
// - A failed publish is tried again a few times with growing pauses; after the last try, catch-up
//   checks compare the live version with the API's content version until a publish succeeds.
// - An accepted request is marked on disk until it is live, so a stop, crash or kill in between
//   makes the next start publish everything.
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { waitForApi } from './api-health.mjs';
import { newVersionId } from './site-versions.mjs';

/** Idempotency keys remembered to ignore repeated deliveries (retries after a lost answer). */
const REMEMBERED_KEYS = 1000;
/** In the builds folder from the moment a request is accepted until its content is live (markPending()). */
export const INTERRUPTED = '.publish-interrupted';
/** The longest pause between catch-up checks after publishes that keep failing. */
const MAX_CATCH_UP_DELAY_MS = 10 * 60_000;
/** Merged change lists longer than this make the publish a full one. */
const MAX_CHANGES = 5000;

export class RequestQueue {
  /**
   * @param {{ buildsDir: string, apiUrl: string, apiWaitMs: number, buildRetries: number, buildRetryDelayMs: number }} config
   * @param {object} o
   * @param {import('./site-versions.mjs').SiteVersions} o.versions  what is live and what this process made
   * @param {(current: object, req: object) => Promise<object>} o.run  one publish; resolves to its record
   * @param {import('node:events').EventEmitter} o.events  where 'coalesced', 'idle' are emitted ('build-start' is awaited)
   */
  constructor(config, { versions, run, events, log, interrupted }) {
    this.config = config;
    this.versions = versions;
    this.runPublish = run;
    this.events = events;
    this.log = log;
    this.current = null; // { id, startedAt, upToEventId, reasons, promise, child }
    this.pending = null; // merged requests waiting for the running build
    this.recentKeys = new Map();
    this.failuresInRow = 0;
    this.retry = null; // { at: Date, timer } while a new try of a failed build is scheduled
    this.counts = { requests: 0, duplicates: 0, coalesced: 0, alreadyLive: 0, started: 0, succeeded: 0, failed: 0 };
    this.closing = false;
    this.pendingMarked = interrupted;
  }

  /**
   * Asks for a build. Answers at once: { accepted, duplicate, coalesced, buildId }. A request
   * with an idempotency key seen before changes nothing.
   * `changes` lists what changed ({kind, entityId, action}); null when unknown (a full publish).
   * `changesTruncated`: the list is cut short (the request covers more changes): a full publish.
   */
  request({
    reason = 'content-changed',
    idempotencyKey = null,
    upToEventId = null,
    changeCount = 0,
    changes = null,
    changesTruncated = false,
  } = {}) {
    if (this.closing) return { accepted: false, duplicate: false, coalesced: false, buildId: null };
    this.counts.requests++;
    if (idempotencyKey) {
      if (this.recentKeys.has(idempotencyKey)) {
        this.counts.duplicates++;
        return { accepted: true, duplicate: true, coalesced: false, buildId: null };
      }
      this.recentKeys.set(idempotencyKey, Date.now());
      if (this.recentKeys.size > REMEMBERED_KEYS) this.recentKeys.delete(this.recentKeys.keys().next().value);
    }
    const req = {
      reasons: [reason],
      upToEventId: typeof upToEventId === 'number' ? upToEventId : null,
      changeCount: Number(changeCount) || 0,
      changes: Array.isArray(changes) ? dedupeChanges(changes) : null,
      changesTruncated: Boolean(changesTruncated),
    };
    if (this.covers(this.current ?? this.versions.live, req)) {
      this.counts.alreadyLive++;
      this.log(`changes up to #${req.upToEventId} are already in build ${(this.current ?? this.versions.live).id}; nothing to build`);
      return { accepted: true, duplicate: false, coalesced: false, upToDate: true, buildId: null };
    }
    this.markPending();
    if (this.current) {
      this.counts.coalesced++;
      this.pending = this.pending ? merge(this.pending, req) : req;
      this.events.emit('coalesced', this.pending);
      return { accepted: true, duplicate: false, coalesced: true, buildId: null };
    }
    const id = this.start(req);
    return { accepted: true, duplicate: false, coalesced: false, buildId: id };
  }

  /**
   * Whether a build (running or live) already contains a content-change request's changes: it read
   * the API after they were saved (its upToEventId is the content version seen when it started).
   * Requests for other reasons (publish now, retries) are always built.
   */
  covers(build, req) {
    return Boolean(
      build?.upToEventId != null &&
      (build === this.current || this.versions.builtHere.has(build.id)) &&
      req.upToEventId != null &&
      req.reasons.every((r) => r === 'content-changed') &&
      req.upToEventId <= build.upToEventId,
    );
  }

  start(req) {
    this.cancelRetry();
    // Every new request gets the full number of new tries (a catch-up after failures continues their count).
    if (!req.reasons.every((r) => r === 'retry' || r === 'catch-up')) this.failuresInRow = 0;
    const id = newVersionId();
    const current = { id, startedAt: new Date(), upToEventId: req.upToEventId, reasons: [...new Set(req.reasons)], child: null };
    this.current = current;
    this.counts.started++;
    current.promise = this.runPublish(current, req)
      .catch((error) => this.log(`build ${id}: unexpected error: ${error?.stack ?? error}`))
      .finally(() => this.next(req));
    return id;
  }

  /** After a publish: the follow-up when requests waited, else a new try or a catch-up check when it failed. */
  next(req) {
    const { live, lastBuild } = this.versions;
    this.current = null;
    if (this.pending && lastBuild?.ok && this.covers(live, this.pending)) {
      this.log(`changes up to #${this.pending.upToEventId} are already in build ${live.id}; nothing more to build`);
      this.pending = null;
    }
    if (this.pending && !this.closing) {
      const next = this.pending;
      this.pending = null;
      this.start(next);
    } else if (lastBuild && !lastBuild.ok && this.failuresInRow <= this.config.buildRetries && !this.closing) {
      this.scheduleRetry(req);
    } else if (lastBuild && !lastBuild.ok && !this.closing && this.config.apiWaitMs > 0) {
      this.scheduleCatchUp();
      this.events.emit('idle');
    } else {
      this.events.emit('idle');
    }
  }

  /** Called with each finished publish's record, before anything else happens after it. */
  finished(meta) {
    this.failuresInRow = meta.ok ? 0 : this.failuresInRow + 1;
    if (meta.ok) this.counts.succeeded++;
    else this.counts.failed++;
  }

  /** A failed build is tried again after a while, a few times, in case the cause has passed. */
  scheduleRetry(req) {
    const delayMs = this.config.buildRetryDelayMs * 2 ** (this.failuresInRow - 1);
    const at = new Date(Date.now() + delayMs);
    this.log(`trying again at ${at.toISOString()} (${this.failuresInRow} of ${this.config.buildRetries})`);
    const timer = setTimeout(() => {
      this.retry = null;
      if (!this.current && !this.closing) this.start({ ...req, reasons: ['retry'] });
    }, delayMs);
    timer.unref();
    this.retry = { at, timer };
  }

  /**
   * After the last new try of a failed publish: a catch-up check later, and again with growing
   * pauses (at most MAX_CATCH_UP_DELAY_MS) for as long as publishes fail, so the site does not stay
   * behind the database until somebody saves again. Shown as the next try (`retryAt`).
   */
  scheduleCatchUp() {
    const delayMs = Math.min(this.config.buildRetryDelayMs * 2 ** Math.max(0, this.failuresInRow - 1), MAX_CATCH_UP_DELAY_MS);
    const at = new Date(Date.now() + delayMs);
    this.log(`the live site may lack changes; comparing it with the API again at ${at.toISOString()}`);
    const timer = setTimeout(() => {
      this.retry = null;
      this.catchUp().catch((error) => this.log(`catch-up check failed: ${error?.message ?? error}`));
    }, delayMs);
    timer.unref();
    this.retry = { at, timer, catchUp: true };
  }

  /**
   * Publishes what the live version lacks: compares the content version it contains (its
   * `upToEventId`) with the API's (`/api/health` `contentVersion`) and, when they differ, starts a
   * full publish. Run at start and after publishes that failed, so a request answered 202 is never
   * lost to a crash, a kill or a failure. Nothing to do while a publish runs or waits: after a
   * restart or a failure, that one reads all of the content anyway. Off with BUILD_API_WAIT_MS=0
   * (publishes do not ask the API then either).
   */
  async catchUp() {
    const { apiUrl, apiWaitMs } = this.config;
    const busy = () => this.closing || this.current || this.pending;
    if (busy() || apiWaitMs === 0) return null;
    const api = await waitForApi(apiUrl, apiWaitMs, () => this.closing);
    if (busy()) return null;
    if (api.problem) {
      this.log(`could not compare the live site with the API: ${api.problem}`);
      if (!this.retry) this.scheduleCatchUp();
      return null;
    }
    const live = this.versions.live;
    const liveVersion = live?.upToEventId ?? null;
    // An API that does not say its version: nothing to compare.
    if (api.contentVersion === null) return null;
    if (live && liveVersion === api.contentVersion) {
      this.log(`the live site has every change the API has (#${liveVersion})`);
      return null;
    }
    this.log(
      `the live site has the content up to #${liveVersion ?? '?'}, the API up to #${api.contentVersion}: publishing what is missing`,
    );
    return this.request({ reason: 'catch-up' });
  }

  /**
   * Marks that an accepted request is not live yet, before it is answered 202: a stop, crash or
   * kill of this process leaves the mark, and the next start publishes everything. Removed once a
   * publish goes live with nothing else waiting (wentLive()).
   */
  markPending() {
    if (this.pendingMarked) return;
    try {
      writeFileSync(path.join(this.config.buildsDir, INTERRUPTED), new Date().toISOString());
      this.pendingMarked = true;
    } catch (error) {
      this.log(`could not note the accepted request on disk: ${error.message}`);
    }
  }

  /** A version went live: with nothing waiting, every accepted request is live (synchronously with `live`: a request accepted from here on marks again). */
  wentLive() {
    if (!this.pending && this.pendingMarked) {
      rmSync(path.join(this.config.buildsDir, INTERRUPTED), { force: true });
      this.pendingMarked = false;
    }
  }

  cancelRetry() {
    if (this.retry) clearTimeout(this.retry.timer);
    this.retry = null;
  }

  /** Resolves when no build runs and none waits. */
  async whenIdle() {
    while (this.current) await this.current.promise;
  }

  /** Like whenIdle, and also past any scheduled new try of a failed build (not a later catch-up check). */
  async whenSettled() {
    for (;;) {
      await this.whenIdle();
      if (!this.retry || this.retry.catchUp) return;
      await new Promise((resolve) => this.events.once('build-start', resolve));
    }
  }

  /** No new builds, none waiting, no new try. */
  close() {
    this.closing = true;
    this.pending = null;
    this.cancelRetry();
  }
}

function merge(a, b) {
  const changes = a.changes && b.changes ? dedupeChanges([...a.changes, ...b.changes]) : null;
  return {
    reasons: [...a.reasons, ...b.reasons],
    upToEventId: a.upToEventId === null && b.upToEventId === null ? null : Math.max(a.upToEventId ?? 0, b.upToEventId ?? 0),
    changeCount: a.changeCount + b.changeCount,
    changes,
    changesTruncated: a.changesTruncated || b.changesTruncated || (changes?.length ?? 0) > MAX_CHANGES,
  };
}

/** One entry per item, the newest action kept. */
function dedupeChanges(changes) {
  const byItem = new Map();
  for (const c of changes) {
    const key = `${c.kind}/${c.entityId}`;
    byItem.delete(key);
    byItem.set(key, c);
  }
  return [...byItem.values()];
}
