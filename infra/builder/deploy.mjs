// Deploying the live site version to a DeployTarget for a static host or CDN (the first: an
// S3-compatible bucket, s3-target.mjs), then purging the CDN's copies of exactly the addresses that changed.
//
// - Keys are the addresses a visitor asks for: a page `books/3.html` (address `/books/3`) is stored
//   under the key `books/3` with `Content-Type: text/html`, folder indexes keep their name
//   (`index.html`, `ar/index.html`, served for `/` and `/ar/` by S3 website hosting's index
//   document, CloudFront's default root object or an R2 custom domain's rules), everything else
//   (`_astro/…`, `rss.xml`, `sitemap.xml`, `404.html`) under its file name.
// - What the bucket holds is recorded in a manifest beside the site (key → MD5, size, type), split
//   into MANIFEST_SHARDS objects `.deploy-manifest/<nn>.json` by a hash of the key, with a small root
//   `.deploy-manifest.json` (format, build id) written last. The builder reads it once and keeps it;
//   a deploy rewrites only the shards holding a changed key (a one-book edit: a few objects of about
//   60 entries, not 16,000 entries read and written whole at 4,000 books). A deploy compares the
//   version's files with it by content hash and uploads only what differs. When the bucket holds a
//   version this process deployed and the publishes since then say which files they changed, only
//   those are looked at (a one-book edit: a few dozen files, not a stat of 16,000); otherwise every
//   file is, hashes of files kept from the previous version (hard links) reused by inode.
// - Order: everything that is not HTML (hashed assets, images, feeds, the sitemap) first, then the
//   HTML that references them, then the manifest, then the deletes of what the version removed. A
//   deploy cut short anywhere leaves old pages pointing at old assets that are still there (nothing
//   is deleted before every new page is up), and the next attempt picks up from the manifest.
// - Then the purge hook: a signed POST (PURGE_URL), Cloudflare's purge by URL, or a CloudFront
//   invalidation, with the addresses whose answer changed (uploaded or deleted objects).
import { createHash } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { createReadStream, readFileSync } from 'node:fs';
import { readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';

import { sign, SIGNATURE_HEADER } from '@portfolio/contract/webhook';
import { eachLimited } from '@portfolio/site/render/files.mjs';

import { S3Target } from './s3-target.mjs';

/**
 * Where a deploy puts the site: a flat store of objects by key. What it holds is known from the
 * manifest (MANIFEST_KEY), not by listing, so a deploy costs what changed.
 * @typedef {object} DeployTarget
 * @property {string} name  shown in /status and the log (`s3://bucket/prefix/`)
 * @property {(key: string) => Promise<string | null>} get  an object's text, null when there is none
 * @property {(key: string, body: Buffer | string, meta: { contentType: string, cacheControl: string, md5?: string }) => Promise<void>} put
 * @property {(keys: string[]) => Promise<void>} delete  removes the keys in the order given
 * @property {() => void} close
 */

export const MANIFEST_KEY = '.deploy-manifest.json';
/** Where the manifest's shards live: `.deploy-manifest/00.json` … `ff.json`. */
export const MANIFEST_SHARD_PREFIX = '.deploy-manifest/';
const MANIFEST_SHARDS = 256;
/** 1: every entry in the root object (before shards; still read, and rewritten as shards). */
const MANIFEST_FORMAT = 2;

/** Whether a bucket key is the deploy's own bookkeeping rather than a site file. */
export const isManifestKey = (key) => key === MANIFEST_KEY || key.startsWith(MANIFEST_SHARD_PREFIX);

const shardOf = (key) => createHash('md5').update(key).digest()[0] % MANIFEST_SHARDS;
const shardKey = (shard) => `${MANIFEST_SHARD_PREFIX}${shard.toString(16).padStart(2, '0')}.json`;

/**
 * What the target holds (key → { md5, size, type, cacheControl }), as its manifest says, and which
 * shards changed since they were last written.
 */
export class Manifest {
  constructor(buildId = null) {
    this.buildId = buildId;
    /** The root object's text as last read or written: a deploy that finds another one reads the manifest again. */
    this.rootText = null;
    /** One Map (key → entry) per shard. */
    this.shards = Array.from({ length: MANIFEST_SHARDS }, () => new Map());
    this.dirty = new Set();
    /** The version a deploy of this process completed on this manifest (the target holds exactly it), or null. */
    this.deployedHere = null;
  }

  /** `text`: the root object's text when the caller has just read it. */
  static async read(target, text) {
    text = text === undefined ? await target.get(MANIFEST_KEY) : text;
    const root = text === null ? null : JSON.parse(text);
    const m = new Manifest(root?.buildId ?? null);
    m.rootText = text;
    if (root?.format === 1 && root.files && typeof root.files === 'object') {
      // The whole manifest in one object, as before shards: every shard is written at the next flush
      // (empty ones too, so no shard left from an earlier time counts).
      for (const [key, entry] of Object.entries(root.files)) m.set(key, entry);
      for (let i = 0; i < MANIFEST_SHARDS; i++) m.dirty.add(i);
      return m;
    }
    // No manifest (a new bucket, or one written by hand), or shards of another layout: everything is
    // uploaded; nothing is deleted.
    if (root?.format !== MANIFEST_FORMAT || root.shards !== MANIFEST_SHARDS) return m;
    await eachLimited([...m.shards.keys()], 16, async (i) => {
      const body = await target.get(shardKey(i));
      for (const [key, entry] of Object.entries((body === null ? null : JSON.parse(body).files) ?? {})) m.shards[i].set(key, entry);
    });
    return m;
  }

  get(key) {
    return this.shards[shardOf(key)].get(key);
  }

  get size() {
    return this.shards.reduce((n, shard) => n + shard.size, 0);
  }

  *keys() {
    for (const shard of this.shards) yield* shard.keys();
  }

  set(key, entry) {
    const i = shardOf(key);
    this.shards[i].set(key, entry);
    this.dirty.add(i);
  }

  delete(key) {
    const i = shardOf(key);
    if (this.shards[i].delete(key)) this.dirty.add(i);
  }

  /** Writes the changed shards, then the root (when a shard or the build id changed). */
  async flush(target, buildId, concurrency) {
    if (!this.dirty.size && this.buildId === buildId) return;
    await eachLimited([...this.dirty], concurrency, (i) =>
      target.put(shardKey(i), JSON.stringify({ files: Object.fromEntries(this.shards[i]) }), {
        contentType: TYPES.json,
        cacheControl: 'no-store',
      }),
    );
    this.dirty.clear();
    const root = JSON.stringify({ format: MANIFEST_FORMAT, buildId, writtenAt: new Date().toISOString(), shards: MANIFEST_SHARDS });
    await target.put(MANIFEST_KEY, root, { contentType: TYPES.json, cacheControl: 'no-store' });
    this.buildId = buildId;
    this.rootText = root;
  }
}

export const CACHE_IMMUTABLE = 'public, max-age=31536000, immutable';
export const CACHE_REVALIDATE = 'public, max-age=0, must-revalidate';
/** Images and other files with a stable name that is not content-hashed (favicon, uploads' copies): a day, then revalidated. */
export const CACHE_DAY = 'public, max-age=86400, must-revalidate';

const TYPES = {
  html: 'text/html; charset=utf-8',
  xml: 'application/xml; charset=utf-8',
  rss: 'application/rss+xml; charset=utf-8',
  json: 'application/json; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  mjs: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  ico: 'image/x-icon',
  woff: 'font/woff',
  woff2: 'font/woff2',
  webmanifest: 'application/manifest+json',
  map: 'application/json; charset=utf-8',
  pdf: 'application/pdf',
};

/** The bucket key of a site file (relative path with `/`). */
export function keyOfFile(file) {
  if (file.endsWith('.html') && path.posix.basename(file) !== 'index.html' && file !== '404.html') return file.slice(0, -5);
  return file;
}

/** The address a visitor asks for to get a key: `/books/3`, `/`, `/ar/`, `/_astro/x.css`. */
export function addressOfKey(key) {
  if (key === 'index.html') return '/';
  if (key.endsWith('/index.html')) return `/${key.slice(0, -'index.html'.length)}`;
  return `/${key}`;
}

export function contentTypeOf(file) {
  const ext = path.posix.extname(file).slice(1).toLowerCase();
  // The feeds: `rss/news.xml`, `ar/rss/essays.xml` (and a plain `rss.xml`).
  if (ext === 'xml' && /(^|\/)rss(\/|\.xml$)/.test(file)) return TYPES.rss;
  return TYPES[ext] ?? 'application/octet-stream';
}

export function cacheControlOf(file) {
  // Astro's output under _astro/ carries a content hash in every name: it never changes.
  if (file.startsWith('_astro/')) return CACHE_IMMUTABLE;
  const ext = path.posix.extname(file).slice(1).toLowerCase();
  if (['html', 'xml', 'json', 'txt', 'webmanifest'].includes(ext)) return CACHE_REVALIDATE;
  return CACHE_DAY;
}

const isHtml = (file) => file.endsWith('.html');

/**
 * Deploys one folder to `target` (a DeployTarget). `cache`: a Map kept between deploys
 * (file → {ino, size, mtimeMs, md5}); `manifest`: the Manifest of the target as the last deploy left
 * it (read from the target when not given). `changedSince(buildId)`: the files (relative, `/`) in
 * which this version differs from version `buildId`, or null when that is not known; when the last
 * deploy on `manifest` completed such a version, only those files are looked at, not the whole tree.
 * Returns { uploaded, deleted, unchanged, purgePaths, bytes, scanned, ms, timings }. `onPut` (tests,
 * the benchmark) sees each key as it is written.
 */
export async function deployTree({
  target,
  dir,
  buildId,
  cache = new Map(),
  manifest,
  changedSince = () => null,
  concurrency = 8,
  onPut = () => {},
}) {
  const started = performance.now();
  /** Milliseconds from the start to the end of each step. */
  const timings = {};
  const mark = (step) => (timings[step] = Math.round(performance.now() - started));
  manifest ??= await Manifest.read(target);
  mark('manifestMs');
  // The target holds a version this process deployed (nothing failed since: the Deployer reads the
  // manifest again after a failure) and the publishes since then say which files differ: only those are read.
  const changed = manifest.deployedHere ? changedSince(manifest.deployedHere) : null;
  manifest.deployedHere = null;
  const files = changed ? await hashFiles(dir, changed, cache) : await hashTree(dir, cache);
  mark('hashedMs');
  /** key → { file, md5, size, type, cache } */
  const next = new Map();
  for (const [file, f] of files)
    next.set(keyOfFile(file), { file, md5: f.md5, size: f.size, type: contentTypeOf(file), cacheControl: cacheControlOf(file) });
  const uploads = [...next].filter(([key, f]) => {
    const old = manifest.get(key);
    return !old || old.md5 !== f.md5 || old.type !== f.type || old.cacheControl !== f.cacheControl;
  });
  const deletes = changed
    ? [...new Set(changed.map(keyOfFile))].filter((key) => !next.has(key) && manifest.get(key))
    : [...manifest.keys()].filter((key) => !next.has(key));
  const put = async ([key, f]) => {
    await target.put(key, await readFile(path.join(dir, f.file)), { contentType: f.type, cacheControl: f.cacheControl, md5: f.md5 });
    onPut(key);
  };
  // Assets, images, feeds first; the pages that reference them only once all of those are in.
  await eachLimited(
    uploads.filter(([, f]) => !isHtml(f.file)),
    concurrency,
    put,
  );
  await eachLimited(
    uploads.filter(([, f]) => isHtml(f.file)),
    concurrency,
    put,
  );
  mark('uploadedMs');
  // The manifest names what the target holds now: the new files and the old ones not yet deleted,
  // so a deploy cut short before its deletes still deletes them next time.
  for (const [key, f] of uploads) manifest.set(key, { md5: f.md5, size: f.size, type: f.type, cacheControl: f.cacheControl });
  await manifest.flush(target, buildId, concurrency);
  mark('manifestWrittenMs');
  // Pages first, then what they referenced: a deploy cut between batches leaves no page without its asset.
  const isPage = (key) => manifest.get(key)?.type === TYPES.html;
  await target.delete([...deletes.filter(isPage), ...deletes.filter((key) => !isPage(key))]);
  if (deletes.length) {
    for (const key of deletes) manifest.delete(key);
    await manifest.flush(target, buildId, concurrency);
  }
  manifest.deployedHere = buildId;
  const purgePaths = [...new Set([...uploads.map(([key]) => addressOfKey(key)), ...deletes.map(addressOfKey)])].sort();
  return {
    uploaded: uploads.length,
    deleted: deletes.length,
    unchanged: manifest.size - uploads.length,
    /** Files looked at: the changed ones, or every file of the version. */
    scanned: changed ? changed.length : files.size,
    bytes: uploads.reduce((n, [, f]) => n + f.size, 0),
    purgePaths,
    ms: Math.round(performance.now() - started),
    timings,
  };
}

/** Every file under `dir` with its MD5; files whose inode, size and time are cached are not read again. */
async function hashTree(dir, cache) {
  const files = (await readdir(dir, { withFileTypes: true, recursive: true }))
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join('/'));
  const out = await hashFiles(dir, files, cache);
  for (const file of cache.keys()) if (!out.has(file)) cache.delete(file);
  return out;
}

