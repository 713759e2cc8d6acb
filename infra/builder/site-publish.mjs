// Making a site version through the site's renderer (@portfolio/site/render/renderer.mjs).
//
// - fullPublish: every route rendered (exportSite) into a new folder.
// - targetedPublish: a new folder made of hard links to the live version's files, in which only the
//   routes that read what changed (and added routes) are rendered again, each written under a
//   temporary name and renamed into place, so no byte of the live version is ever written. With
//   `everything`, every route is (a full publish over the live version).
//
// Both return the site map that the next targeted publish starts from: per route its file, what it
// read from the API (`books`, `books/3`) and the extra files it needs (image variants). The builder
// keeps it beside the version's folder (`builds/<id>.deps.json`), outside what `live` serves.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { link, mkdir, open, readdir, rename, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';

import { eachLimited, linkOrCopy } from '@portfolio/site/render/files.mjs';
import { exportSite } from '@portfolio/site/render/renderer.mjs';
import pLimit from 'p-limit';

export const SITE_MAP_FORMAT = 1;

/**
 * @typedef {object} MapRoute
 * @property {string} path
 * @property {string} file
 * @property {string[]} deps
 * @property {string[]} files  extra output files (image variants), relative to the site root
 */
/** @typedef {{ put: MapRoute[], drop: string[] }} MapChanges  What a targeted publish changed in the site map: routes rendered, paths gone. */

/**
 * The site map of a version, kept by the builder for the next targeted publish: per route its file,
 * what it read and its extra files, with indexes, so that a publish of a site of 84,000 routes costs
 * what its changes touch (the routes that read `books/3`, the variants no route uses any more), not a
 * pass over every route.
 */
export class SiteMap {
  /** @param {string} fingerprint  @param {Iterable<MapRoute>} [routes] */
  constructor(fingerprint, routes = []) {
    this.format = SITE_MAP_FORMAT;
    this.fingerprint = fingerprint;
    /** @type {Map<string, MapRoute>} */
    this.byPath = new Map();
    /** @type {Map<string, Set<string>>} the paths that read each dependency (`books`, `books/3`) */
    this.byDep = new Map();
    /** @type {Map<string, string>} the path whose output each file is */
    this.byFile = new Map();
    /** @type {Map<string, number>} how many routes use each extra file */
    this.variants = new Map();
    /** @type {Map<string, string>} */
    this.names = new Map();
    for (const r of routes) this.put(r);
  }

  get size() {
    return this.byPath.size;
  }

  get(path) {
    return this.byPath.get(path);
  }

  /** The routes, in the order they were last put. */
  routes() {
    return this.byPath.values();
  }

  /** The paths whose routes read any of `deps`. */
  readersOf(deps) {
    const out = new Set();
    for (const dep of deps) for (const p of this.byDep.get(dep) ?? []) out.add(p);
    return out;
  }

  /** Adds a route, or replaces the one at its path. */
  put(route) {
    this.drop(route.path);
    // Most routes show no image variant: they share one empty list.
    const r = {
      path: route.path,
      file: route.file,
      deps: route.deps.map((d) => this.dep(d)),
      files: route.files.length ? route.files : NO_FILES,
    };
    this.byPath.set(r.path, r);
    for (const d of r.deps) this.byDep.get(d).add(r.path);
    this.byFile.set(r.file, r.path);
    for (const f of r.files) this.variants.set(f, (this.variants.get(f) ?? 0) + 1);
  }

  /** Removes the route at `path`, if any. */
  drop(path) {
    const r = this.byPath.get(path);
    if (!r) return;
    this.byPath.delete(path);
    for (const d of r.deps) this.byDep.get(d)?.delete(path);
    if (this.byFile.get(r.file) === path) this.byFile.delete(r.file);
    for (const f of r.files) {
      const n = (this.variants.get(f) ?? 1) - 1;
      if (n > 0) this.variants.set(f, n);
      else this.variants.delete(f);
    }
  }

  /** The one string of a dependency's name (84,000 routes read `settings`), with its index entry. */
  dep(name) {
    let one = this.names.get(name);
    if (one === undefined) {
      this.names.set(name, (one = name));
      this.byDep.set(name, new Set());
    }
    return one;
  }

  /** This map with a targeted publish's changes applied (it is changed in place). */
  apply({ put, drop }) {
    for (const p of drop) this.drop(p);
    for (const r of put) this.put(r);
    return this;
  }
}
const NO_FILES = Object.freeze([]);

