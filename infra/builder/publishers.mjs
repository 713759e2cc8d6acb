// How a version's folder is made (builder.mjs decides when, and what goes live).
// - Renderer mode (the default): the site's code is built once per code version and kept running
//   (renderers.mjs); a content change re-renders only the routes that read what changed, in a new
//   folder of hard links to the live one (a targeted publish, site-publish.mjs). Everything else
//   is a full publish: the first one, a new code version, 'Publish now', a change list that is
//   missing or cut short, the first publish after a failure or a restart, and the fallback when a
//   targeted publish fails. A full publish renders every route; when the live version is this run's
//   own, with the same code, it does so over the live version's tree (only the pages that differ are
//   written, nothing compared afterwards), else into an empty folder.
// - Command mode (BUILD_COMMAND set): the command builds the whole site into the folder, as a
//   static host's build hook would.
import { randomUUID } from 'node:crypto';
import { appendFile, mkdir, rm } from 'node:fs/promises';

import { runCommand } from './processes.mjs';
import { fullPublish, linkTree, targetedPublish } from './site-publish.mjs';

/** The publish reads all of the content after its API check: it contains every change up to the version seen then. */
export function readsEverything(current) {
  if (current.contentVersion != null) current.upToEventId = Math.max(current.upToEventId ?? 0, current.contentVersion);
}

/** Command mode: the whole site from BUILD_COMMAND. */
export class CommandPublisher {
  /** @param {{ cacheDir: string, apiUrl: string, buildCommand: string, buildCwd: string, buildTimeoutMs: number, logTailLines: number }} config */
  constructor(config, { env }) {
    this.config = config;
    this.env = env;
  }

