// The site builder: turns rebuild requests into new site versions (publishes). It composes:
// - the request queue (request-queue.mjs): one publish at a time, requests coalesced, failed
//   publishes tried again, catch-up checks against the API;
// - the publisher (publishers.mjs): renderer mode (targeted or full publishes) or command mode;
// - the versions on disk (site-versions.mjs): `builds/<id>`, the `live` link, the kept versions,
//   the next publish's folder linked ahead;
// - the deploy (deploy.mjs, off by default): each version that goes live is also deployed.
// A failed publish (error, timeout, no index.html) never touches `live`; its log's last lines are
// reported.
import { EventEmitter } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

import { countPages } from '@portfolio/contract/webhook';

import { waitForApi } from './api-health.mjs';
import { isSecretName } from './config.mjs';
import { Deployer } from './deploy.mjs';
import { killGroup } from './processes.mjs';
import { CommandPublisher, readsEverything, RendererPublisher } from './publishers.mjs';
import { RendererHost } from './renderers.mjs';
import { INTERRUPTED, RequestQueue } from './request-queue.mjs';
import { replaceFile, writeSiteMap } from './site-publish.mjs';
import { SiteVersions } from './site-versions.mjs';

/** Paths listed per kind (added, changed, removed) in a publish's record and /status; the counts are exact. */
const LISTED_PATHS = 100;
/** The site's environment: it has no use for the webhook secret (nor the deploy's credentials). */
const withoutSecret = (env) => Object.fromEntries(Object.entries(env).filter(([name]) => !isSecretName(name)));
const buildEnv = () => withoutSecret(process.env);