/** The address under which a file of the site is fetched: a route's path, or `/` + the file. */
const urlOf = (byFile) => (file) => byFile.get(file) ?? `/${file}`;

/**
 * Renders every route into `outDir` (which must not hold anything yet). When a previous version is
 * given, also says which addresses were added, changed (bytes differ) or removed against it.
 * `rendered()` is called once every file is in `outDir`, before that comparison.
 */
export async function fullPublish({
  renderer,
  fingerprint,
  outDir,
  publishId,
  concurrency,
  previousDir = null,
  previousMap = null,
  rendered = () => {},
}) {
  /** @type {Map<string, MapRoute>} */
  const seen = new Map();
  /** The slowest renders (path, ms), for the publish's record: what a failing or slow publish waits on. */
  const slowest = [];
  let listed = null;
  // exportSite renders through this stand-in for the running renderer, which notes the image
  // variants each route needs (exportSite reports only what each route read).
  const recording = {
    clientDir: renderer.clientDir,
    routes: async (id) => (listed = await renderer.routes(id)),
    render: async (route, id, options) => {
      const started = performance.now();
      const page = await renderer.render(route, id, options);
      slowest.push({ path: route, ms: Math.round(performance.now() - started) });
      slowest.sort((a, b) => b.ms - a.ms).splice(SLOWEST_KEPT);
      seen.set(route, { path: route, file: page.file, deps: page.deps, files: page.files.map((f) => f.file) });
      return page;
    },
    stop: async () => {},
  };
  await exportSite({ rendererDir: '', apiUrl: '', outDir, publishId, concurrency, renderer: recording });
  rendered();
  const map = new SiteMap(
    fingerprint,
    listed.map((r) => {
      const entry = seen.get(r.path);
      if (!entry) throw new Error(`The export did not render ${r.path}.`);
      return { ...entry, file: r.file };
    }),
  );
  let changes = null;
  if (previousDir && existsSync(previousDir)) {
    const byFile = new Map([...(previousMap?.byFile ?? []), ...map.byFile]);
    const url = urlOf(byFile);
    changes = await diffTrees(previousDir, outDir, url);
  }
  return { map, rendered: map.size, routes: map.size, changes, slowest };
}
const SLOWEST_KEPT = 3;

/**
 * A new version from the live one (`baseDir`, described by `baseMap`): renders the routes that read
 * any of `changes` and the routes the content has gained, removes the routes it has lost, and keeps
 * every other file as a hard link to the live version's. With `basePublishId` (the publish that made
 * the live version, in this renderer) the renderer reads only the changed items, not every
 * collection again (renderer.mjs's Since). `prepareTree` makes `outDir` that tree of links
 * (default: linkTree now; the builder passes one that may be linked ahead).
 *
 * With `everything`, every route is rendered again, reading all content afresh (no `basePublishId`):
 * a full publish over the live version's tree, in which only the pages whose bytes differ are
 * written, so no comparison of two trees is needed after it.
 *
 * `baseMap` is left as it is; the answer's `mapChanges` make it the new version's (SiteMap.apply),
 * which the caller does once the version is live.
 */
