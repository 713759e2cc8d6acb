// Making a site version through the site's renderer (@portfolio/site/render/renderer.mjs).
//
// - fullPublish: every route rendered (exportSite) into a new folder.
// - targetedPublish: a new folder made of hard links to the live version's files, in which only the
//   routes that read what changed (and added routes) are rendered again, each written under a
//   temporary name and renamed into place, so no byte of the live version is ever written.
//
// Both return the site map that the next targeted publish starts from: per route its file, what it
// read from the API (`books`, `books/3`) and the extra files it needs (image variants). The builder
// keeps it beside the version's folder (`builds/<id>.deps.json`), outside what `live` serves.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { link, mkdir, readdir, readFile, rename, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { exportSite } from '@portfolio/site/render/renderer.mjs';
import { eachLimited, linkOrCopy } from '@portfolio/site/render/files.mjs';

export const SITE_MAP_FORMAT = 1;

/**
 * @typedef {object} MapRoute
 * @property {string} path
 * @property {string} file
 * @property {string[]} deps
 * @property {string[]} files  extra output files (image variants), relative to the site root
 */
/** @typedef {{ format: number, fingerprint: string, routes: MapRoute[] }} SiteMap */

/** The address under which a file of the site is fetched: a route's path, or `/` + the file. */
const urlOf = (byFile) => (file) => byFile.get(file) ?? `/${file}`;

/**
 * Renders every route into `outDir` (which must not hold anything yet). When a previous version is
 * given, also says which addresses were added, changed (bytes differ) or removed against it.
 */
export async function fullPublish({ renderer, fingerprint, outDir, publishId, concurrency, previousDir = null, previousMap = null }) {
  /** @type {Map<string, MapRoute>} */
  const seen = new Map();
  let listed = null;
  // exportSite renders through this stand-in for the running renderer, which notes the image
  // variants each route needs (exportSite reports only what each route read).
  const recording = {
    clientDir: renderer.clientDir,
    routes: async (id) => (listed = await renderer.routes(id)),
    render: async (route, id) => {
      const page = await renderer.render(route, id);
      seen.set(route, { path: route, file: page.file, deps: page.deps, files: page.files.map((f) => f.file) });
      return page;
    },
    stop: async () => {},
  };
  await exportSite({ rendererDir: '', apiUrl: '', outDir, publishId, concurrency, renderer: recording });
  /** @type {SiteMap} */
  const map = {
    format: SITE_MAP_FORMAT,
    fingerprint,
    routes: listed.map((r) => {
      const entry = seen.get(r.path);
      if (!entry) throw new Error(`The export did not render ${r.path}.`);
      return { ...entry, file: r.file };
    }),
  };
  let changes = null;
  let files = null;
  if (previousDir && existsSync(previousDir)) {
    const byFile = new Map([...(previousMap?.routes ?? []), ...map.routes].map((r) => [r.file, r.path]));
    const url = urlOf(byFile);
    // By file first: the files whose bytes differ are what an older version needs to become this one.
    const diff = await diffTrees(previousDir, outDir, (rel) => rel);
    files = [...diff.added, ...diff.changed, ...diff.removed];
    changes = { added: diff.added.map(url).sort(), changed: diff.changed.map(url).sort(), removed: diff.removed.map(url).sort() };
  }
  return { map, rendered: map.routes.length, routes: map.routes.length, changes, files };
}

/**
 * A new version from the live one (`baseDir`, described by `baseMap`): renders the routes that read
 * any of `changes` and the routes the content has gained, removes the routes it has lost, and keeps
 * every other file as a hard link to the live version's. With `basePublishId` (the publish that made
 * the live version, in this renderer) the renderer reads only the changed items, not every
 * collection again (renderer.mjs's Since). `prepareTree` makes `outDir` that tree of
 * links (default: linkTree now; the builder passes one it made beforehand).
 */
