// The site's versions on disk: `builds/<id>` folders, the `live` symlink that points at one (switched
// by rename(2), so a visitor sees the old site or the new one, never a half-written mix), the last
// few kept for rollback, and (renderer mode) the next targeted publish's folder linked ahead.
// Everything about a version is in `builds/<id>.json` (its record), `<id>.log`, `<id>.deps.json`
// (the site map) and `<id>.paths.json` (the whole path lists), beside its folder and outside what
// `live` serves.
import { randomBytes } from 'node:crypto';
import { lstat, mkdir, readdir, readFile, readlink, rename, rm, symlink } from 'node:fs/promises';
import path from 'node:path';

import { linkTree, replaceFile, syncFiles } from './site-publish.mjs';

/** At most this many differing files for an old version to be brought up to date instead of linking the whole tree (recycleInto). */
const MAX_RECYCLED_FILES = 2000;
/** A build's own files: `<id>.json` (its record); `<id>.deps.json`, `<id>.paths.json` and `<id>.log` beside it. */
const RECORD = /^[^.]+\.json$/;

/** Sortable by time: 20250102T030405678Z-1a2b. */
export function newVersionId() {
  return `${new Date().toISOString().replace(/[-:.]/g, '')}-${randomBytes(2).toString('hex')}`;
}

export class SiteVersions {
  /** @param {{ siteRoot: string, buildsDir: string, liveLink: string, keepBuilds: number }} config */
  constructor(config, { log, inUse = () => false }) {
    this.config = config;
    this.log = log;
    /** Whether old versions may be read by someone else now (a deploy): then none is recycled. */
    this.inUse = inUse;
    this.live = null; // record of the version `live` points to
    this.lastBuild = null; // record of the newest finished publish
    // Versions made by this process: only their recorded content version is trusted to skip a request
    // (a version left by an earlier run may come from a database that has since been replaced).
    this.builtHere = new Set();
    /** The site map of the live version, when this process made it in renderer mode (a targeted publish starts from it). */
    this.liveMap = null;
    /** The publish that made the live version ({ id, renderer }) (a targeted publish's renderer reads only what changed since). */
    this.livePublish = null;
    /** Renderer mode: the live version's link tree, made ahead for the next targeted publish (linkAhead). */
    this.ahead = null;
    /** Per version published by this run: the version before it and the files whose bytes differ between the two. */
    this.fileChanges = new Map();
    /** No site was live when this process started: its first publish is the site's first. */
    this.startedWithoutSite = false;
  }

  dirOf(id) {
    return path.join(this.config.buildsDir, id);
  }