  async publish(current, req, outDir, logFile) {
    const { cacheDir, apiUrl, buildCommand, buildCwd, buildTimeoutMs, logTailLines } = this.config;
    await mkdir(outDir, { recursive: true });
    return runCommand(buildCommand, {
      cwd: buildCwd,
      env: {
        ...this.env(),
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
}

/** Renderer mode: a targeted publish when the request allows it, otherwise (and when it fails) a full one. */
export class RendererPublisher {
  /**
   * @param {{ buildTimeoutMs: number, logTailLines: number, renderConcurrency: number }} config
   * @param {object} o
   * @param {import('./renderers.mjs').RendererHost} o.renderers
   * @param {import('./site-versions.mjs').SiteVersions} o.versions
   * @param {() => boolean} o.closing
   */
  constructor(config, { renderers, versions, closing, log }) {
    this.config = config;
    this.renderers = renderers;
    this.versions = versions;
    this.closing = closing;
    this.log = log;
    /** Set after a failed publish: the changes it carried are not live, so the next publish is a full one. */
    this.needsFull = false;
  }

  /** Why a request needs a full publish, or null when a targeted one can serve it (`fingerprint`: the site's code version now). */
  fullReason(req, fingerprint) {
    const { live, builtHere, liveMap } = this.versions;
    if (!req.reasons.every((r) => r === 'content-changed')) return [...new Set(req.reasons)].join(', ');
    if (live?.fingerprint && live.fingerprint !== fingerprint.slice(0, 16)) return "the site's code or configuration changed";
    if (!req.changes) return 'the request does not list its changes';
    if (req.changesTruncated) return 'the change list is cut short';
    if (this.needsFull) return 'the previous publish failed';
    if (!live || !builtHere.has(live.id)) return 'no live version made by this run of the builder';
    if (!liveMap) return 'the live version has no site map';
    return null;
  }

  /**
   * The whole publish is bounded by BUILD_TIMEOUT_MS: past it, the renderer (or its build) is
   * stopped, which fails whatever still waits on it.
   */
  async publish(current, req, outDir, logFile) {
    const { buildTimeoutMs, logTailLines } = this.config;
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
      if (why) readsEverything(current);
      const { fingerprint, renderer, built } = await this.renderers.ensure(note, fingerprintNow);
      details.fingerprint = fingerprint.slice(0, 16);
      if (built != null) details.rendererBuildMs = built;
      if (!why && this.versions.liveMap.fingerprint !== fingerprint) why = "the site's code or configuration changed";
      // Every route again, over the live version's tree (only differing pages written), when that
      // tree is this run's own work with this code: else into an empty folder.
      const overLive = Boolean(why) && this.liveIsOwn(fingerprint);
      if (!why || overLive) {
        if (overLive) {
          details.fullReason = why;
          details.overLive = true;
          say(`full publish over the live version: ${why}`);
        }
        try {
          const result = await this.targeted(current, req, outDir, renderer, details, overLive);
          if (timedOut) throw new Error('timed out');
          return result;
        } catch (error) {
          if (this.closing()) throw error;
          if (timedOut) throw error;
          // Every route was rendered from content read afresh: a page that fails would fail again.
          if (overLive && error?.renderFailed) throw error;
          const was = overLive ? 'full publish over the live version' : 'targeted publish';
          say(`the ${was} failed (${error?.message ?? error}); the live site is unchanged, publishing everything instead`);
          details.fallbackFrom = { mode: overLive ? 'full-over-live' : 'targeted', error: String(error?.message ?? error).slice(0, 500) };
          delete details.overLive;
          delete details.tree;
          await this.renderers.discard();
          await rm(outDir, { recursive: true, force: true });
          why = `fallback after the ${was} failed`;
        }
      }
      current.mode = 'full';
      readsEverything(current);
      details.fullReason = why;
      say(`full publish: ${why}`);
      const result = await this.full(current, outDir, note, details);
      if (timedOut) throw new Error('timed out');
      return result;
    } catch (error) {
      // A renderer that failed may be hung or broken: the next publish starts a new one.
      await this.renderers.discard();
      const message = timedOut ? null : String(error?.message ?? error);
      if (message) for (const line of message.split('\n')) note(line);
      for (const line of error?.tail ?? []) note(line);
      return {
        mode: current.mode,
        exitCode: timedOut ? null : 1,
        timedOut,
        error: timedOut ? null : message.split('\n')[0],
        tail: lines.slice(-logTailLines),
        details,
      };
    } finally {
      clearTimeout(timer);
      current.stop = null;
      await appendFile(logFile, lines.length ? `${lines.join('\n')}\n` : '').catch(() => {});
    }
  }

  /**
   * Whether the live version is a tree this run of the builder made with the site's code as it is
   * now (`fingerprint`), described by its site map: a full publish may then render over it.
   */
  liveIsOwn(fingerprint) {
    const { live, builtHere, liveMap } = this.versions;
    return Boolean(live && builtHere.has(live.id) && liveMap?.fingerprint === fingerprint && live.fingerprint === fingerprint.slice(0, 16));
  }

  /**
   * Only the routes that read what changed, in a tree of links to the live version; with
   * `everything`, every route, reading all content afresh (a full publish over the live version).
   */
  async targeted(current, req, outDir, renderer, details, everything = false) {
    const { live, liveMap, livePublish } = this.versions;
    current.mode = everything ? 'full' : 'targeted';
    const publishId = randomUUID();
    const baseDir = this.versions.dirOf(live.id);
    const r = await targetedPublish({
      renderer,
      baseDir,
      baseMap: liveMap,
      outDir,
      prepareTree: async () => {
        details.tree = (await this.versions.takeAhead(live.id, outDir)) || 'linked now';
        if (details.tree === 'linked now') await linkTree(baseDir, outDir);
      },
      changes: req.changes ?? [],
      publishId,
      basePublishId: !everything && livePublish?.renderer === renderer ? livePublish.id : null,
      concurrency: this.config.renderConcurrency,
      everything,
    });
    return {
      mode: current.mode,
      exitCode: 0,
      publish: { id: publishId, renderer },
      mapChanges: r.mapChanges,
      paths: r.changes,
      // 'Publish now' checks everything once more: the copy in a bucket is compared file by file
      // next (deploy.mjs), as after a publish into an empty folder.
      files: everything && req.reasons.includes('publish-now') ? null : r.files,
      tail: [],
      details: { ...details, routes: r.routes, rendered: r.rendered, timings: r.timings },
    };
  }

  /** Every route, into an empty folder; the next publish's folder is linked ahead while it is compared with the live one. */
  async full(current, outDir, note, details) {
    const { live, liveMap } = this.versions;
    const { fingerprint, renderer } = await this.renderers.ensure(note);
    const previousDir = live ? this.versions.dirOf(live.id) : null;
    const publishId = randomUUID();
    let linked;
    const rendered = () => (linked = this.versions.linkAhead(current.id));
    const full = await fullPublish({
      renderer,
      fingerprint,
      outDir,
      publishId,
      concurrency: this.config.renderConcurrency,
      previousDir,
      previousMap: liveMap,
      rendered,
    });
    await linked;
    return {
      mode: 'full',
      exitCode: 0,
      publish: { id: publishId, renderer },
      map: full.map,
      paths: full.changes,
      tail: [],
      details: { ...details, routes: full.routes, rendered: full.rendered, slowest: full.slowest },
    };
  }
}