/** `files` (relative to `dir`) that exist, with their MD5, as hashTree. */
async function hashFiles(dir, files, cache) {
  const out = new Map();
  await eachLimited(files, 16, async (file) => {
    const full = path.join(dir, file);
    const s = await stat(full).catch((error) => {
      if (error.code === 'ENOENT') return null;
      throw error;
    });
    if (!s?.isFile()) {
      cache.delete(file);
      return;
    }
    const known = cache.get(file);
    let md5 =
      known && known.ino === s.ino && known.dev === s.dev && known.size === s.size && known.mtimeMs === s.mtimeMs ? known.md5 : null;
    if (!md5) {
      md5 = await md5Of(full);
      cache.set(file, { ino: s.ino, dev: s.dev, size: s.size, mtimeMs: s.mtimeMs, md5 });
    }
    out.set(file, { md5, size: s.size });
  });
  return out;
}

function md5Of(file) {
  return new Promise((resolve, reject) => {
    const hash = createHash('md5');
    createReadStream(file)
      .on('data', (chunk) => hash.update(chunk))
      .on('error', reject)
      .on('end', () => resolve(hash.digest('hex')));
  });
}

/** Cloudflare accepts 30 URLs per purge request (all plans); CloudFront 3,000 paths per invalidation. */
const CLOUDFLARE_BATCH = 30;
const CLOUDFRONT_MAX_PATHS = 3000;

