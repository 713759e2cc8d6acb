// The site's versions on disk: `builds/<id>` folders, the `live` symlink that points at one (switched
// by rename(2), so a visitor sees the old site or the new one, never a half-written mix), the last
// few kept for rollback, and (renderer mode) the next targeted publish's folder linked ahead.
// Everything about a version is in `builds/<id>.json` (its record), `<id>.log`, `<id>.deps.json`
// (the site map) and `<id>.paths.json` (the whole path lists), beside its folder and outside what
// `live` serves.
import { randomBytes } from 'node:crypto';
import { lstat, mkdir, readdir, readFile, readlink, rename, rm, symlink } from 'node:fs/promises';
import path from 'node:path';
import { linkTree, replaceFile } from './site-publish.mjs';

/** A build's own files: `<id>.json` (its record); `<id>.deps.json`, `<id>.paths.json` and `<id>.log` beside it. */
const RECORD = /^[^.]+\.json$/;

/** Sortable by time: 20250102T030405678Z-1a2b. */
export function newVersionId() {
  return `${new Date().toISOString().replace(/[-:.]/g, '')}-${randomBytes(2).toString('hex')}`;
}

export class SiteVersions {
  /** @param {{ siteRoot: string, buildsDir: string, liveLink: string, keepBuilds: number }} config */
  constructor(config, { log }) {
    this.config = config;
    this.log = log;
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
      if (/\.tmp-/.test(e.name) || (!known.has(id) && id !== liveId && (e.isDirectory() || /\.(deps|paths)\.json$/.test(e.name)))) await rm(path.join(buildsDir, e.name), { recursive: true, force: true });
    }
    for (const name of await readdir(siteRoot)) {
      if (name.startsWith('.live-')) await rm(path.join(siteRoot, name), { force: true });
      if (name.startsWith('.next-')) await rm(path.join(siteRoot, name), { recursive: true, force: true });
    }
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
    const folders = entries.filter((e) => e.isDirectory() && !e.name.startsWith('.')).map((e) => e.name).sort().reverse();
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
      .then(() => linkTree(this.dirOf(base), dir))
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

  /** A link tree still being made is finished (the next start removes it). */
  async close() {
    await this.ahead?.ready;
  }
}
