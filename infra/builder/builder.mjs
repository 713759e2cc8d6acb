// The site builder: turns rebuild requests into new site versions.
//
// - Each build runs the site's build command into a new folder `builds/<id>`; the public folder
//   `live` is a symlink that is switched by rename(2), so a visitor sees the old site or the new
//   one, never a half-written mix.
// - A failed build (non-zero exit, timeout, or no index.html) never touches `live`; its log's last
//   lines are reported, and it is tried again a few times with growing pauses.
// - At most one build runs. Requests arriving meanwhile coalesce into exactly one follow-up build,
//   which starts after the running one and so reads every change they announced.
// - The last few successful builds stay on disk for rollback; everything about a build is in
//   `builds/<id>.json` and `builds/<id>.log` beside its folder (outside what `live` serves).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { createWriteStream, existsSync } from 'node:fs';
import { lstat, mkdir, readdir, readFile, readlink, rename, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';

/** Idempotency keys remembered to ignore repeated deliveries (retries after a lost answer). */
const REMEMBERED_KEYS = 1000;
/** The build command's environment: the site has no use for the webhook secret. */
const buildEnv = () => Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('REBUILD_WEBHOOK_SECRET')));

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
      await writeFile(path.join(buildsDir, `${id}.json`), JSON.stringify({ id, ok: true, adopted: true, upToEventId: null }));
      await this.switchLive(id);
    }
    const entries = await readdir(buildsDir, { withFileTypes: true });
    const metas = [];
    for (const e of entries) {
      if (e.isFile() && e.name.endsWith('.json')) {
        try {
          metas.push(JSON.parse(await readFile(path.join(buildsDir, e.name), 'utf8')));
        } catch {
          // A meta file cut short by a crash: its build folder goes with the cleanup below.
        }
      }
    }
    metas.sort((a, b) => a.id.localeCompare(b.id));
    const liveId = await this.liveId();
    this.live = metas.find((m) => m.id === liveId) ?? (liveId ? { id: liveId, ok: true, upToEventId: null } : null);
    this.lastBuild = metas.at(-1) ?? null;
    const known = new Set(metas.map((m) => m.id));
    for (const e of entries) {
      // Folders without a meta file are builds interrupted by a stop or crash.
      if (e.isDirectory() && !known.has(e.name) && e.name !== liveId) await rm(path.join(buildsDir, e.name), { recursive: true, force: true });
    }
    for (const name of await readdir(this.config.siteRoot)) {
      if (name.startsWith('.live-')) await rm(path.join(this.config.siteRoot, name), { force: true });
    }
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
  request({ reason = 'content-changed', idempotencyKey = null, upToEventId = null, changeCount = 0 } = {}) {
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
    const req = { reasons: [reason], upToEventId: typeof upToEventId === 'number' ? upToEventId : null, changeCount: Number(changeCount) || 0 };
    if (this.covers(this.current ?? this.live, req)) {
      this.counts.alreadyLive++;
      this.log(`changes up to #${req.upToEventId} are already in build ${(this.current ?? this.live).id}; nothing to build`);
      return { accepted: true, duplicate: false, coalesced: false, upToDate: true, buildId: null };
    }
    if (this.current) {
      this.counts.coalesced++;
      this.pending = this.pending ? merge(this.pending, req) : req;
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
    // Every new request gets the full number of new tries.
    if (!req.reasons.every((r) => r === 'retry')) this.failuresInRow = 0;
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

  cancelRetry() {
    if (this.retry) clearTimeout(this.retry.timer);
    this.retry = null;
  }

  async run(current, req) {
    const { id } = current;
    const { buildsDir, cacheDir, apiUrl, apiWaitMs, buildCommand, buildCwd, buildTimeoutMs, logTailLines } = this.config;
    const outDir = path.join(buildsDir, id);
    const logFile = path.join(buildsDir, `${id}.log`);
    this.log(`build ${id} started (${current.reasons.join(', ')}${req.changeCount ? `, ${req.changeCount} changes` : ''})`);
    this.emit('build-start', { id });

    let result;
    const api = apiWaitMs > 0 ? await waitForApi(apiUrl, apiWaitMs, () => this.closing) : { problem: null, contentVersion: null };
    const apiProblem = api.problem;
    // The build reads the API after this point, so it contains every change up to this version.
    if (api.contentVersion != null) current.upToEventId = Math.max(current.upToEventId ?? 0, api.contentVersion);
    if (apiProblem) {
      await writeFile(logFile, `${apiProblem}\n`);
      result = { exitCode: null, signal: null, timedOut: false, peakRssBytes: null, tail: [apiProblem] };
    } else {
      await mkdir(outDir, { recursive: true });
      result = await runCommand(buildCommand, {
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

    let error = null;
    if (apiProblem) error = apiProblem;
    else if (result.timedOut) error = `The build took longer than ${Math.round(buildTimeoutMs / 1000)} s and was stopped.`;
    else if (result.exitCode !== 0) error = `The build command failed (${result.signal ? `signal ${result.signal}` : `exit code ${result.exitCode}`}).`;
    else if (!existsSync(path.join(outDir, 'index.html'))) error = 'The build finished but wrote no index.html; the live site was kept.';

    const finishedAt = new Date();
    const meta = {
      id,
      ok: error === null,
      reasons: current.reasons,
      upToEventId: current.upToEventId,
      startedAt: current.startedAt.toISOString(),
      finishedAt: finishedAt.toISOString(),
      durationMs: finishedAt - current.startedAt,
      exitCode: result.exitCode,
      peakRssBytes: result.peakRssBytes,
      error,
      logTail: error ? [...result.tail, error].slice(-logTailLines) : [],
    };
    this.failuresInRow = meta.ok ? 0 : this.failuresInRow + 1;
    if (meta.ok) {
      await this.switchLive(id);
      this.live = meta;
      this.builtHere.add(id);
      this.counts.succeeded++;
      this.log(`build ${id} is live (${(meta.durationMs / 1000).toFixed(1)} s${meta.peakRssBytes ? `, peak ${Math.round(meta.peakRssBytes / 2 ** 20)} MB` : ''})`);
    } else {
      await rm(outDir, { recursive: true, force: true });
      this.counts.failed++;
      // Stopping cuts a build short: that is not a failure worth a block of log lines.
      if (this.closing) this.log(`build ${id} stopped: the builder is stopping`);
      else this.log(`build ${id} FAILED, the live site is unchanged: ${error}\n${meta.logTail.map((l) => `    ${l}`).join('\n')}`);
    }
    await writeFile(path.join(buildsDir, `${id}.json`), JSON.stringify(meta, null, 2));
    this.lastBuild = meta;
    await this.prune().catch((e) => this.log(`could not remove old builds: ${e.message}`));
    this.emit('build-end', meta);
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
    const folders = entries.filter((e) => e.isDirectory()).map((e) => e.name).sort().reverse();
    const keep = new Set(folders.slice(0, keepBuilds));
    if (liveId) keep.add(liveId);
    for (const name of folders) {
      if (!keep.has(name)) await removeBuild(buildsDir, name);
    }
    const failed = entries
      .filter((e) => e.isFile() && e.name.endsWith('.json'))
      .map((e) => e.name.slice(0, -5))
      .filter((id) => !folders.includes(id) && id !== this.current?.id)
      .sort()
      .reverse();
    for (const id of failed.slice(keepBuilds)) await removeBuild(buildsDir, id);
  }

  status() {
    const c = this.current;
    return {
      building: c ? { id: c.id, startedAt: c.startedAt.toISOString(), upToEventId: c.upToEventId, reasons: c.reasons } : null,
      queued: this.pending !== null,
      /** When a failed build is tried again by itself, or null. */
      retryAt: this.retry?.at.toISOString() ?? null,
      live: this.live,
      lastBuild: this.lastBuild,
      counts: { ...this.counts },
    };
  }

  /** Resolves when no build runs and none waits. */
  async whenIdle() {
    while (this.current) await this.current.promise;
  }

  /** Like whenIdle, and also past any scheduled new try of a failed build. */
  async whenSettled() {
    for (;;) {
      await this.whenIdle();
      if (!this.retry) return;
      await new Promise((resolve) => this.once('build-start', resolve));
    }
  }

  /** Stops: no new builds; a running build is stopped (its folder is cleaned up at the next start). */
  async close() {
    this.closing = true;
    this.pending = null;
    this.cancelRetry();
    const c = this.current;
    if (c?.child) killGroup(c.child, 'SIGTERM');
    await c?.promise;
  }
}

function merge(a, b) {
  return {
    reasons: [...a.reasons, ...b.reasons],
    upToEventId: a.upToEventId === null && b.upToEventId === null ? null : Math.max(a.upToEventId ?? 0, b.upToEventId ?? 0),
    changeCount: a.changeCount + b.changeCount,
  };
}

/** Sortable by time: 20250102T030405678Z-1a2b. */
function buildId() {
  return `${new Date().toISOString().replace(/[-:.]/g, '')}-${randomBytes(2).toString('hex')}`;
}

async function removeBuild(buildsDir, id) {
  await rm(path.join(buildsDir, id), { recursive: true, force: true });
  await rm(path.join(buildsDir, `${id}.json`), { force: true });
  await rm(path.join(buildsDir, `${id}.log`), { force: true });
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

function killGroup(child, signal) {
  try {
    process.kill(-child.pid, signal);
  } catch {
    child.kill(signal);
  }
}

/**
 * Runs a shell command in its own process group (so a timeout or stop ends the whole tree:
 * npm, astro, workers), logging to a file and keeping the last lines. Samples the tree's memory.
 */
function runCommand(command, { cwd, env, logFile, timeoutMs, tailLines, onChild }) {
  return new Promise((resolve) => {
    const log = createWriteStream(logFile);
    const tail = [];
    let partial = '';
    const take = (chunk) => {
      log.write(chunk);
      const lines = (partial + chunk.toString('utf8')).split(/\r?\n/);
      partial = lines.pop() ?? '';
      for (const line of lines) pushLine(line);
    };
    const pushLine = (line) => {
      // eslint-disable-next-line no-control-regex
      const clean = line.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '').trimEnd();
      if (!clean) return;
      tail.push(clean.length > 500 ? `${clean.slice(0, 500)}…` : clean);
      if (tail.length > tailLines) tail.shift();
    };

    const child = spawn(command, { cwd, env, shell: true, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    onChild(child);
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child, 'SIGTERM');
      setTimeout(() => killGroup(child, 'SIGKILL'), 5000).unref();
    }, timeoutMs);
    const memory = sampleGroupMemory(child.pid);
    const finish = (exitCode, signal, spawnError) => {
      clearTimeout(timer);
      const peakRssBytes = memory.stop();
      if (partial) pushLine(partial);
      if (spawnError) pushLine(`could not start the build command: ${spawnError.message}`);
      log.end(() => resolve({ exitCode, signal, timedOut, peakRssBytes, tail }));
    };
    child.once('error', (error) => finish(null, null, error));
    child.once('close', (code, signal) => finish(code, signal));
  });
}

/**
 * Peak resident memory of a process group, sampled from /proc every 100 ms (Linux; null elsewhere).
 * A sample can miss a short spike, so this is a close lower bound.
 */
function sampleGroupMemory(pgid) {
  if (process.platform !== 'linux' || !pgid) return { stop: () => null };
  let peak = 0;
  const pageSize = 4096;
  const sample = async () => {
    let total = 0;
    let names;
    try {
      names = await readdir('/proc');
    } catch {
      return;
    }
    for (const name of names) {
      if (!/^\d+$/.test(name)) continue;
      try {
        const stat = await readFile(`/proc/${name}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        // After "pid (comm) ": state ppid pgrp ... ; rss is the 24th field of the whole line.
        if (Number(fields[2]) === pgid) total += Number(fields[21]) * pageSize;
      } catch {
        // The process ended between listing and reading.
      }
    }
    peak = Math.max(peak, total);
  };
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    sample().finally(() => (busy = false));
  }, 100);
  return {
    stop: () => {
      clearInterval(timer);
      return peak || null;
    },
  };
}