/**
 * Purges the CDN's copies of `paths` (site addresses) with every configured hook. Throws on the
 * first failure (the deploy is then retried, the purge with it).
 */
export async function purge(config, { paths, buildId, log = () => {} }) {
  if (!paths.length) return { purged: 0, hooks: [] };
  const hooks = [];
  if (config.purgeUrl) {
    const body = JSON.stringify({ paths, buildId, sentAt: new Date().toISOString() });
    const res = await fetch(config.purgeUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: sign(config.purgeSecret, body) },
      body,
      signal: AbortSignal.timeout(30_000),
    });
    if (!res.ok) throw new Error(`The purge hook answered HTTP ${res.status}`);
    hooks.push('url');
  }
  if (config.cloudflare) {
    const { zoneId, token, apiUrl, siteUrl } = config.cloudflare;
    for (let i = 0; i < paths.length; i += CLOUDFLARE_BATCH) {
      const files = paths.slice(i, i + CLOUDFLARE_BATCH).map((p) => new URL(p, siteUrl).href);
      const res = await fetch(`${apiUrl}/zones/${encodeURIComponent(zoneId)}/purge_cache`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ files }),
        signal: AbortSignal.timeout(30_000),
      });
      const answer = await res.json().catch(() => null);
      if (!res.ok || answer?.success === false)
        throw new Error(
          `Cloudflare's purge answered HTTP ${res.status}${answer?.errors?.[0]?.message ? `: ${answer.errors[0].message}` : ''}`,
        );
    }
    hooks.push('cloudflare');
  }
  if (config.cloudfront) {
    const { CloudFrontClient, CreateInvalidationCommand } = await import('@aws-sdk/client-cloudfront');
    const { distributionId, endpoint, region, credentials } = config.cloudfront;
    const client = new CloudFrontClient({ region, ...(endpoint ? { endpoint } : {}), ...(credentials ? { credentials } : {}) });
    // More paths than one invalidation takes: the whole distribution (counts as one path in AWS's pricing).
    const items = paths.length > CLOUDFRONT_MAX_PATHS ? ['/*'] : paths.map((p) => encodeURI(p));
    try {
      await client.send(
        new CreateInvalidationCommand({
          DistributionId: distributionId,
          InvalidationBatch: { CallerReference: `${buildId}-${Date.now()}`, Paths: { Quantity: items.length, Items: items } },
        }),
      );
    } finally {
      client.destroy();
    }
    hooks.push('cloudfront');
  }
  log(`purged ${paths.length} addresses (${hooks.join(', ')})`);
  return { purged: paths.length, hooks };
}

