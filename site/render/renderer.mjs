// The site's one renderer, for full and targeted publishes alike.
//
// The site's code is built once per code version as an Astro server bundle (buildRenderer); a
// child process runs that bundle and renders any route on demand (startRenderer), reporting what
// each render read from the API (`books`, `books/3`) and the extra files it needs (image variants).
// A full export (exportSite, also what `npm run build -w site` does) is nothing but every route
// rendered through the same render(), so a full publish and a targeted one give the same bytes.
//
// Plain ESM JavaScript with JSDoc: the builder (infra/builder) imports it as it is.
import { fork, spawn } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, mkdir, readdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { eachLimited, linkOrCopy } from './files.mjs';

/** The site workspace (this file is in site/render/). */
export const SITE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const REPO_ROOT = path.resolve(SITE_DIR, '..');
const WORKER = path.join(SITE_DIR, 'render', 'worker.mjs');
const ASTRO_BIN = path.join(
  path.dirname(createRequire(path.join(SITE_DIR, 'package.json')).resolve('astro/package.json')),
  'bin',
  'astro.mjs',
);

/**
 * SITE_* variables that say where things are, not what the site shows: they do not change the
 * rendered bytes, so they are not part of the code fingerprint. Every other SITE_* variable is.
 */
const PLACE_VARIABLES = new Set([
  'SITE_API_URL',
  'SITE_OUT_DIR',
  'SITE_CACHE_DIR',
  'SITE_RENDERER_DIR',
  'SITE_DEPS_FILE',
  'SITE_RENDER_ONLY',
]);

/**
 * @typedef {object} Route
 * @property {string} path  The address: `/`, `/books`, `/books/3`, `/sitemap.xml`.
 * @property {string} file  Its file in the site, as `build.format: 'file'` names it: `index.html`, `books.html`, `books/3.html`, `sitemap.xml`.
 */
/**
 * @typedef {object} OutputFile
 * @property {string} file    Where it is published, relative to the site root (`_astro/cover-1-600x900-360w.1a2b3c4d5e.webp`).
 * @property {string} source  The absolute path of its bytes (in the image cache folder).
 */
/**
 * @typedef {object} Rendered
 * @property {string} path
 * @property {string} file      The route's output file (also for a 404: the file a removed item leaves behind).
 * @property {number} status    200 for a page that exists; 404 for an item (or reviews page) the content no longer has.
 * @property {Buffer | null} body  The bytes; null when they went to a file (`output`).
 * @property {boolean} [written]  With `output`: whether the bytes were written to `output.file` (false: `output.sameAs` holds them already).
 * @property {string[]} deps    What the render read, sorted: collections (`books`) and items (`books/3`).
 * @property {OutputFile[]} files Extra output files the page needs (image variants), sorted by file.
 */
/**
 * @typedef {object} Since  What a publish changes on top of an earlier one (the live version's):
 *   the renderer then reads only the changed items of the collections it read for that publish, not
 *   whole collections again. Every render and the route listing of the publish carry the same one.
 * @property {string} base  The publish id of the earlier publish.
 * @property {{ kind: string, entityId: number }[]} changes  Every item changed since (a content kind and id; `settings` is always read afresh).
 */
/**
 * @typedef {object} Output  Where a render's bytes go instead of back to the caller: the renderer
 *   process writes them itself (large pages do not cross the IPC channel), whatever the status.
 * @property {string} file  Written with the bytes (its folder must exist).
 * @property {string | null} [sameAs]  A file that may hold the same bytes already (the live version's): then nothing is written.
 */
/**
 * @typedef {object} Renderer
 * @property {string} clientDir  Static assets every site version includes as they are: `_astro/` (scripts, styles, fonts) and `public/` files.
 * @property {(publishId: string) => Promise<Route[]>} routes  Every route the content has at this publish, sorted by path.
 * @property {(publishId: string, since?: Since) => Promise<({ routes: Route[] } | { added: Route[], removed: string[] }) & { dirty?: string[] }>} routeChanges  The same; for a publish that builds on the one this renderer listed last (`since.base`), only the routes added (sorted) and the paths removed since. With `since`, also `dirty`: the reads finer than a collection (`near:books/3`, `category:essays/poetry`) whose value changed.
 * @property {(path: string, publishId: string | null, options?: { overrides?: Record<string, unknown>, since?: Since, output?: Output }) => Promise<Rendered>} render  Renders one route. Rejects when the render fails (API unreachable or answering an error, a page error) and for an address no page of the site has. `overrides` (a preview): API answers by path (`/api/books`) used instead of the API's; such a render shares no answers with a publish. `since`: see Since. `output`: see Output.
 * @property {() => Promise<void>} stop
 */