export async function targetedPublish({
  renderer,
  baseDir,
  baseMap,
  outDir,
  changes,
  publishId,
  basePublishId = null,
  concurrency,
  everything = false,
  prepareTree = () => linkTree(baseDir, outDir),
}) {
  if (everything && basePublishId) throw new Error('A publish of every route reads everything afresh: it has no base publish.');
  const started = performance.now();
  const timings = {};
  const mark = (name) => (timings[name] = Math.round(performance.now() - started));
  // The link tree is made while the routes are listed; the routes known to read what changed are
  // rendered meanwhile too (their results kept until the listing says which of them still exist).
  const tree = prepareTree().then(() => mark('linkTreeReadyMs'));
  tree.catch(() => {});
  const options = basePublishId
    ? { since: { base: basePublishId, changes: changes.map((c) => ({ kind: c.kind, entityId: c.entityId })) } }
    : {};
  const renders = await stageRenders({ renderer, publishId, options, baseDir, baseMap, outDir, concurrency });
  const readers = everything ? new Set(baseMap.byPath.keys()) : baseMap.readersOf(changedDeps(changes));
  // Every route: rendered as they are placed, a few at a time (not 84,000 renders waiting at once).
  if (!everything) for (const p of readers) renders.render(p);
  const settled = () => renders.settle(tree);
  let listing;
  try {
    listing = await listRouteChanges(renderer, publishId, options.since, baseMap);
  } catch (error) {
    await settled();
    throw error;
  }
  mark('routesListedMs');
  // Pages that show what changed through a read finer than a collection (an item's neighbours, a
  // category's archive); a publish that cannot say what changed since the live version (no base in
  // this renderer) renders all of them.
  const dirty = options.since ? listing.dirty : [...baseMap.byDep.keys()].filter((dep) => DERIVED_DEP.test(dep));
  for (const p of baseMap.readersOf(dirty)) if (!readers.has(p) && !listing.gonePaths.has(p)) readers.add(p);
  if (!everything) for (const p of readers) if (!listing.gonePaths.has(p)) renders.render(p);
  const { toRender, gone } = routesToRender(readers, listing, baseMap);
  let placed;
  // Nothing of this publish may still run when it returns (a failed one's folder is removed next).
  try {
    placed = await placeRenderedRoutes({ toRender, renders, tree, baseMap, outDir, concurrency });
  } finally {
    await settled();
  }
  mark('renderedMs');
  await tree;
  mark('linkTreeMs');
  const replaced = await removeReplacedFiles({ outDir, baseMap, gone, gonePaths: listing.gonePaths, put: placed.put });
  const variants = await updateVariants({
    outDir,
    baseMap,
    gone,
    gonePaths: listing.gonePaths,
    put: placed.put,
    sources: placed.sources,
    ensureFolder: placed.ensureFolder,
  });
  // Every route was rendered: the tree is made to hold exactly what a full export holds, whatever
  // else the live version's folder had come to hold.
  const tidied = everything
    ? await tidyTree({ outDir, clientDir: renderer.clientDir, put: placed.put, sources: placed.sources, ensureFolder: placed.ensureFolder })
    : { linked: [], deleted: [] };
  const deleted = [...replaced.deleted, ...variants.deleted, ...tidied.deleted];
  await removeEmptyFolders(outDir, deleted);
  mark('doneMs');

  const routes = baseMap.size - gone.length + [...listing.fresh.keys()].filter((p) => !baseMap.get(p)).length;
  return {
    mapChanges: { put: placed.put, drop: gone.map((r) => r.path) },
    rendered: toRender.length,
    routes,
    timings,
    changes: {
      added: [...placed.added, ...variants.added, ...tidied.linked.map((f) => `/${f}`)].sort(),
      changed: placed.changed.sort(),
      removed: [...replaced.removed, ...variants.removed, ...tidied.deleted.map((f) => `/${f}`)].sort(),
    },
    /** The files this publish wrote or removed: all that differ from the live version's (SiteVersions.recycleInto). */
    files: [...placed.written, ...variants.linked, ...tidied.linked, ...deleted],
  };
}

/** Reads derived from a collection or the settings (site/src/lib/api.ts derivedChanges): `near:books/3`, `category:essays/poetry`, `settings:url`. */
const DERIVED_DEP = /^(near|category|settings):/;

/**
 * The dependencies a change list touches: each kind (its lists) and each item (`books/3`). Reads
 * derived from a list (`near:books/3`) are not named by a change: the route listing says which changed.
 */
function changedDeps(changes) {
  const dirty = new Set();
  for (const c of changes) {
    dirty.add(c.kind);
    dirty.add(`${c.kind}/${c.entityId}`);
  }
  return dirty;
}

/**
 * Renders routes at most `concurrency` at a time, each once. The renderer writes each page that
 * differs from the live version's file into a staging folder beside `outDir` (the new tree may not
 * be ready yet); it is renamed into place from there. `settle(tree)` waits for all and removes it.
 */
async function stageRenders({ renderer, publishId, options, baseDir, baseMap, outDir, concurrency }) {
  const stageDir = path.join(path.dirname(outDir), `.stage-${path.basename(outDir)}`);
  await mkdir(stageDir, { recursive: true });
  let staged = 0;
  const limit = pLimit(concurrency);
  const renders = new Map();
  const render = (route) => {
    if (!renders.has(route)) {
      const was = baseMap.get(route);
      const output = { file: path.join(stageDir, String(++staged)), sameAs: was ? path.join(baseDir, was.file) : null };
      renders.set(
        route,
        limit(() => renderer.render(route, publishId, { ...options, output })).then(
          (page) => ({ page, output }),
          (error) => ({ error: Object.assign(error, { renderFailed: true }) }),
        ),
      );
    }
    return renders.get(route);
  };
  const settle = async (tree) => {
    await Promise.all([tree.catch(() => {}), ...renders.values()]);
    await rm(stageDir, { recursive: true, force: true });
  };
  /** A render whose result was placed: not held any longer (renders not placed are still waited for by `settle`). */
  const placed = (route) => renders.delete(route);
  return { render, settle, placed };
}