/**
 * Deploys the live version after each publish, one deploy at a time: a publish arriving during a
 * deploy makes exactly one follow-up deploy of the newest version; a failed deploy is tried again
 * with growing pauses (and at the next publish), its purge included.
 */
export class Deployer extends EventEmitter {
  /**
   * `stateFile`: where addresses not yet purged survive a stop of the builder (a failed purge, a stop before it).
   * `target`: the DeployTarget (default: the bucket of `config`, DEPLOY_S3_URL).
   * `changedFiles(from, to)`: the files in which version `to` differs from version `from`, or null
   * when not known (SiteVersions.filesBetween): a deploy then looks only at those.
   */
  constructor(config, { log = () => {}, onPut, stateFile = null, target = new S3Target(config), changedFiles = () => null } = {}) {
    super();
    this.changedFiles = changedFiles;
    this.target = target;
    this.stateFile = stateFile;
    this.config = config;
    this.log = log;
    this.onPut = onPut;
    this.cache = new Map();
    /** The target's manifest as the last deploy left it: read once, then kept (dropped when a deploy fails). */
    this.manifest = null;
    /** 'idle' (nothing deployed yet) | 'deploying' | 'deployed' | 'retrying' | 'failed' */
    this.state = 'idle';
    this.next = null; // { id, dir } newest version to deploy
    this.running = null;
    this.lastDeployed = null; // { buildId, at, uploaded, deleted, purged, ms }
    this.lastError = null; // { buildId, at, message }
    this.failuresInRow = 0;
    this.retryAt = null;
    this.retryTimer = null;
    /** Addresses uploaded or deleted but not yet purged (kept across failed attempts). */
    this.pendingPurge = new Set(readPending(stateFile));
    this.closed = false;
    this.counts = { deploys: 0, failed: 0, uploaded: 0, deleted: 0 };
  }