/**
 * Builds the site's code (Astro server build) into `outDir`, a folder per code version; its
 * `client/` and `server/` are what startRenderer runs. Rejects with the build log's last lines.
 * Astro empties `outDir` first: never pass the folder of a running renderer. One build at a time
 * per checkout (Astro keeps its own caches in the site folder).
 *
 * @param {object} options
 * @param {string} options.outDir
 * @param {NodeJS.ProcessEnv} [options.env]  The build's whole environment (default process.env): SITE_URL and the SITE_* texts are built in.
 * @param {number} [options.logTailLines]
 * @returns {Promise<{ outDir: string, clientDir: string, durationMs: number }>}
 */
export async function buildRenderer({ outDir, env = process.env, logTailLines = 30 }) {
  const dir = path.resolve(outDir);
  const started = Date.now();
  const { code, signal, tail } = await runLogged(process.execPath, [ASTRO_BIN, 'build'], {
    cwd: SITE_DIR,
    env: { ...env, SITE_RENDERER_DIR: dir, SITE_RENDER_ONLY: '1', ASTRO_TELEMETRY_DISABLED: '1' },
    tailLines: logTailLines,
  });
  if (code !== 0)
    throw withTail(
      new Error(`The renderer build failed (${signal ? `signal ${signal}` : `exit code ${code}`}):\n${tail.join('\n')}`),
      tail,
    );
  if (!existsSync(path.join(dir, 'server', 'entry.mjs')))
    throw withTail(new Error(`The renderer build wrote no server/entry.mjs in ${dir}:\n${tail.join('\n')}`), tail);
  return { outDir: dir, clientDir: path.join(dir, 'client'), durationMs: Date.now() - started };
}

/**
 * A hex hash of everything besides content that changes the rendered output: the site's sources,
 * public files, renderer and configuration, the lockfile, @portfolio/contract's build, the SITE_*
 * variables of its build (SITE_URL, …; the author's details are data: GET /api/settings) and the Node version (dates are
 * formatted with its Intl data). Same inputs, same hash; a different hash calls for a new
 * buildRenderer and a full export.
 *
 * @param {object} [options]
 * @param {NodeJS.ProcessEnv} [options.env]  default process.env
 * @returns {Promise<string>}
 */
export async function codeFingerprint({ env = process.env } = {}) {
  const hash = createHash('sha256');
  const inputs = [
    path.join(SITE_DIR, 'src'),
    path.join(SITE_DIR, 'public'),
    path.join(SITE_DIR, 'render'),
    path.join(SITE_DIR, 'astro.config.mjs'),
    path.join(SITE_DIR, 'package.json'),
    path.join(SITE_DIR, 'tsconfig.json'),
    path.join(REPO_ROOT, 'package-lock.json'),
    path.join(REPO_ROOT, 'admin-api', 'contract', 'package.json'),
    path.join(REPO_ROOT, 'admin-api', 'contract', 'dist'),
  ];
  for (const input of inputs) {
    for (const file of await filesUnder(input)) {
      hash.update(`file ${path.relative(REPO_ROOT, file)}\0`);
      hash.update(await readFile(file));
      hash.update('\0');
    }
  }
  for (const name of Object.keys(env)
    .filter((n) => n.startsWith('SITE_') && !PLACE_VARIABLES.has(n))
    .sort()) {
    hash.update(`env ${name}=${env[name]}\0`);
  }
  hash.update(`node ${process.version}\0`);
  return hash.digest('hex');
}

/** Files under a path (or the path itself), sorted; tests and specs do not change the output. */
async function filesUnder(target) {
  let entries;
  try {
    entries = await readdir(target, { withFileTypes: true, recursive: true });
  } catch (error) {
    if (error.code === 'ENOTDIR') return [target];
    if (error.code === 'ENOENT') return [];
    throw error;
  }
  return entries
    .filter((e) => e.isFile() && !/\.(spec|test)\.[cm]?[jt]sx?$/.test(e.name) && !e.parentPath.split(path.sep).includes('node_modules'))
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
}