export async function targetedPublish({ renderer, baseDir, baseMap, outDir, changes, publishId, basePublishId = null, concurrency, prepareTree = () => linkTree(baseDir, outDir) }) {
  const started = performance.now();
  const timings = {};
  const mark = (name) => (timings[name] = Math.round(performance.now() - started));
  const dirty = new Set();
  for (const c of changes) {
    dirty.add(c.kind);
    dirty.add(`${c.kind}/${c.entityId}`);
  }
  // The link tree is made while the routes are listed; the routes known to read what changed are
  // rendered meanwhile too (their results kept until the listing says which of them still exist).
  const tree = prepareTree().then(() => mark('linkTreeReadyMs'));
  tree.catch(() => {});
  const options = basePublishId ? { since: { base: basePublishId, changes: changes.map((c) => ({ kind: c.kind, entityId: c.entityId })) } } : {};
  const limit = limiter(concurrency);
  const renders = new Map();
  const render = (route) => {
    if (!renders.has(route)) {
      renders.set(
        route,
        limit(() => renderer.render(route, publishId, options)).then(
          (page) => ({ page }),
          (error) => ({ error }),
        ),
      );
    }
    return renders.get(route);
  };
  for (const r of baseMap.routes) if (r.deps.some((d) => dirty.has(d))) render(r.path);
  const settled = () => Promise.all([tree.catch(() => {}), ...renders.values()]);
  let listed;
  try {
    const answer = await renderer.routeChanges(publishId, options.since);
    listed = answer.routes ?? withRouteChanges(baseMap.routes, answer);
  } catch (error) {
    await settled();
    throw error;
  }
  mark('routesListedMs');
  const before = new Map(baseMap.routes.map((r) => [r.path, r]));
  const now = new Set(listed.map((r) => r.path));
  const toRender = listed.filter((r) => {
    const was = before.get(r.path);
    return !was || was.file !== r.file || was.deps.some((d) => dirty.has(d));
  });
  const gone = baseMap.routes.filter((r) => !now.has(r.path));

  const entries = new Map(before);
  const added = [];
  const changed = [];
  const removed = [];
  const sources = new Map();
  const folders = new Set();
  const ensureFolder = async (file) => {
    const folder = path.dirname(file);
    if (folders.has(folder)) return;
    await mkdir(folder, { recursive: true });
    folders.add(folder);
  };
  let treeReady = false;
  /** Files this publish wrote into the tree (renders that differ, new variants); `deleted`: the ones it removed. */
  const written = [];
  const done = eachLimited(toRender, concurrency, async (route) => {
    const { page, error } = await render(route.path);
    if (error) throw error;
    if (page.status !== 200 && !(page.status === 404 && route.file === '404.html')) throw new Error(`Rendering ${route.path} answered ${page.status}.`);
    if (!treeReady) {
      await tree;
      treeReady = true;
    }
    const was = before.get(route.path);
    const target = path.join(outDir, route.file);
    const old = was?.file === route.file ? await readFile(target).catch(() => null) : null;
    if (!old || !old.equals(page.body)) {
      await ensureFolder(target);
      await replaceFile(target, page.body);
      written.push(route.file);
      (old ? changed : added).push(route.path);
    }
    entries.set(route.path, { path: route.path, file: route.file, deps: page.deps, files: page.files.map((f) => f.file) });
    for (const f of page.files) sources.set(f.file, f.source);
  });
  // Nothing of this publish may still run when it returns (a failed one's folder is removed next).
  try {
    await done;
  } finally {
    await settled();
  }
  mark('renderedMs');
  await tree;
  mark('linkTreeMs');

  const liveFiles = new Set(listed.map((r) => entries.get(r.path).file));
  const deleted = [];
  for (const r of gone) {
    entries.delete(r.path);
    if (liveFiles.has(r.file)) continue;
    await rm(path.join(outDir, r.file), { force: true });
    deleted.push(r.file);
    removed.push(r.path);
  }
  // A route whose file changed name leaves its old file behind.
  for (const r of toRender) {
    const was = before.get(r.path);
    if (was && was.file !== r.file && !liveFiles.has(was.file)) {
      await rm(path.join(outDir, was.file), { force: true });
      deleted.push(was.file);
    }
  }

  // Image variants: the ones no route needs any more go, new ones are linked from the image cache.
  const variantsOf = (routes) => new Set(routes.flatMap((r) => r.files));
  const oldVariants = variantsOf(baseMap.routes);
  const routes = listed.map((r) => entries.get(r.path));
  const newVariants = variantsOf(routes);
  for (const file of newVariants) {
    if (oldVariants.has(file)) continue;
    const dest = path.join(outDir, file);
    await ensureFolder(dest);
    await linkOrCopy(sources.get(file), dest);
    written.push(file);
    added.push(`/${file}`);
  }
  for (const file of oldVariants) {
    if (newVariants.has(file)) continue;
    await rm(path.join(outDir, file), { force: true });
    deleted.push(file);
    removed.push(`/${file}`);
  }

  await removeEmptyFolders(outDir, deleted);
  mark('doneMs');

  /** @type {SiteMap} */
  const map = { format: SITE_MAP_FORMAT, fingerprint: baseMap.fingerprint, routes };
  return { map, rendered: toRender.length, routes: routes.length, timings, files: [...written, ...deleted], changes: { added: added.sort(), changed: changed.sort(), removed: removed.sort() } };
}