/** What the content's routes are now against `baseMap`: routes new or whose file changed (path → file), and paths gone. */
async function listRouteChanges(renderer, publishId, since, baseMap) {
  const fresh = new Map();
  const gonePaths = new Set();
  const answer = await renderer.routeChanges(publishId, since);
  if (answer.routes) {
    // The whole list (the renderer read everything afresh): the difference from it.
    const now = new Set();
    for (const r of answer.routes) {
      now.add(r.path);
      if (baseMap.get(r.path)?.file !== r.file) fresh.set(r.path, r.file);
    }
    for (const r of baseMap.routes()) if (!now.has(r.path)) gonePaths.add(r.path);
  } else {
    for (const p of answer.removed) gonePaths.add(p);
    for (const r of answer.added) {
      gonePaths.delete(r.path);
      if (baseMap.get(r.path)?.file !== r.file) fresh.set(r.path, r.file);
    }
  }
  return { fresh, gonePaths, dirty: answer.dirty ?? [] };
}

/** The routes to render (the readers of what changed that still exist, then the fresh ones) and the routes gone. */
function routesToRender(readers, { fresh, gonePaths }, baseMap) {
  /** @type {{ path: string, file: string }[]} */
  const toRender = [];
  for (const p of readers) if (!gonePaths.has(p) && !fresh.has(p)) toRender.push({ path: p, file: baseMap.get(p).file });
  for (const [p, file] of fresh) toRender.push({ path: p, file });
  const gone = [...gonePaths].map((p) => baseMap.get(p)).filter(Boolean);
  return { toRender, gone };
}

/**
 * Puts each rendered route's page into the tree once it is ready: renamed over the linked file when
 * its bytes differ, a new file for a new route (or a link to its old file when the bytes are the same).
 */
async function placeRenderedRoutes({ toRender, renders, tree, baseMap, outDir, concurrency }) {
  /** @type {MapRoute[]} */
  const put = [];
  const added = [];
  const changed = [];
  const sources = new Map();
  /** Files put into the tree (renders that differ, new routes' files). */
  const written = [];
  const folders = new Set();
  const ensureFolder = async (file) => {
    const folder = path.dirname(file);
    if (folders.has(folder)) return;
    await mkdir(folder, { recursive: true });
    folders.add(folder);
  };
  let treeReady = false;
  await eachLimited(toRender, concurrency, async (route) => {
    const { page, output, error } = await renders.render(route.path);
    if (error) throw error;
    renders.placed(route.path);
    if (page.status !== 200 && !(page.status === 404 && route.file === '404.html'))
      throw Object.assign(new Error(`Rendering ${route.path} answered ${page.status}.`), { renderFailed: true });
    if (!treeReady) {
      await tree;
      treeReady = true;
    }
    const was = baseMap.get(route.path);
    const target = path.join(outDir, route.file);
    if (was?.file === route.file) {
      // Unchanged bytes stay the live version's file (already linked in the tree).
      if (page.written) {
        await rename(output.file, target);
        written.push(route.file);
        changed.push(route.path);
      }
    } else {
      await ensureFolder(target);
      // Bytes the renderer found identical to the route's old file (now under another name) are that file.
      if (page.written) await rename(output.file, target);
      else await putInPlace(target, (tmp) => link(output.sameAs, tmp));
      written.push(route.file);
      added.push(route.path);
    }
    put.push({ path: route.path, file: route.file, deps: page.deps, files: page.files.map((f) => f.file) });
    for (const f of page.files) sources.set(f.file, f.source);
  });
  return { put, added, changed, written, sources, ensureFolder };
}