/**
 * Starts a renderer: `workers` child processes (bounded memory each) running the server bundle in
 * `rendererDir`, reading content from `apiUrl` and keeping image variants in `cacheDir`. Use one per
 * code version. Renders go to the worker with the fewest in flight; the first one lists the routes.
 *
 * Each call carries a publish id: the API's answers are fetched once per publish id and reused by
 * every render with that id; a new id reads the API again.
 *
 * @param {object} options
 * @param {string} options.rendererDir  A folder made by buildRenderer.
 * @param {string} options.apiUrl
 * @param {string} [options.cacheDir]   Kept between publishes (image variants); default SITE_CACHE_DIR or site/node_modules/.astro.
 * @param {NodeJS.ProcessEnv} [options.env]  The renderer's environment (default process.env); use the one the renderer was built with.
 * @param {number} [options.workers]  Renderer processes (default 1).
 * @param {number} [options.maxMemoryMb]  Each child's JavaScript heap limit (default 512).
 * @param {readonly string[]} [options.nodeFlags]  More Node flags for the children (the builder's: infra/node-flags.mjs, NODE_FLAGS.renderer).
 * @param {number} [options.timeoutMs]  A render that takes longer fails (default 120 s).
 * @param {(line: string) => void} [options.log]  The children's output lines (default: to stderr).
 * @returns {Promise<Renderer>}
 */
export async function startRenderer({ workers = 1, ...options }) {
  const dir = path.resolve(options.rendererDir);
  if (!existsSync(path.join(dir, 'server', 'entry.mjs')))
    throw new Error(`No renderer in ${dir} (server/entry.mjs is missing): run buildRenderer first.`);
  const started = await Promise.allSettled(Array.from({ length: Math.max(1, workers) }, () => startWorker({ ...options, dir })));
  const children = started.filter((s) => s.status === 'fulfilled').map((s) => s.value);
  const failed = started.find((s) => s.status === 'rejected');
  if (failed) {
    await Promise.all(children.map((c) => c.stop()));
    throw failed.reason;
  }
  // One worker that stopped stops the renderer: the builder then starts a new one.
  const stopped = () => children.find((c) => c.exited());
  const ask = (child, ...args) => {
    const dead = stopped();
    if (dead) {
      const { code, signal } = dead.exited();
      return Promise.reject(new Error(`The renderer process has stopped (${signal ?? `exit code ${code}`}).`));
    }
    return child.ask(...args);
  };
  // While the first process lists a publish's routes, renders go to the others: the listing (an
  // edit of a site of 20,000 books waits on its 80,000 routes) is not slowed by the renders started
  // beside it (the edit's /books, home …).
  let listings = 0;
  const idlest = () =>
    (listings && children.length > 1 ? children.slice(1) : children).reduce((a, b) => (b.inFlight() < a.inFlight() ? b : a));
  // The first process lists the routes of every publish. Another one may render nothing in a
  // publish: at its next render it is told all that changed since the last publish it took part in,
  // so it still reads only the changed items (or, where that is unknown, reads afresh).
  const chain = new Map();
  const seen = children.map(() => ({ publishId: null, since: undefined }));
  const sinceFor = (child, publishId, since) => {
    const s = seen[children.indexOf(child)];
    if (s.publishId === publishId) return s.since;
    const last = s.publishId;
    s.publishId = publishId;
    s.since = since;
    if (!since || last === null || last === since.base) return since;
    const changes = [...since.changes];
    for (let at = since.base, steps = 0; at !== last; steps++) {
      const link = chain.get(at);
      if (!link || steps >= CHAIN_LENGTH) return since;
      changes.push(...link.changes);
      at = link.base;
    }
    return (s.since = { base: last, changes });
  };

  return {
    clientDir: path.join(dir, 'client'),
    async routes(publishId) {
      return (await this.routeChanges(publishId)).routes;
    },
    async routeChanges(publishId, since) {
      chain.set(String(publishId), since ?? null);
      while (chain.size > CHAIN_LENGTH) chain.delete(chain.keys().next().value);
      const first = children[0];
      listings++;
      let reply;
      try {
        reply = await ask(first, 'routes', '/', publishId, since ? { since: sinceFor(first, String(publishId), since) } : {});
      } finally {
        listings--;
      }
      if (reply.status !== 200) throw new Error(`Listing the routes answered ${reply.status}.`);
      return JSON.parse(Buffer.from(reply.body).toString('utf8'));
    },
    async render(route, publishId, options = {}) {
      const child = idlest();
      const since = options.overrides || publishId == null ? options.since : sinceFor(child, String(publishId), options.since);
      const reply = await ask(child, 'render', route, publishId, { ...options, ...(since ? { since } : {}) });
      return {
        path: route,
        file: reply.file,
        status: reply.status,
        body: reply.body ? Buffer.from(reply.body.buffer, reply.body.byteOffset, reply.body.byteLength) : null,
        ...(options.output ? { written: reply.written } : {}),
        deps: reply.deps,
        files: reply.files,
      };
    },
    async stop() {
      await Promise.all(children.map((c) => c.stop()));
    },
  };
}