  /** A new version is live: deploy it (now, or after the running deploy). */
  schedule(build) {
    if (this.closed) return;
    this.next = build;
    this.failuresInRow = 0;
    this.cancelRetry();
    if (!this.running) this.running = this.loop();
  }

  async loop() {
    try {
      while (this.next && !this.closed) {
        const build = this.next;
        this.next = null;
        await this.attempt(build);
      }
    } finally {
      this.running = null;
    }
  }

  async attempt(build) {
    this.state = 'deploying';
    this.deploying = build.id;
    try {
      // The manifest is kept between deploys; its small root is read each time, so one deleted or
      // changed by hand (infra/README.md) is read again in full.
      const root = await this.target.get(MANIFEST_KEY);
      if (!this.manifest || this.manifest.rootText !== root) this.manifest = await Manifest.read(this.target, root);
      const r = await deployTree({
        target: this.target,
        dir: build.dir,
        buildId: build.id,
        cache: this.cache,
        manifest: this.manifest,
        changedSince: (base) => this.changedFiles(base, build.id),
        concurrency: this.config.concurrency,
        onPut: this.onPut,
      });
      for (const p of r.purgePaths) this.pendingPurge.add(p);
      const paths = [...this.pendingPurge].sort();
      if (this.stateFile && paths.length) await writeFile(this.stateFile, JSON.stringify({ pendingPurge: paths }));
      const p = await purge(this.config, { paths, buildId: build.id, log: this.log });
      this.pendingPurge.clear();
      if (this.stateFile) await rm(this.stateFile, { force: true });
      this.counts.deploys++;
      this.counts.uploaded += r.uploaded;
      this.counts.deleted += r.deleted;
      this.lastDeployed = {
        buildId: build.id,
        at: new Date().toISOString(),
        uploaded: r.uploaded,
        deleted: r.deleted,
        unchanged: r.unchanged,
        scanned: r.scanned,
        bytes: r.bytes,
        purged: p.purged,
        purgedPaths: paths.slice(0, 100),
        ms: r.ms,
        timings: r.timings,
      };
      this.lastError = null;
      this.failuresInRow = 0;
      this.state = 'deployed';
      this.emit('deploy-end', { ok: true, buildId: build.id, ...this.lastDeployed });
      this.log(
        `deployed ${build.id} to ${this.target.name}: ${r.uploaded} uploaded, ${r.deleted} deleted, ${r.unchanged} unchanged, ${r.scanned} files looked at (${(r.ms / 1000).toFixed(1)} s)`,
      );
    } catch (error) {
      const message = describe(error);
      // What the bucket holds after a failed write is not known for sure: read it again next time.
      this.manifest = null;
      this.counts.failed++;
      this.failuresInRow++;
      this.lastError = { buildId: build.id, at: new Date().toISOString(), message };
      this.emit('deploy-end', { ok: false, buildId: build.id, error: message });
      if (this.closed) return;
      if (this.next) {
        // A newer version is waiting: the loop deploys it next (and with it what this one changed).
        this.log(`deploy of ${build.id} FAILED (${message}); deploying the newer version ${this.next.id} instead`);
        return;
      }
      // Quick tries first (doubling), then one every slowest interval for as long as the bucket
      // fails: a CDN left stale for hours by a long outage would otherwise wait for the next edit.
      const quick = this.failuresInRow <= this.config.retries;
      const delayMs = this.config.retryDelayMs * 2 ** (quick ? this.failuresInRow - 1 : this.config.retries);
      this.retryAt = new Date(Date.now() + delayMs);
      this.state = quick ? 'retrying' : 'failed';
      this.log(
        quick
          ? `deploy of ${build.id} FAILED (${message}); trying again at ${this.retryAt.toISOString()} (${this.failuresInRow} of ${this.config.retries})`
          : `deploy of ${build.id} FAILED (${message}); trying again at ${this.retryAt.toISOString()}, and at the next publish`,
      );
      this.retryTimer = setTimeout(() => {
        this.retryTimer = null;
        this.retryAt = null;
        if (this.closed) return;
        this.next ??= build;
        if (!this.running) this.running = this.loop();
      }, delayMs);
      this.retryTimer.unref();
    } finally {
      this.deploying = null;
    }
  }

  cancelRetry() {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.retryAt = null;
  }

  /** For the builder's GET /status (and the overlay's publishing state). */
  status() {
    return {
      state: this.state,
      target: this.target.name,
      deployingBuildId: this.deploying ?? null,
      retryAt: this.retryAt?.toISOString() ?? null,
      lastDeployed: this.lastDeployed,
      lastError: this.lastError,
      counts: { ...this.counts },
    };
  }

  async close() {
    this.closed = true;
    this.cancelRetry();
    await this.running;
    this.target.close();
  }
}

function readPending(file) {
  if (!file) return [];
  try {
    const paths = JSON.parse(readFileSync(file, 'utf8')).pendingPurge;
    return Array.isArray(paths) ? paths.filter((p) => typeof p === 'string' && p.startsWith('/')) : [];
  } catch {
    return [];
  }
}

function describe(error) {
  const status = error?.$metadata?.httpStatusCode;
  const code = error?.name && error.name !== 'Error' ? error.name : (error?.cause?.code ?? error?.code);
  return `${code ? `${code}: ` : ''}${String(error?.message ?? error).split('\n')[0]}${status ? ` (HTTP ${status})` : ''}`.slice(0, 500);
}