/** Files of routes that are gone or renamed go, unless a route of the new version has that file. */
async function removeReplacedFiles({ outDir, baseMap, gone, gonePaths, put }) {
  const putFiles = new Map(put.map((r) => [r.file, r.path]));
  const replaced = new Set(put.map((r) => r.path));
  const stillUsed = (file) => {
    if (putFiles.has(file)) return true;
    const owner = baseMap.byFile.get(file);
    return owner !== undefined && !gonePaths.has(owner) && !replaced.has(owner);
  };
  const deleted = [];
  const removed = [];
  for (const r of gone) {
    if (stillUsed(r.file)) continue;
    await rm(path.join(outDir, r.file), { force: true });
    deleted.push(r.file);
    removed.push(r.path);
  }
  for (const r of put) {
    const was = baseMap.get(r.path);
    if (was && was.file !== r.file && !stillUsed(was.file)) {
      await rm(path.join(outDir, was.file), { force: true });
      deleted.push(was.file);
    }
  }
  return { deleted, removed };
}

/**
 * After a publish of every route over an earlier version's tree: files that are not the site's
 * client files, a route's file or a variant a route shows are removed, and a variant a route shows
 * that is missing is linked again from the image cache.
 */
async function tidyTree({ outDir, clientDir, put, sources, ensureFolder }) {
  const expected = new Set();
  for (const e of await readdir(clientDir, { withFileTypes: true, recursive: true })) {
    if (!e.isDirectory()) expected.add(path.relative(clientDir, path.join(e.parentPath, e.name)).split(path.sep).join('/'));
  }
  const variants = new Set();
  for (const r of put) {
    expected.add(r.file);
    for (const f of r.files) variants.add(f);
  }
  const linked = [];
  const deleted = [];
  const present = new Set();
  for (const e of await readdir(outDir, { withFileTypes: true, recursive: true })) {
    if (e.isDirectory()) continue;
    const file = path.relative(outDir, path.join(e.parentPath, e.name)).split(path.sep).join('/');
    if (expected.has(file) || variants.has(file)) present.add(file);
    else {
      await rm(path.join(outDir, file), { force: true });
      deleted.push(file);
    }
  }
  for (const file of variants) {
    if (present.has(file) || !sources.has(file)) continue;
    const dest = path.join(outDir, file);
    await ensureFolder(dest);
    await linkOrCopy(sources.get(file), dest);
    linked.push(file);
  }
  return { linked, deleted };
}

/** Image variants: the ones no route needs any more go, new ones are linked from the image cache. */
async function updateVariants({ outDir, baseMap, gone, gonePaths, put, sources, ensureFolder }) {
  const uses = new Map();
  const count = (files, by) => {
    for (const f of files) uses.set(f, (uses.get(f) ?? baseMap.variants.get(f) ?? 0) + by);
  };
  for (const r of gone) count(r.files, -1);
  for (const r of put) {
    const was = baseMap.get(r.path);
    if (was && !gonePaths.has(r.path)) count(was.files, -1);
    count(r.files, 1);
  }
  const added = [];
  const removed = [];
  const linked = [];
  const deleted = [];
  for (const [file, n] of uses) {
    const before = baseMap.variants.get(file) ?? 0;
    if (n > 0 && before === 0) {
      const dest = path.join(outDir, file);
      await ensureFolder(dest);
      await linkOrCopy(sources.get(file), dest);
      linked.push(file);
      added.push(`/${file}`);
    } else if (n <= 0 && before > 0) {
      await rm(path.join(outDir, file), { force: true });
      deleted.push(file);
      removed.push(`/${file}`);
    }
  }
  return { added, removed, linked, deleted };
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
 * coreutils), or the same in JavaScript where cp cannot.
 */
export async function linkTree(source, dest) {
  if (await cpLinks(source, dest)) return;
  await rm(dest, { recursive: true, force: true });
  await mkdir(dest, { recursive: true });
  const entries = await readdir(source, { withFileTypes: true, recursive: true });
  for (const e of entries.filter((x) => x.isDirectory()))
    await mkdir(path.join(dest, path.relative(source, path.join(e.parentPath, e.name))), { recursive: true });
  const files = entries.filter((x) => !x.isDirectory());
  await eachLimited(files, 16, async (e) => {
    const rel = path.relative(source, path.join(e.parentPath, e.name));
    await link(path.join(source, rel), path.join(dest, rel));
  });
}

/** `cp -al -- source dest`: true when it succeeded. */
function cpLinks(source, dest) {
  return new Promise((resolve) => {
    const child = spawn('cp', ['-al', '--', source, dest], { stdio: ['ignore', 'ignore', 'ignore'] });
    child.once('error', () => resolve(false));
    child.once('close', (code) => resolve(code === 0));
  });
}