/** Publishes whose changes the renderer remembers (as site/src/lib/api.ts does). */
const CHAIN_LENGTH = 64;

/** One renderer child process: ask() sends it a job and answers its reply. */
async function startWorker({
  dir,
  apiUrl,
  cacheDir,
  env = process.env,
  maxMemoryMb = 512,
  nodeFlags = [],
  timeoutMs = 120_000,
  log = (line) => process.stderr.write(`[renderer] ${line}\n`),
}) {
  const child = fork(WORKER, [], {
    cwd: SITE_DIR,
    env: {
      ...env,
      SITE_RENDERER_DIR: dir,
      SITE_API_URL: apiUrl,
      SITE_CACHE_DIR: path.resolve(cacheDir ?? env.SITE_CACHE_DIR ?? path.join(SITE_DIR, 'node_modules', '.astro')),
      ASTRO_TELEMETRY_DISABLED: '1',
      // React's server renderer picks its build from NODE_ENV: the development one is several times slower.
      NODE_ENV: 'production',
    },
    execArgv: [`--max-old-space-size=${maxMemoryMb}`, ...nodeFlags],
    serialization: 'advanced',
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  const tail = [];
  const take = lineReader((line) => {
    tail.push(line);
    if (tail.length > 30) tail.shift();
    log(line);
  });
  child.stdout.on('data', take);
  child.stderr.on('data', take);

  let exited = null;
  const exitedPromise = new Promise((resolve) => child.once('exit', (code, signal) => resolve((exited = { code, signal }))));
  const pending = new Map();
  let nextId = 0;
  /** @type {Promise<void>} */
  const ready = new Promise((resolve, reject) => {
    child.once('error', reject);
    child.on('message', (/** @type {any} */ message) => {
      if (message?.type === 'ready') return resolve();
      const job = pending.get(message?.id);
      if (!job) return;
      pending.delete(message.id);
      clearTimeout(job.timer);
      if (message.ok) job.resolve(message);
      else job.reject(new Error(`${job.what} failed: ${message.error}`));
    });
    exitedPromise.then(({ code, signal }) => {
      const error = new Error(`The renderer process stopped (${signal ? `signal ${signal}` : `exit code ${code}`}):\n${tail.join('\n')}`);
      reject(error);
      for (const job of pending.values()) {
        clearTimeout(job.timer);
        job.reject(error);
      }
      pending.clear();
    });
  });
  await ready;

  // A publish's Since (up to 2,000 changes) goes to the process once, with its first job of that
  // publish; its next jobs say it has it, so a burst of additions does not send it with every page.
  let sinceSent = null;
  const ask = (op, route, publishId, { overrides, since, output } = {}) =>
    new Promise((resolve, reject) => {
      if (exited) return reject(new Error(`The renderer process has stopped (${exited.signal ?? `exit code ${exited.code}`}).`));
      const id = ++nextId;
      const what = op === 'routes' ? 'Listing the routes' : `Rendering ${route}`;
      const expire = () => {
        pending.delete(id);
        reject(new Error(`${what} took longer than ${Math.round(timeoutMs / 1000)} s.`));
      };
      const job = { resolve, reject, timer: setTimeout(expire, timeoutMs), what };
      pending.set(id, job);
      const ofPublish = Boolean(since) && !overrides && publishId != null;
      const known = ofPublish && sinceSent === String(publishId);
      if (ofPublish) sinceSent = String(publishId);
      child.send(
        {
          id,
          op,
          path: route,
          publishId: String(publishId ?? ''),
          ...(overrides ? { overrides } : {}),
          ...(known ? { sinceKnown: true } : since ? { since } : {}),
          ...(output ? { output } : {}),
        },
        (error) => {
          if (!error || !pending.has(id)) return;
          pending.delete(id);
          clearTimeout(job.timer);
          reject(error);
        },
      );
    });

  return {
    ask,
    inFlight: () => pending.size,
    exited: () => exited,
    async stop() {
      if (!exited) {
        child.kill('SIGTERM');
        await exitedPromise;
      }
    },
  };
}

/**
 * A full static export through render(): every route's file, the client assets and the image
 * variants, written into `outDir` (an existing folder is written into, not emptied). Rejects if any
 * route fails to render; the folder is then incomplete and must not go live.
 *
 * @param {object} options
 * @param {string} options.rendererDir
 * @param {string} options.outDir
 * @param {string} options.apiUrl
 * @param {string} [options.cacheDir]
 * @param {string} [options.publishId]  default: a new one (reads the API afresh)
 * @param {number} [options.concurrency]  Renders in flight (default 8).
 * @param {NodeJS.ProcessEnv} [options.env]  As for startRenderer.
 * @param {Renderer} [options.renderer]  A running renderer to use (it is left running); by default one is started and stopped.
 * @param {(line: string) => void} [options.log]  As for startRenderer.
 * @returns {Promise<{ routes: number, deps: Record<string, string[]> }>}  deps: what each route read, by path.
 */
export async function exportSite({ rendererDir, outDir, apiUrl, cacheDir, publishId = randomUUID(), concurrency = 8, env, renderer, log }) {
  const own = !renderer;
  const r = renderer ?? (await startRenderer({ rendererDir, apiUrl, cacheDir, env, ...(log ? { log } : {}) }));
  try {
    const out = path.resolve(outDir);
    await mkdir(out, { recursive: true });
    await cp(r.clientDir, out, { recursive: true });
    const routes = await r.routes(publishId);
    const deps = {};
    const placed = new Set();
    const folders = new Set();
    const ensureFolder = async (file) => {
      const folder = path.dirname(file);
      if (!folders.has(folder)) {
        await mkdir(folder, { recursive: true });
        folders.add(folder);
      }
    };
    await eachLimited(routes, concurrency, async (route) => {
      const target = path.join(out, route.file);
      await ensureFolder(target);
      // The renderer writes the file itself; a failed export's folder is discarded as a whole.
      const page = await r.render(route.path, publishId, { output: { file: target } });
      // The 404 page is answered with its own status; every other listed route must exist.
      if (page.status !== 200 && !(page.status === 404 && route.file === '404.html'))
        throw new Error(`Rendering ${route.path} answered ${page.status}.`);
      deps[route.path] = page.deps;
      for (const extra of page.files) {
        if (placed.has(extra.file)) continue;
        placed.add(extra.file);
        const dest = path.join(out, extra.file);
        await ensureFolder(dest);
        await linkOrCopy(extra.source, dest);
      }
    });
    return {
      routes: routes.length,
      deps: Object.fromEntries(
        Object.keys(deps)
          .sort()
          .map((p) => [p, deps[p]]),
      ),
    };
  } finally {
    if (own) await r.stop();
  }
}

function lineReader(onLine) {
  let partial = '';
  return (chunk) => {
    const lines = (partial + chunk.toString('utf8')).split(/\r?\n/);
    partial = lines.pop() ?? '';
    for (const line of lines) {
      // eslint-disable-next-line no-control-regex
      const clean = line.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '').trimEnd();
      if (clean) onLine(clean);
    }
  };
}

function runLogged(command, args, { cwd, env, tailLines }) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const tail = [];
    const take = lineReader((line) => {
      tail.push(line.length > 500 ? `${line.slice(0, 500)}…` : line);
      if (tail.length > tailLines) tail.shift();
    });
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.once('error', reject);
    child.once('close', (code, signal) => resolve({ code, signal, tail }));
  });
}

function withTail(error, tail) {
  error.tail = tail;
  return error;
}
