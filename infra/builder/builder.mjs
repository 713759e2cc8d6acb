// The site builder: turns rebuild requests into new site versions (publishes).
//
// - Each publish makes a new folder `builds/<id>`; the public folder `live` is a symlink that is
//   switched by rename(2), so a visitor sees the old site or the new one, never a half-written mix.
// - Renderer mode (the default): the site's code is built once per code version and kept running
//   (renderers.mjs); a content change re-renders only the routes that read what changed, in a new
//   folder of hard links to the live one (a targeted publish, site-publish.mjs). Everything else
//   is a full publish: the first one, a new code version, 'Publish now', a change list that is
//   missing or cut short, the first publish after a failure or a restart, and the fallback when a
//   targeted publish fails.
// - Command mode (BUILD_COMMAND set): the command builds the whole site into the folder, as a
//   static host's build hook would.
// - A failed publish (error, timeout, no index.html) never touches `live`; its log's last lines are
//   reported, and it is tried again a few times with growing pauses.
// - At most one publish runs. Requests arriving meanwhile coalesce into exactly one follow-up
//   publish (their change lists merged), which starts after the running one and so reads every
//   change they announced.
// - The last few successful versions stay on disk for rollback; everything about a publish is in
//   `builds/<id>.json` (what went live: mode, paths added, changed and removed), `<id>.log`,
//   `<id>.deps.json` (the site map: what each route read) and `<id>.paths.json` (the whole path
//   lists), beside its folder and outside what `live` serves.
import { randomBytes, randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { appendFile, lstat, mkdir, readdir, readFile, readlink, rename, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { countPages } from '@portfolio/contract/webhook';
import { killGroup, runCommand } from './processes.mjs';
import { RendererHost } from './renderers.mjs';
import { isSecretName } from './config.mjs';
import { Deployer } from './deploy.mjs';
import { fullPublish, linkTree, replaceFile, targetedPublish, writeSiteMap } from './site-publish.mjs';

/** Idempotency keys remembered to ignore repeated deliveries (retries after a lost answer). */
const REMEMBERED_KEYS = 1000;
/** In the builds folder from the moment a request is accepted until its content is live (markPending()). */
const INTERRUPTED = '.publish-interrupted';
/** The longest pause between catch-up checks after publishes that keep failing. */
const MAX_CATCH_UP_DELAY_MS = 10 * 60_000;
/** Merged change lists longer than this make the publish a full one. */
const MAX_CHANGES = 5000;
/** Paths listed per kind (added, changed, removed) in a publish's record and /status; the counts are exact. */
const LISTED_PATHS = 100;
/** A build's own files: `<id>.json` (its record); `<id>.deps.json`, `<id>.paths.json` and `<id>.log` beside it. */
const RECORD = /^[^.]+\.json$/;
/** The site's environment: it has no use for the webhook secret (nor the deploy's credentials). */
const withoutSecret = (env) => Object.fromEntries(Object.entries(env).filter(([name]) => !isSecretName(name)));
const buildEnv = () => withoutSecret(process.env);

export class SiteBuilder extends EventEmitter {
  constructor(config, { log = (line) => process.stdout.write(`[builder] ${line}\n`) } = {}) {
    super();
    this.config = config;
    this.log = log;
    this.current = null; // { id, startedAt, upToEventId, reasons, promise, child }
    this.pending = null; // merged requests waiting for the running build
    this.live = null; // meta of the build `live` points to
    this.lastBuild = null; // meta of the newest finished build
    this.recentKeys = new Map();
    this.failuresInRow = 0;
    this.retry = null; // { at: Date, timer } while a new try of a failed build is scheduled
    this.counts = { requests: 0, duplicates: 0, coalesced: 0, alreadyLive: 0, started: 0, succeeded: 0, failed: 0 };
    // Builds made by this process: only their recorded content version is trusted to skip a request
    // (a build left by an earlier run may come from a database that has since been replaced).
    this.builtHere = new Set();
    this.closing = false;
    /** The site map of the live version, when this process made it in renderer mode (a targeted publish starts from it). */
    this.liveMap = null;
    /** The publish that made the live version ({ id, renderer }) (a targeted publish's renderer reads only what changed since). */
    this.livePublish = null;
    /** Renderer mode: the live version's link tree, made ahead for the next targeted publish (linkAhead). */
    this.ahead = null;
    /** Set after a failed publish: the changes it carried are not live, so the next publish is a full one. */
    this.needsFull = false;
    /** Off by default: with DEPLOY_S3_URL, each version that goes live is also deployed to a bucket (deploy.mjs). */
    this.deployer = config.deploy ? new Deployer(config.deploy, { log: (line) => this.log(line), stateFile: path.join(config.siteRoot, 'deploy-state.json') }) : null;
    this.renderers = config.buildCommand
      ? null
      : new RendererHost({
          dir: config.renderersDir,
          apiUrl: config.apiUrl,
          cacheDir: config.cacheDir,
          env: { ...buildEnv(), ...withoutSecret(config.siteEnv ?? {}), SITE_API_URL: config.apiUrl, SITE_CACHE_DIR: config.cacheDir },
          keep: config.keepRenderers,
          renderTimeoutMs: config.renderTimeoutMs,
          maxMemoryMb: config.rendererMaxMemoryMb,
          buildTimeoutMs: config.buildTimeoutMs,
          logTailLines: config.logTailLines,
          log: (line) => this.log(line),
        });
  }

  /** Reads what earlier runs left: the live build, the newest build, and cleans up interrupted ones. */
  async init() {
    const { buildsDir, cacheDir, liveLink } = this.config;
    await mkdir(buildsDir, { recursive: true });
    await mkdir(cacheDir, { recursive: true });
    // A plain folder where the link belongs (e.g. copied in by hand) becomes a kept build.
    const liveStat = await lstat(liveLink).catch(() => null);
    if (liveStat?.isDirectory()) {
      const id = `${buildId()}-adopted`;
      await rename(liveLink, path.join(buildsDir, id));
      await replaceFile(path.join(buildsDir, `${id}.json`), JSON.stringify({ id, ok: true, adopted: true, upToEventId: null }));
      await this.switchLive(id);
    }
    const entries = await readdir(buildsDir, { withFileTypes: true });
    const metas = [];
    for (const e of entries) {
      if (e.isFile() && RECORD.test(e.name)) {
        try {
          metas.push(JSON.parse(await readFile(path.join(buildsDir, e.name), 'utf8')));
        } catch {
          // A meta file cut short by a crash: its build folder goes with the cleanup below.
        }
      }
    }
    metas.sort((a, b) => a.id.localeCompare(b.id));
    const liveId = await this.liveId();
    /** No site was live when this process started: its first publish is the site's first. */
    this.startedWithoutSite = !liveId;
    this.live = metas.find((m) => m.id === liveId) ?? (liveId ? { id: liveId, ok: true, upToEventId: null } : null);
    this.lastBuild = metas.at(-1) ?? null;
    const known = new Set(metas.map((m) => m.id));
    /** A request the last run accepted was not live when it stopped (a stop, crash or kill): main.mjs starts a full publish. */
    this.interrupted = entries.some((e) => e.name === INTERRUPTED);
    this.pendingMarked = this.interrupted;
    for (const e of entries) {
      // Folders (and site maps) without a meta file are builds interrupted by a stop or crash.
      const id = e.name.replace(/\..*$/, '');
      // Files left under a temporary name by a stop mid-write go too.
      if (/\.tmp-/.test(e.name) || (!known.has(id) && id !== liveId && (e.isDirectory() || /\.(deps|paths)\.json$/.test(e.name)))) await rm(path.join(buildsDir, e.name), { recursive: true, force: true });
    }
    for (const name of await readdir(this.config.siteRoot)) {
      if (name.startsWith('.live-')) await rm(path.join(this.config.siteRoot, name), { force: true });
      if (name.startsWith('.next-')) await rm(path.join(this.config.siteRoot, name), { recursive: true, force: true });
    }
    // A deploy cut short by a stop (or a version made while deploy was off) is caught up at start;
    // when the bucket already holds the live version, nothing is uploaded.
    if (this.deployer && liveId) this.deployer.schedule({ id: liveId, dir: path.join(buildsDir, liveId) });
    return this;
  }

  async liveId() {
    try {
      return path.basename(await readlink(this.config.liveLink));
    } catch {
      return null;
    }
  }

  /**
   * Asks for a build. Answers at once: { accepted, duplicate, coalesced, buildId }. A request
   * with an idempotency key seen before changes nothing.
   */
  /**
   * `changes` lists what changed ({kind, entityId, action}); null when unknown (a full publish).
   * `changesTruncated`: the list is cut short (the request covers more changes): a full publish.
   */
  request({ reason = 'content-changed', idempotencyKey = null, upToEventId = null, changeCount = 0, changes = null, changesTruncated = false } = {}) {
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
    if (this.covers(this.current ?? this.live, req)) {
      this.counts.alreadyLive++;
      this.log(`changes up to #${req.upToEventId} are already in build ${(this.current ?? this.live).id}; nothing to build`);
      return { accepted: true, duplicate: false, coalesced: false, upToDate: true, buildId: null };
    }
    this.markPending();
    if (this.current) {
      this.counts.coalesced++;
      this.pending = this.pending ? merge(this.pending, req) : req;
      this.emit('coalesced', this.pending);
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
        (build === this.current || this.builtHere.has(build.id)) && req.upToEventId != null && req.reasons.every((r) => r === 'content-changed') && req.upToEventId <= build.upToEventId,
    );
  }

  start(req) {
    this.cancelRetry();
    // Every new request gets the full number of new tries (a catch-up after failures continues their count).
    if (!req.reasons.every((r) => r === 'retry' || r === 'catch-up')) this.failuresInRow = 0;
    const id = buildId();
    const current = { id, startedAt: new Date(), upToEventId: req.upToEventId, reasons: [...new Set(req.reasons)], child: null };
    this.current = current;
    this.counts.started++;
    current.promise = this.run(current, req)
      .catch((error) => this.log(`build ${id}: unexpected error: ${error?.stack ?? error}`))
      .finally(() => {
        this.current = null;
        if (this.pending && this.lastBuild?.ok && this.covers(this.live, this.pending)) {
          this.log(`changes up to #${this.pending.upToEventId} are already in build ${this.live.id}; nothing more to build`);
          this.pending = null;
        }
        if (this.pending && !this.closing) {
          const next = this.pending;
          this.pending = null;
          this.start(next);
        } else if (this.lastBuild && !this.lastBuild.ok && this.failuresInRow <= this.config.buildRetries && !this.closing) {
          this.scheduleRetry(req);
        } else if (this.lastBuild && !this.lastBuild.ok && !this.closing && this.config.apiWaitMs > 0) {
          this.scheduleCatchUp();
          this.emit('idle');
        } else {
          this.emit('idle');
        }
      });
    return id;
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
    const liveVersion = this.live?.upToEventId ?? null;
    // An API that does not say its version: nothing to compare.
    if (api.contentVersion === null) return null;
    if (this.live && liveVersion === api.contentVersion) {
      this.log(`the live site has every change the API has (#${liveVersion})`);
      return null;
    }
    this.log(`the live site has the content up to #${liveVersion ?? '?'}, the API up to #${api.contentVersion}: publishing what is missing`);
    return this.request({ reason: 'catch-up' });
  }

  /**
   * Marks that an accepted request is not live yet, before it is answered 202: a stop, crash or
   * kill of this process leaves the mark, and the next start publishes everything. Removed once a
   * publish goes live with nothing else waiting (in run()).
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

  cancelRetry() {
    if (this.retry) clearTimeout(this.retry.timer);
    this.retry = null;
  }

  async run(current, req) {
    const { id } = current;
    const { buildsDir, apiUrl, apiWaitMs, logTailLines } = this.config;
    const outDir = path.join(buildsDir, id);
    const logFile = path.join(buildsDir, `${id}.log`);
    this.log(`build ${id} started (${current.reasons.join(', ')}${req.changeCount ? `, ${req.changeCount} changes` : ''})`);
    this.emit('build-start', { id });

    let result;
    const api = apiWaitMs > 0 ? await waitForApi(apiUrl, apiWaitMs, () => this.closing) : { problem: null, contentVersion: null };
    const apiProblem = api.problem;
    // A full build reads the API after this point, so it contains every change up to this version.
    // (A targeted publish contains only the changes it was asked for: see publish().)
    current.contentVersion = api.contentVersion;
    if (!this.renderers) this.readsEverything(current);
    if (apiProblem) {
      await writeFile(logFile, `${apiProblem}\n`);
      result = { exitCode: null, signal: null, timedOut: false, tail: [apiProblem] };
    } else if (this.renderers) {
      result = await this.publish(current, req, outDir, logFile);
    } else {
      result = await this.runBuildCommand(current, outDir, logFile);
    }

    let error = null;
    if (apiProblem) error = apiProblem;
    else if (result.error) error = result.error;
    else if (result.timedOut) error = `The build took longer than ${Math.round(this.config.buildTimeoutMs / 1000)} s and was stopped.`;
    else if (result.exitCode !== 0) error = `The build command failed (${result.signal ? `signal ${result.signal}` : `exit code ${result.exitCode}`}).`;
    else if (!existsSync(path.join(outDir, 'index.html'))) error = 'The build finished but wrote no index.html; the live site was kept.';

    const finishedAt = new Date();
    const paths = result.paths ?? null;
    const meta = {
      id,
      ok: error === null,
      reasons: current.reasons,
      /** The newest outbox event (content change) the version contains. */
      upToEventId: current.upToEventId,
      /** 'full' (every route rendered, or the build command) or 'targeted' (only the routes that read what changed). */
      mode: result.mode ?? 'full',
      startedAt: current.startedAt.toISOString(),
      finishedAt: finishedAt.toISOString(),
      durationMs: finishedAt - current.startedAt,
      exitCode: result.exitCode,
      ...(result.details ?? {}),
      // What went live, by address (`/books/3`, `/_astro/cover-600w.1a2b3c4d5e.webp`), against the previous live version; null when not known.
      addedCount: paths ? paths.added.length : null,
      changedCount: paths ? paths.changed.length : null,
      removedCount: paths ? paths.removed.length : null,
      pagesUpdated: paths ? countPages([...paths.added, ...paths.changed, ...paths.removed]) : null,
      added: paths ? paths.added.slice(0, LISTED_PATHS) : null,
      changed: paths ? paths.changed.slice(0, LISTED_PATHS) : null,
      removed: paths ? paths.removed.slice(0, LISTED_PATHS) : null,
      error,
      logTail: error ? [...result.tail, error].slice(-logTailLines) : [],
    };
    this.failuresInRow = meta.ok ? 0 : this.failuresInRow + 1;
    if (meta.ok) {
      // The record first: a crash right after the switch must not leave `live` pointing at a folder the next start removes.
      await replaceFile(path.join(buildsDir, `${id}.json`), JSON.stringify(meta, null, 2));
      await this.switchLive(id);
      // Off the way to live: the next targeted publish starts from the map in memory (one after a
      // restart is full), so these files are the record of the version (and for the CDN's purge).
      // A targeted publish left the live map as it was and says what changed in it.
      const map = result.map ?? (result.mapChanges ? this.liveMap.apply(result.mapChanges) : null);
      if (map) await writeSiteMap(path.join(buildsDir, `${id}.deps.json`), map).catch((e) => this.log(`could not write the site map of ${id}: ${e.message}`));
      if (paths) await replaceFile(path.join(buildsDir, `${id}.paths.json`), JSON.stringify(paths)).catch((e) => this.log(`could not write the path lists of ${id}: ${e.message}`));
      this.live = meta;
      // Synchronously with `live`: a request accepted from here on marks again.
      if (!this.pending && this.pendingMarked) {
        rmSync(path.join(buildsDir, INTERRUPTED), { force: true });
        this.pendingMarked = false;
      }
      this.liveMap = map;
      this.livePublish = result.publish ?? null;
      this.needsFull = false;
      this.builtHere.add(id);
      this.counts.succeeded++;
      const what = paths ? `; ${paths.added.length} added, ${paths.changed.length} changed, ${paths.removed.length} removed` : '';
      this.deployer?.schedule({ id, dir: outDir });
      this.log(`build ${id} is live (${meta.mode}, ${(meta.durationMs / 1000).toFixed(1)} s${what})`);
    } else {
      await rm(outDir, { recursive: true, force: true });
      this.needsFull = true;
      this.counts.failed++;
      // Stopping cuts a build short: that is not a failure worth a block of log lines.
      if (this.closing) this.log(`build ${id} stopped: the builder is stopping`);
      else this.log(`build ${id} FAILED, the live site is unchanged: ${error}\n${meta.logTail.map((l) => `    ${l}`).join('\n')}`);
      await replaceFile(path.join(buildsDir, `${id}.json`), JSON.stringify(meta, null, 2));
    }
    this.lastBuild = meta;
    await this.prune().catch((e) => this.log(`could not remove old builds: ${e.message}`));
    if (meta.ok && this.renderers) this.linkAhead();
    this.emit('build-end', meta);
  }

  /** Command mode: the whole site from BUILD_COMMAND. */
  async runBuildCommand(current, outDir, logFile) {
    const { cacheDir, apiUrl, buildCommand, buildCwd, buildTimeoutMs, logTailLines } = this.config;
    await mkdir(outDir, { recursive: true });
    return runCommand(buildCommand, {
      cwd: buildCwd,
      env: {
        ...buildEnv(),
        SITE_API_URL: apiUrl,
        SITE_OUT_DIR: outDir,
        SITE_CACHE_DIR: cacheDir,
        ASTRO_TELEMETRY_DISABLED: '1',
        NO_COLOR: '1',
        FORCE_COLOR: '0',
      },
      logFile,
      timeoutMs: buildTimeoutMs,
      tailLines: logTailLines,
      onChild: (child) => (current.child = child),
    });
  }

  /** The publish reads all of the content after its API check: it contains every change up to the version seen then. */
  readsEverything(current) {
    if (current.contentVersion != null) current.upToEventId = Math.max(current.upToEventId ?? 0, current.contentVersion);
  }

  /** Why a request needs a full publish, or null when a targeted one can serve it (`fingerprint`: the site's code version now). */
  fullReason(req, fingerprint) {
    if (!req.reasons.every((r) => r === 'content-changed')) return [...new Set(req.reasons)].join(', ');
    if (this.live?.fingerprint && this.live.fingerprint !== fingerprint.slice(0, 16)) return "the site's code or configuration changed";
    if (!req.changes) return 'the request does not list its changes';
    if (req.changesTruncated) return 'the change list is cut short';
    if (this.needsFull) return 'the previous publish failed';
    if (!this.live || !this.builtHere.has(this.live.id)) return 'no live version made by this run of the builder';
    if (!this.liveMap) return 'the live version has no site map';
    return null;
  }

  /**
   * Renderer mode: a targeted publish when the request allows it, otherwise (and when it fails) a
   * full one. The whole publish is bounded by BUILD_TIMEOUT_MS: past it, the renderer (or its
   * build) is stopped, which fails whatever still waits on it.
   */
  async publish(current, req, outDir, logFile) {
    const { buildsDir, buildTimeoutMs, logTailLines, renderConcurrency } = this.config;
    const lines = [];
    const note = (line) => {
      lines.push(line);
      if (lines.length > 5000) lines.shift();
    };
    const say = (line) => {
      note(line);
      this.log(`build ${current.id}: ${line}`);
    };
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      say(`took longer than ${Math.round(buildTimeoutMs / 1000)} s: stopping the renderer`);
      this.renderers.stopBuild();
      this.renderers.discard();
    }, buildTimeoutMs);
    current.stop = () => {
      this.renderers.stopBuild();
      this.renderers.discard();
    };
    const details = {};
    try {
      const fingerprintNow = await this.renderers.fingerprint();
      let why = this.fullReason(req, fingerprintNow);
      if (why) this.readsEverything(current);
      const { fingerprint, renderer, built } = await this.renderers.ensure(note, fingerprintNow);
      details.fingerprint = fingerprint.slice(0, 16);
      if (built != null) details.rendererBuildMs = built;
      if (!why && this.liveMap.fingerprint !== fingerprint) why = "the site's code or configuration changed";
      if (!why) {
        try {
          current.mode = 'targeted';
          const publishId = randomUUID();
          const r = await targetedPublish({
            renderer,
            baseDir: path.join(buildsDir, this.live.id),
            baseMap: this.liveMap,
            outDir,
            prepareTree: async () => {
              details.tree = (await this.takeAhead(this.live.id, outDir)) ? 'linked ahead' : 'linked now';
              if (details.tree === 'linked now') await linkTree(path.join(buildsDir, this.live.id), outDir);
            },
            changes: req.changes,
            publishId,
            basePublishId: this.livePublish?.renderer === renderer ? this.livePublish.id : null,
            concurrency: renderConcurrency,
          });
          if (timedOut) throw new Error('timed out');
          return { mode: 'targeted', exitCode: 0, publish: { id: publishId, renderer }, mapChanges: r.mapChanges, paths: r.changes, tail: [], details: { ...details, routes: r.routes, rendered: r.rendered, timings: r.timings } };
        } catch (error) {
          if (this.closing) throw error;
          if (timedOut) throw error;
          say(`the targeted publish failed (${error?.message ?? error}); the live site is unchanged, publishing everything instead`);
          details.fallbackFrom = { mode: 'targeted', error: String(error?.message ?? error).slice(0, 500) };
          await this.renderers.discard();
          await rm(outDir, { recursive: true, force: true });
          why = 'fallback after the targeted publish failed';
        }
      }
      current.mode = 'full';
      this.readsEverything(current);
      details.fullReason = why;
      say(`full publish: ${why}`);
      const { fingerprint: fp, renderer: r } = await this.renderers.ensure(note);
      const previousDir = this.live ? path.join(buildsDir, this.live.id) : null;
      const publishId = randomUUID();
      const full = await fullPublish({ renderer: r, fingerprint: fp, outDir, publishId, concurrency: renderConcurrency, previousDir, previousMap: this.liveMap });
      if (timedOut) throw new Error('timed out');
      return { mode: 'full', exitCode: 0, publish: { id: publishId, renderer: r }, map: full.map, paths: full.changes, tail: [], details: { ...details, routes: full.routes, rendered: full.rendered } };
    } catch (error) {
      // A renderer that failed may be hung or broken: the next publish starts a new one.
      await this.renderers.discard();
      const message = timedOut ? null : String(error?.message ?? error);
      if (message) for (const line of message.split('\n')) note(line);
      for (const line of error?.tail ?? []) note(line);
      return { mode: current.mode, exitCode: timedOut ? null : 1, timedOut, error: timedOut ? null : message.split('\n')[0], tail: lines.slice(-logTailLines), details };
    } finally {
      clearTimeout(timer);
      current.stop = null;
      await appendFile(logFile, lines.length ? `${lines.join('\n')}\n` : '').catch(() => {});
    }
  }

  /**
   * The next targeted publish's folder, linked while nothing is published: at 20,000 books `cp -al`
   * of 84,000 files takes 1.4 s, which inside the publish puts an edit past the 1 s budget
   * (infra/bench/README.md). Outside `builds/` (the next start removes a leftover).
   */
  linkAhead() {
    const base = this.live.id;
    const dir = path.join(this.config.siteRoot, `.next-${base}`);
    const old = this.ahead;
    const cleared = old ? old.ready.then(() => (old.taken ? undefined : rm(old.dir, { recursive: true, force: true }))) : Promise.resolve();
    const ready = cleared
      .then(() => linkTree(path.join(this.config.buildsDir, base), dir))
      .then(
        () => true,
        (error) => {
          this.log(`could not link the next publish's folder ahead: ${error.message}`);
          return false;
        },
      );
    this.ahead = { base, dir, ready, taken: false };
  }

  /** Moves the folder linked ahead for version `base` to `outDir`; false when there is none for it. */
  async takeAhead(base, outDir) {
    const ahead = this.ahead;
    if (!ahead || ahead.base !== base || ahead.taken || !(await ahead.ready)) return false;
    ahead.taken = true;
    this.ahead = null;
    await rename(ahead.dir, outDir);
    return true;
  }

  /** Points `live` at builds/<id>: a new link under a temporary name, renamed over the old one in one step. */
  async switchLive(id) {
    const tmp = path.join(this.config.siteRoot, `.live-${id}`);
    await rm(tmp, { force: true });
    // Relative, so the same volume works wherever it is mounted (builder, nginx, admin-api).
    await symlink(path.join('builds', id), tmp);
    await rename(tmp, this.config.liveLink);
  }

  /** Keeps the newest successful builds (and the live one) and the records of the newest failures. */
  async prune() {
    const { buildsDir, keepBuilds } = this.config;
    const liveId = await this.liveId();
    const entries = await readdir(buildsDir, { withFileTypes: true });
    // Not the staging folders of a publish in progress (`.stage-<id>`).
    const folders = entries.filter((e) => e.isDirectory() && !e.name.startsWith('.')).map((e) => e.name).sort().reverse();
    const keep = new Set(folders.slice(0, keepBuilds));
    if (liveId) keep.add(liveId);
    for (const name of folders) {
      if (!keep.has(name)) await removeBuild(buildsDir, name);
    }
    const failed = entries
      .filter((e) => e.isFile() && RECORD.test(e.name))
      .map((e) => e.name.slice(0, -5))
      .filter((id) => !folders.includes(id) && id !== this.current?.id)
      .sort()
      .reverse();
    for (const id of failed.slice(keepBuilds)) await removeBuild(buildsDir, id);
  }

  status() {
    const c = this.current;
    return {
      building: c ? { id: c.id, startedAt: c.startedAt.toISOString(), upToEventId: c.upToEventId, reasons: c.reasons, mode: c.mode ?? null } : null,
      queued: this.pending !== null,
      startedWithoutSite: Boolean(this.startedWithoutSite),
      /** When a failed build is tried again by itself, or null. */
      retryAt: this.retry?.at.toISOString() ?? null,
      live: this.live,
      lastBuild: this.lastBuild,
      counts: { ...this.counts },
      /** The deploy to a bucket (DEPLOY_S3_URL), or null when it is off. */
      deploy: this.deployer?.status() ?? null,
    };
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
      await new Promise((resolve) => this.once('build-start', resolve));
    }
  }

  /**
   * Stops: no new builds; a running build is stopped (its folder is cleaned up at the next start).
   * The changes of a running or waiting publish stay marked (markPending()), so the next start
   * publishes everything and nothing announced is left unpublished.
   */
  async close() {
    this.closing = true;
    if (this.renderers) this.renderers.closed = true;
    this.pending = null;
    this.cancelRetry();
    const c = this.current;
    if (c?.child) killGroup(c.child, 'SIGTERM');
    c?.stop?.();
    await c?.promise;
    await this.renderers?.close();
    await this.deployer?.close();
    // A link tree still being made is finished (the next start removes it).
    await this.ahead?.ready;
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

/** Sortable by time: 20250102T030405678Z-1a2b. */
function buildId() {
  return `${new Date().toISOString().replace(/[-:.]/g, '')}-${randomBytes(2).toString('hex')}`;
}

async function removeBuild(buildsDir, id) {
  await rm(path.join(buildsDir, id), { recursive: true, force: true });
  for (const suffix of ['json', 'log', 'deps.json', 'paths.json']) await rm(path.join(buildsDir, `${id}.${suffix}`), { force: true });
}

/** The site reads the API while it builds: wait for it (e.g. still starting) rather than fail at once. */
async function waitForApi(apiUrl, timeoutMs, cancelled) {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (!cancelled()) {
    try {
      const res = await fetch(`${apiUrl}/api/health`, { signal: AbortSignal.timeout(5000) });
      if (res.ok) {
        const version = (await res.json().catch(() => null))?.contentVersion;
        return { problem: null, contentVersion: Number.isInteger(version) ? version : null };
      }
      last = `HTTP ${res.status}`;
    } catch (error) {
      last = error?.cause?.code ?? error?.message ?? String(error);
    }
    if (Date.now() > deadline) break;
    await delay(500);
  }
  return { problem: `The API at ${apiUrl} did not answer /api/health (${last || 'stopping'}); the build was not started.`, contentVersion: null };
}