/** A folder's files and folders (name → whether it is a folder); none when `dir` is not a folder. */
async function entriesOf(dir) {
  const out = new Map();
  let entries = [];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    if (error.code !== 'ENOENT' && error.code !== 'ENOTDIR') throw error;
  }
  for (const e of entries) if (e.isFile() || e.isDirectory()) out.set(e.name, e.isDirectory());
  return out;
}

/**
 * What differs between two versions, by address: files added, changed (bytes differ) and removed.
 * A folder at a time, each pair of files read into blocks the next pair reuses: the builder holds
 * one folder's names and a few blocks, not the 84,000 files of each version at 20,000 books (the
 * 700 MB budget of a full publish at that size needs it: 750 MB → 634 MB).
 */
export async function diffTrees(oldDir, newDir, url) {
  const added = [];
  const changed = [];
  const removed = [];
  const blocks = [];
  const compare = async (rel) => {
    const [of, nf] = await Promise.all([stat(path.join(oldDir, rel)), stat(path.join(newDir, rel))]);
    if (of.ino === nf.ino && of.dev === nf.dev) return;
    const pair = blocks.pop() ?? [Buffer.allocUnsafeSlow(COMPARE_BLOCK), Buffer.allocUnsafeSlow(COMPARE_BLOCK)];
    try {
      if (of.size !== nf.size || !(await sameBytes(path.join(oldDir, rel), path.join(newDir, rel), of.size, pair))) changed.push(url(rel));
    } finally {
      blocks.push(pair);
    }
  };
  // `rel`: a folder in the old version, the new one, or both.
  const walk = async (rel, inOld, inNew) => {
    const [a, b] = await Promise.all([
      inOld ? entriesOf(path.join(oldDir, rel)) : new Map(),
      inNew ? entriesOf(path.join(newDir, rel)) : new Map(),
    ]);
    const inside = (name) => (rel ? `${rel}/${name}` : name);
    const both = [];
    const folders = new Map();
    for (const [name, isFolder] of b) {
      if (isFolder) folders.set(name, [a.get(name) === true, true]);
      else if (a.get(name) === false) both.push(inside(name));
      else added.push(url(inside(name)));
    }
    for (const [name, wasFolder] of a) {
      if (wasFolder && b.get(name) !== true) folders.set(name, [true, false]);
      else if (!wasFolder && b.get(name) !== false) removed.push(url(inside(name)));
    }
    await eachLimited(both, 8, compare);
    for (const [name, [old, now]] of folders) await walk(inside(name), old, now);
  };
  await walk('', true, true);
  return { added: added.sort(), changed: changed.sort(), removed: removed.sort() };
}

const COMPARE_BLOCK = 1 << 16;

/** Whether two files of `size` bytes hold the same bytes, read a block at a time into `pair`. */
async function sameBytes(fileA, fileB, size, [blockA, blockB]) {
  const fa = await open(fileA);
  try {
    const fb = await open(fileB);
    try {
      for (let at = 0; at < size; at += COMPARE_BLOCK) {
        const length = Math.min(COMPARE_BLOCK, size - at);
        const [ra, rb] = await Promise.all([fa.read(blockA, 0, length, at), fb.read(blockB, 0, length, at)]);
        if (ra.bytesRead !== length || rb.bytesRead !== length || blockA.compare(blockB, 0, length, 0, length) !== 0) return false;
      }
      return true;
    } finally {
      await fb.close();
    }
  } finally {
    await fa.close();
  }
}

/**
 * Writes the site map as `<id>.deps.json`: one route a line (readable, and still a single JSON
 * document), a few thousand lines a write, so the 10 MB of a site of 20,000 books are never one string.
 */
export function writeSiteMap(file, map) {
  return putInPlace(file, async (tmp) => {
    const fh = await open(tmp, 'w');
    try {
      let text = `{"format":${map.format},"fingerprint":${JSON.stringify(map.fingerprint)},"routes":[`;
      let first = true;
      for (const r of map.routes()) {
        text += `${first ? '' : ','}\n${JSON.stringify(r)}`;
        first = false;
        if (text.length >= 1 << 18) {
          await fh.write(text);
          text = '';
        }
      }
      await fh.write(`${text}\n]}\n`);
    } finally {
      await fh.close();
    }
  });
}