/** The base version's routes with the added and removed ones, sorted by path as the renderer sorts them. */
function withRouteChanges(baseRoutes, { added, removed }) {
  const gone = new Set(removed);
  const routes = baseRoutes.filter((r) => !gone.has(r.path)).map((r) => ({ path: r.path, file: r.file }));
  if (!added.length) return routes;
  return [...routes, ...added].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * Makes the listed files of `dir` what they are in `source` (a hard link to its file, put in place
 * by rename; deleted where `source` has none), and removes folders left empty. With every file two
 * versions differ in, this turns a folder of the one into a copy of the other.
 */
export async function syncFiles(source, dir, files) {
  const deleted = [];
  await eachLimited(files, 16, async (file) => {
    const from = path.join(source, file);
    const target = path.join(dir, file);
    const [a, b] = await Promise.all([stat(from).catch(() => null), stat(target).catch(() => null)]);
    if (a) {
      // Already the same file: rename() of a link onto its own file would do nothing and leave the temporary name.
      if (b && a.ino === b.ino && a.dev === b.dev) return;
      await mkdir(path.dirname(target), { recursive: true });
      await putInPlace(target, (tmp) => link(from, tmp));
    } else {
      await rm(target, { force: true });
      deleted.push(file);
    }
  });
  await removeEmptyFolders(dir, deleted);
}

/** Folders left empty by deleted files go too (a full export has no empty folders). */
async function removeEmptyFolders(root, files) {
  const folders = new Set();
  for (const file of files) {
    for (let dir = path.dirname(file); dir !== '.' && dir !== path.sep && dir !== ''; dir = path.dirname(dir)) folders.add(dir);
  }
  // Deepest first, so a parent is looked at after its children.
  for (const dir of [...folders].sort((a, b) => b.split('/').length - a.split('/').length)) {
    try {
      await rmdir(path.join(root, dir));
    } catch (error) {
      if (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST' && error.code !== 'ENOENT') throw error;
    }
  }
}

/**
 * Writes under a temporary name, then renames over the target: the old file (maybe a link into the
 * live version) is never written, and a reader never sees the file cut short (the builder's records too).
 */
export function replaceFile(target, body) {
  return putInPlace(target, (tmp) => writeFile(tmp, body));
}

/** Makes `target` by `make(tmp)` under a temporary name beside it, then one rename; the temporary name never stays. */
async function putInPlace(target, make) {
  const tmp = `${target}.tmp-${randomBytes(4).toString('hex')}`;
  try {
    await make(tmp);
    await rename(tmp, target);
  } catch (error) {
    await rm(tmp, { force: true });
    throw error;
  }
}

/**
 * `dest` (which must not exist) as a tree of hard links to `source`'s files: `cp -al` (GNU
 * coreutils: about 0.3 s for 44,000 files here), or the same in JavaScript where cp cannot.
 */
export async function linkTree(source, dest) {
  const viaCp = await new Promise((resolve) => {
    const child = spawn('cp', ['-al', '--', source, dest], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c) => (stderr += c));
    child.once('error', () => resolve(false));
    child.once('close', (code) => resolve(code === 0 || stderr));
  });
  if (viaCp === true) return;
  await rm(dest, { recursive: true, force: true });
  await mkdir(dest, { recursive: true });
  const entries = await readdir(source, { withFileTypes: true, recursive: true });
  for (const e of entries.filter((x) => x.isDirectory())) await mkdir(path.join(dest, path.relative(source, path.join(e.parentPath, e.name))), { recursive: true });
  const files = entries.filter((x) => !x.isDirectory());
  await eachLimited(files, 16, async (e) => {
    const rel = path.relative(source, path.join(e.parentPath, e.name));
    await link(path.join(source, rel), path.join(dest, rel));
  });
}

/** Every file under a folder, relative to it, with its size and inode. */
async function listFiles(dir) {
  const out = new Map();
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  await eachLimited(
    entries.filter((e) => e.isFile()),
    16,
    async (e) => {
      const full = path.join(e.parentPath, e.name);
      const s = await stat(full);
      out.set(path.relative(dir, full).split(path.sep).join('/'), { full, size: s.size, ino: s.ino, dev: s.dev });
    },
  );
  return out;
}

/** What differs between two versions, by address: files added, changed (bytes differ) and removed. */
export async function diffTrees(oldDir, newDir, url) {
  const [a, b] = await Promise.all([listFiles(oldDir), listFiles(newDir)]);
  const added = [];
  const changed = [];
  const removed = [];
  await eachLimited([...b], 8, async ([rel, nf]) => {
    const of = a.get(rel);
    if (!of) return added.push(url(rel));
    if (of.ino === nf.ino && of.dev === nf.dev) return;
    if (of.size !== nf.size || !(await readFile(of.full)).equals(await readFile(nf.full))) changed.push(url(rel));
  });
  for (const rel of a.keys()) if (!b.has(rel)) removed.push(url(rel));
  return { added: added.sort(), changed: changed.sort(), removed: removed.sort() };
}

export async function readSiteMap(file) {
  try {
    const map = JSON.parse(await readFile(file, 'utf8'));
    return map?.format === SITE_MAP_FORMAT && Array.isArray(map.routes) && typeof map.fingerprint === 'string' ? map : null;
  } catch {
    return null;
  }
}

export function writeSiteMap(file, map) {
  // One route a line: readable, and still a single JSON document.
  const lines = map.routes.map((r) => JSON.stringify(r));
  return replaceFile(file, `{"format":${map.format},"fingerprint":${JSON.stringify(map.fingerprint)},"routes":[\n${lines.join(',\n')}\n]}\n`);
}

/** Runs at most `n` of the functions given to the returned one at a time. */
function limiter(n) {
  let running = 0;
  const waiting = [];
  const next = () => {
    if (running >= n || !waiting.length) return;
    running++;
    const { fn, resolve, reject } = waiting.shift();
    Promise.resolve()
      .then(fn)
      .then(resolve, reject)
      .finally(() => {
        running--;
        next();
      });
  };
  return (fn) =>
    new Promise((resolve, reject) => {
      waiting.push({ fn, resolve, reject });
      next();
    });
}