  /** Reads what earlier runs left: the live version, the newest record, and cleans up interrupted publishes. */
  async open() {
    const { buildsDir, liveLink, siteRoot } = this.config;
    await mkdir(buildsDir, { recursive: true });
    // A plain folder where the link belongs (e.g. copied in by hand) becomes a kept build.
    const liveStat = await lstat(liveLink).catch(() => null);
    if (liveStat?.isDirectory()) {
      const id = `${newVersionId()}-adopted`;
      await rename(liveLink, this.dirOf(id));
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
    this.startedWithoutSite = !liveId;
    this.live = metas.find((m) => m.id === liveId) ?? (liveId ? { id: liveId, ok: true, upToEventId: null } : null);
    this.lastBuild = metas.at(-1) ?? null;
    const known = new Set(metas.map((m) => m.id));
    for (const e of entries) {
      // Folders (and site maps) without a meta file are builds interrupted by a stop or crash.
      const id = e.name.replace(/\..*$/, '');
      // Files left under a temporary name by a stop mid-write go too.
      if (/\.tmp-/.test(e.name) || (!known.has(id) && id !== liveId && (e.isDirectory() || /\.(deps|paths)\.json$/.test(e.name))))
        await rm(path.join(buildsDir, e.name), { recursive: true, force: true });
    }
    for (const name of await readdir(siteRoot)) {
      if (name.startsWith('.live-')) await rm(path.join(siteRoot, name), { force: true });
      if (name.startsWith('.next-')) await rm(path.join(siteRoot, name), { recursive: true, force: true });
    }
  }

  /**
   * Version `id` went live after `base`, differing from it in `files`. A full publish into an empty
   * folder (`files` unknown) ends the chain: its files are all new, and a version recycled across it
   * would keep the old ones, not links to the live version's. So does 'Publish now' (publishers.mjs).
   */
  noteFiles(id, base, files) {
    if (files && base) this.fileChanges.set(id, { base, files });
    else this.fileChanges.clear();
    while (this.fileChanges.size > 4 * this.config.keepBuilds) this.fileChanges.delete(this.fileChanges.keys().next().value);
  }

  /** The files in which version `to` differs from version `from` (an earlier one), by the publishes between them; null when not known. */
  filesBetween(from, to) {
    const files = new Set();
    for (let at = to; at !== from;) {
      const step = this.fileChanges.get(at);
      if (!step) return null;
      for (const file of step.files) files.add(file);
      at = step.base;
    }
    return [...files];
  }

  async liveId() {
    try {
      return path.basename(await readlink(this.config.liveLink));
    } catch {
      return null;
    }
  }

  /** Points `live` at builds/<id>: a new link under a temporary name, renamed over the old one in one step. */
  async switchLive(id) {
    const tmp = path.join(this.config.siteRoot, `.live-${id}`);
    await rm(tmp, { force: true });
    // Relative, so the same volume works wherever it is mounted (builder, nginx, admin-api).
    await symlink(path.join('builds', id), tmp);
    await rename(tmp, this.config.liveLink);
  }

  /** Keeps the newest successful builds (and the live one) and the records of the newest failures (not `runningId`'s). */
  async prune(runningId) {
    const { buildsDir, keepBuilds } = this.config;
    const liveId = await this.liveId();
    const entries = await readdir(buildsDir, { withFileTypes: true });
    // Not the staging folders of a publish in progress (`.stage-<id>`).
    const folders = entries
      .filter((e) => e.isDirectory() && !e.name.startsWith('.'))
      .map((e) => e.name)
      .sort()
      .reverse();
    const keep = new Set(folders.slice(0, keepBuilds));
    if (liveId) keep.add(liveId);
    for (const name of folders) {
      if (!keep.has(name)) await this.remove(name);
    }
    const failed = entries
      .filter((e) => e.isFile() && RECORD.test(e.name))
      .map((e) => e.name.slice(0, -5))
      .filter((id) => !folders.includes(id) && id !== runningId)
      .sort()
      .reverse();
    for (const id of failed.slice(keepBuilds)) await this.remove(id);
  }

  async remove(id) {
    const { buildsDir } = this.config;
    await rm(path.join(buildsDir, id), { recursive: true, force: true });
    for (const suffix of ['json', 'log', 'deps.json', 'paths.json']) await rm(path.join(buildsDir, `${id}.${suffix}`), { force: true });
  }

  /**
   * The next targeted publish's folder, made while nothing is published: the oldest kept version
   * brought up to date with the live one (recycleInto), or else `cp -al` of every file. Outside
   * `builds/` (the next start removes a leftover). A full publish into an empty folder starts it for
   * its own version (`base`) before it goes live, so an edit right after it does not wait for the copy. Resolves
   * when the folder is made.
   */
  linkAhead(base = this.live.id) {
    if (this.ahead?.base === base && !this.ahead.taken) return this.ahead.ready;
    const dir = path.join(this.config.siteRoot, `.next-${base}`);
    const old = this.ahead;
    const cleared = old ? old.ready.then(() => (old.taken ? undefined : rm(old.dir, { recursive: true, force: true }))) : Promise.resolve();
    const ready = cleared
      .then(async () => {
        if (await this.recycleInto(dir, base)) return 'recycled';
        await linkTree(this.dirOf(base), dir);
        return 'linked ahead';
      })
      .then(
        (how) => how,
        (error) => {
          this.log(`could not link the next publish's folder ahead: ${error.message}`);
          return false;
        },
      );
    this.ahead = { base, dir, ready, taken: false };
    return ready;
  }

  /**
   * Edit → live within 1 s at 20,000 books (infra/bench/README.md) needs this: a new link tree is
   * 84,000 links (`cp -al`, 1.5 s and more) and the prune then unlinks as many, so an edit that
   * follows another waits for them; bringing the oldest kept version up to date touches only the
   * few dozen files the publishes since it changed. Taken only when KEEP_BUILDS versions are kept
   * (the next prune would remove one), as long as at most MAX_RECYCLED_FILES differ and no deploy
   * may be reading the folders; false otherwise (the caller links the whole tree).
   */
  async recycleInto(dir, base) {
    const { buildsDir, keepBuilds } = this.config;
    if (this.inUse()) return false;
    const folders = new Set(
      (await readdir(buildsDir, { withFileTypes: true })).filter((e) => e.isDirectory() && !e.name.startsWith('.')).map((e) => e.name),
    );
    if (folders.size < keepBuilds) return false;
    // The oldest version the recorded publishes lead back to (older ones go with the prune as usual).
    let oldest = null;
    let differing = null;
    const files = new Set();
    for (let at = base, step = this.fileChanges.get(at); step; at = step.base, step = this.fileChanges.get(at)) {
      for (const file of step.files) files.add(file);
      if (files.size > MAX_RECYCLED_FILES) break;
      if (folders.has(step.base)) [oldest, differing] = [step.base, [...files]];
    }
    if (!oldest) return false;
    await rename(this.dirOf(oldest), dir);
    await this.remove(oldest);
    await syncFiles(this.dirOf(base), dir, differing);
    return true;
  }

  /** Moves the folder made ahead for version `base` to `outDir`: how it was made ('recycled', 'linked ahead'), or false when there is none for it. */
  async takeAhead(base, outDir) {
    const ahead = this.ahead;
    const how = ahead && ahead.base === base && !ahead.taken ? await ahead.ready : false;
    if (!how) return false;
    ahead.taken = true;
    this.ahead = null;
    await rename(ahead.dir, outDir);
    return how;
  }

  /** The folder linked ahead for version `id`, which did not go live, goes. */
  async dropAhead(id) {
    const ahead = this.ahead;
    if (ahead?.base !== id || ahead.taken) return;
    this.ahead = null;
    await ahead.ready;
    await rm(ahead.dir, { recursive: true, force: true });
  }

  /** A link tree still being made is finished (the next start removes it). */
  async close() {
    await this.ahead?.ready;
  }
}