export class SiteBuilder extends EventEmitter {
  constructor(config, { log = (line) => process.stdout.write(`[builder] ${line}\n`) } = {}) {
    super();
    this.config = config;
    this.log = log;
    // A deploy reads the versions' folders: none is recycled meanwhile.
    this.versions = new SiteVersions(config, { log: (line) => this.log(line), inUse: () => Boolean(this.deployer?.running) });
    this.queue = null; // made by init(), once the versions on disk are read
    /** Off by default: with DEPLOY_S3_URL, each version that goes live is also deployed to a bucket (deploy.mjs). */
    this.deployer = config.deploy
      ? new Deployer(config.deploy, {
          log: (line) => this.log(line),
          stateFile: path.join(config.siteRoot, 'deploy-state.json'),
          changedFiles: (from, to) => this.versions.filesBetween(from, to),
        })
      : null;
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
          workers: config.renderWorkers,
          buildTimeoutMs: config.buildTimeoutMs,
          logTailLines: config.logTailLines,
          log: (line) => this.log(line),
        });
    const closing = () => this.closing;
    this.publisher = this.renderers
      ? new RendererPublisher(config, { renderers: this.renderers, versions: this.versions, closing, log: (line) => this.log(line) })
      : new CommandPublisher(config, { env: buildEnv });
  }

  /** Reads what earlier runs left: the live build, the newest build, and cleans up interrupted ones. */
  async init() {
    await mkdir(this.config.cacheDir, { recursive: true });
    /** A request the last run accepted was not live when it stopped (a stop, crash or kill): main.mjs starts a full publish. */
    this.interrupted = existsSync(path.join(this.config.buildsDir, INTERRUPTED));
    await this.versions.open();
    this.queue = new RequestQueue(this.config, {
      versions: this.versions,
      run: (current, req) => this.run(current, req),
      events: this,
      log: (line) => this.log(line),
      interrupted: this.interrupted,
    });
    // A deploy cut short by a stop (or a version made while deploy was off) is caught up at start;
    // when the bucket already holds the live version, nothing is uploaded.
    const liveId = this.versions.live?.id;
    if (this.deployer && liveId) this.deployer.schedule({ id: liveId, dir: this.versions.dirOf(liveId) });
    return this;
  }

  // What the server, main.mjs and the tests read.
  get live() {
    return this.versions.live;
  }
  get lastBuild() {
    return this.versions.lastBuild;
  }
  get builtHere() {
    return this.versions.builtHere;
  }
  get current() {
    return this.queue?.current ?? null;
  }
  get pending() {
    return this.queue?.pending ?? null;
  }
  get retry() {
    return this.queue?.retry ?? null;
  }
  get counts() {
    return this.queue.counts;
  }
  get closing() {
    return this.queue?.closing ?? false;
  }

  /** See RequestQueue.request: answers at once { accepted, duplicate, coalesced, buildId }. */
  request(options) {
    return this.queue.request(options);
  }

  /** See RequestQueue.catchUp: publishes what the live version lacks against the API. */
  catchUp() {
    return this.queue.catchUp();
  }

  /** One publish: asks the API, makes the version's folder, and on success records it and switches `live` to it. */
  async run(current, req) {
    const { id } = current;
    const { buildsDir, apiUrl, apiWaitMs } = this.config;
    const outDir = this.versions.dirOf(id);
    const logFile = path.join(buildsDir, `${id}.log`);
    this.log(`build ${id} started (${current.reasons.join(', ')}${req.changeCount ? `, ${req.changeCount} changes` : ''})`);
    this.emit('build-start', { id });

    let result;
    const api = apiWaitMs > 0 ? await waitForApi(apiUrl, apiWaitMs, () => this.closing) : { problem: null, contentVersion: null };
    const apiProblem = api.problem;
    // A full build reads the API after this point, so it contains every change up to this version.
    // (A targeted publish contains only the changes it was asked for: see RendererPublisher.)
    current.contentVersion = api.contentVersion;
    if (!this.renderers) readsEverything(current);
    if (apiProblem) {
      await writeFile(logFile, `${apiProblem}\n`);
      result = { exitCode: null, signal: null, timedOut: false, tail: [apiProblem] };
    } else {
      result = await this.publisher.publish(current, req, outDir, logFile);
    }
    const meta = this.record(current, result, apiProblem ?? this.failure(result, outDir));
    this.queue.finished(meta);
    if (meta.ok) await this.goLive(meta, result, outDir);
    else await this.discard(meta, outDir);
    this.versions.lastBuild = meta;
    await this.versions.prune(this.current?.id).catch((e) => this.log(`could not remove old builds: ${e.message}`));
    if (meta.ok && this.renderers) this.versions.linkAhead();
    this.emit('build-end', meta);
    return meta;
  }

  /** Why a finished publish failed, or null. */
  failure(result, outDir) {
    if (result.error) return result.error;
    if (result.timedOut) return `The build took longer than ${Math.round(this.config.buildTimeoutMs / 1000)} s and was stopped.`;
    if (result.exitCode !== 0)
      return `The build command failed (${result.signal ? `signal ${result.signal}` : `exit code ${result.exitCode}`}).`;
    if (!existsSync(path.join(outDir, 'index.html'))) return 'The build finished but wrote no index.html; the live site was kept.';
    return null;
  }

  /** The publish's record (`builds/<id>.json`, /status). */
  record(current, result, error) {
    const finishedAt = new Date();
    const paths = result.paths ?? null;
    return {
      id: current.id,
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
      logTail: error ? [...result.tail, error].slice(-this.config.logTailLines) : [],
    };
  }

  async goLive(meta, result, outDir) {
    const { buildsDir } = this.config;
    const { id } = meta;
    const paths = result.paths ?? null;
    // The record first: a crash right after the switch must not leave `live` pointing at a folder the next start removes.
    await replaceFile(path.join(buildsDir, `${id}.json`), JSON.stringify(meta, null, 2));
    await this.versions.switchLive(id);
    // Off the way to live: the next targeted publish starts from the map in memory (one after a
    // restart is full), so these files are the record of the version (and for the CDN's purge).
    // A targeted publish left the live map as it was and says what changed in it.
    const map = result.map ?? (result.mapChanges ? this.versions.liveMap.apply(result.mapChanges) : null);
    if (map)
      await writeSiteMap(path.join(buildsDir, `${id}.deps.json`), map).catch((e) =>
        this.log(`could not write the site map of ${id}: ${e.message}`),
      );
    if (paths)
      await replaceFile(path.join(buildsDir, `${id}.paths.json`), JSON.stringify(paths)).catch((e) =>
        this.log(`could not write the path lists of ${id}: ${e.message}`),
      );
    this.versions.noteFiles(id, this.versions.live?.id, result.files);
    this.versions.live = meta;
    this.queue.wentLive();
    this.versions.liveMap = map;
    this.versions.livePublish = result.publish ?? null;
    if (this.renderers) this.publisher.needsFull = false;
    this.versions.builtHere.add(id);
    const what = paths ? `; ${paths.added.length} added, ${paths.changed.length} changed, ${paths.removed.length} removed` : '';
    this.deployer?.schedule({ id, dir: outDir });
    this.log(`build ${id} is live (${meta.mode}, ${(meta.durationMs / 1000).toFixed(1)} s${what})`);
  }

  async discard(meta, outDir) {
    const { id } = meta;
    await this.versions.dropAhead(id);
    await rm(outDir, { recursive: true, force: true });
    if (this.renderers) this.publisher.needsFull = true;
    // Stopping cuts a build short: that is not a failure worth a block of log lines.
    if (this.closing) this.log(`build ${id} stopped: the builder is stopping`);
    else this.log(`build ${id} FAILED, the live site is unchanged: ${meta.error}\n${meta.logTail.map((l) => `    ${l}`).join('\n')}`);
    await replaceFile(path.join(this.config.buildsDir, `${id}.json`), JSON.stringify(meta, null, 2));
  }

  status() {
    const c = this.current;
    return {
      building: c
        ? { id: c.id, startedAt: c.startedAt.toISOString(), upToEventId: c.upToEventId, reasons: c.reasons, mode: c.mode ?? null }
        : null,
      queued: this.pending !== null,
      startedWithoutSite: Boolean(this.versions.startedWithoutSite),
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
  whenIdle() {
    return this.queue.whenIdle();
  }

  /** Like whenIdle, and also past any scheduled new try of a failed build (not a later catch-up check). */
  whenSettled() {
    return this.queue.whenSettled();
  }

  /**
   * Stops: no new builds; a running build is stopped (its folder is cleaned up at the next start).
   * The changes of a running or waiting publish stay marked (RequestQueue.markPending()), so the
   * next start publishes everything and nothing announced is left unpublished.
   */
  async close() {
    this.queue.close();
    if (this.renderers) this.renderers.closed = true;
    const c = this.current;
    if (c?.child) killGroup(c.child, 'SIGTERM');
    c?.stop?.();
    await c?.promise;
    await this.renderers?.close();
    await this.deployer?.close();
    await this.versions.close();
  }
}
