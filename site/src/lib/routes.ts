import { LANGUAGE_INFO, LANGUAGES } from '@portfolio/contract/languages';

import { derivedChanges, noteSiteUrlChange } from './api';
import { LANG_SEGMENTS } from './lang';
import type { Since } from './render-context';

const HOMES = new Set(LANGUAGES.map((lang) => LANGUAGE_INFO[lang].prefix.slice(1)).filter(Boolean));

/**
 * Every route the current content has, with the file it is published as. A page without
 * parameters is one route; a page with parameters (`books/[id].astro`) exports `paths()`, the
 * parameters it exists for (in server output Astro ignores getStaticPaths, so this takes its place).
 * A page under `pages/[...lang]/` is listed once per language; its `paths()` gives its other parameters.
 * A page with parameters and no `paths` fails the listing: it would otherwise silently not be published.
 */
export interface Route {
  /** The address: `/`, `/books`, `/books/3`, `/sitemap.xml`. */
  path: string;
  /** The published file, as `build.format: 'file'` names it: `index.html`, `books.html`, `books/3.html`, `sitemap.xml`. */
  file: string;
}

type Params = Record<string, string>;
interface PageModule {
  paths?: () => Promise<Params[]> | Params[];
}

/** The output file of a route path. Endpoints keep their own extension; pages get `.html`. */
export function outputFile(path: string): string {
  const clean = decodedPath(path.replace(/^\/+|\/+$/g, ''));
  if (clean === '') return 'index.html';
  // A language's home page (/ar/, lib/lang.ts) is a folder's index, served as such by nginx and the API.
  if (HOMES.has(clean)) return `${clean}/index.html`;
  return /\.[A-Za-z0-9]+$/.test(clean.slice(clean.lastIndexOf('/') + 1)) ? clean : `${clean}.html`;
}

/**
 * A path's segments decoded (`essays/category/%D8%B4%D8%B9%D8%B1` → `essays/category/شعر`): files are
 * named in UTF-8, as nginx and the API look them up from the decoded address. A segment that
 * would decode to a slash or does not decode stays as it is.
 */
function decodedPath(path: string): string {
  if (!path.includes('%')) return path;
  return path
    .split('/')
    .map((segment) => {
      try {
        const decoded = decodeURIComponent(segment);
        return /[/\\\0]/.test(decoded) || decoded.startsWith('.') ? segment : decoded;
      } catch {
        return segment;
      }
    })
    .join('/');
}

/** The route pattern of a page file: `../pages/books/[id].astro` → `/books/[id]`, `../pages/index.astro` → `/`. */
export function routePattern(pageFile: string): string {
  const route = pageFile
    .replace(/^.*?\/pages\//, '/')
    .replace(/\.(astro|ts|js)$/, '')
    .replace(/(^|\/)index$/, '');
  return route === '' ? '/' : route;
}

/**
 * A pattern filled with parameters: `/books/[id]` with { id: '3' } → `/books/3`. A rest parameter
 * (`[...lang]`) may be empty, and then takes its slash with it: `/[...lang]/books` is `/books` or `/ar/books`.
 */
export function fillPattern(pattern: string, params: Params): string {
  let parts = compiled.get(pattern);
  if (!parts) compiled.set(pattern, (parts = pattern.split(/\[([^\]]+)\]/)));
  // Text and parameter names alternate: `/books/[id]` → ['/books/', 'id', ''].
  let path = parts[0];
  for (let i = 1; i < parts.length; i += 2) {
    const rest = parts[i].startsWith('...');
    const value = params[rest ? parts[i].slice(3) : parts[i]];
    if (rest && !value) path = path.replace(/\/$/, '');
    else if (value === undefined || value === '') throw new Error(`Route ${pattern}: paths() gave no "${parts[i]}"`);
    else path += rest ? value.split('/').map(encodeURIComponent).join('/') : encodeURIComponent(value);
    path += parts[i + 1];
  }
  return path || '/';
}
const compiled = new Map<string, string[]>();

/** The page files under `pages/[...lang]/` serve every language: `/books` and `/ar/books` … (lib/lang.ts LANG_SEGMENTS). */
const LANG_PARAM = '[...lang]';

/** Lists the routes of the given page modules (by default the site's own pages), sorted by path. */
export async function listRoutes(pages: Record<string, () => Promise<unknown>> = sitePages()): Promise<Route[]> {
  return sortedRoutes(await listPaths(pages));
}

/**
 * Per page file, the parameters its paths() gave last and the paths they made, and the paths of the
 * last listing: the same parameters (an edit that adds or removes nothing) give the same paths
 * without filling and comparing 80,000 of them again.
 */
const filledBefore = new Map<string, { list: Params[]; paths: string[] }>();
let listedBefore: { pageFiles: string; paths: Set<string> } | null = null;
/** Listings run one after another: each compares its parameters with the one before. */
let listing: Promise<unknown> = Promise.resolve();

/** Whether two lists of parameters are the same, in the same order. */
function sameParams(a: Params[], b: Params[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    for (const key in x) if (x[key] !== y[key]) return false;
    for (const key in y) if (!(key in x)) return false;
  }
  return true;
}

/** Every route path of the given page modules, unsorted (the same Set as the listing before when nothing differs). */
function listPaths(pages: Record<string, () => Promise<unknown>>): Promise<Set<string>> {
  const run = listing.then(() => listPathsNow(pages));
  listing = run.catch(() => {});
  return run;
}

async function listPathsNow(pages: Record<string, () => Promise<unknown>>): Promise<Set<string>> {
  // Kept only once the whole listing has succeeded.
  const filled = new Map<string, { list: Params[]; paths: string[] }>();
  const lists = await Promise.all(
    Object.entries(pages).map(async ([pageFile, load]) => {
      const pattern = routePattern(pageFile);
      if (!pattern.includes('[')) return [pattern];
      const languages = pattern.includes(LANG_PARAM) ? LANG_SEGMENTS : [null];
      let list: Params[] = [{}];
      if (pattern.replace(LANG_PARAM, '').includes('[')) {
        const { paths } = (await load()) as PageModule;
        if (typeof paths !== 'function')
          throw new Error(`${pageFile} has parameters but exports no paths(): its pages would not be published`);
        list = await paths();
      }
      const before = filledBefore.get(pageFile);
      if (before && sameParams(before.list, list)) return before.paths;
      const paths = languages.flatMap((lang) => list.map((params) => fillPattern(pattern, lang === null ? params : { ...params, lang })));
      filled.set(pageFile, { list, paths });
      return paths;
    }),
  );
  const pageFiles = Object.keys(pages).join('\0');
  if (!filled.size && listedBefore?.pageFiles === pageFiles) return listedBefore.paths;
  for (const [pageFile, entry] of filled) filledBefore.set(pageFile, entry);
  const all = new Set<string>();
  for (const list of lists) for (const path of list) all.add(path);
  listedBefore = { pageFiles, paths: all };
  return all;
}

const sortedRoutes = (paths: Iterable<string>): Route[] => [...paths].sort().map((path) => ({ path, file: outputFile(path) }));

/** A publish's routes as the difference from the publish it builds on (see listRoutesSince). */
export interface RouteChanges {
  added: Route[];
  removed: string[];
}

/** Reads finer than a collection whose value this publish changed (api.ts derivedChanges): the builder re-renders their readers too. */
export interface DerivedChanges {
  dirty?: string[];
}

/** The paths of the last listing, with its publish: the next publish that builds on it gets the difference. */
let lastListing: { publishId: string; paths: Set<string> } | null = null;

/**
 * The routes of a publish: all of them (`{ routes }`), or, for a publish that builds on the one
 * listed last (`since.base`), only the routes added and removed since, so a site of 80,000 routes
 * does not send them all for a one-word edit.
 */
export async function listRoutesSince(
  publishId: string | null,
  since: Since | undefined,
): Promise<({ routes: Route[] } | RouteChanges) & DerivedChanges> {
  const paths = await listPaths(sitePages());
  const previous = lastListing;
  if (publishId) lastListing = { publishId, paths };
  // Listing the paths read every collection whose derived reads can change (item pages, archives).
  await noteSiteUrlChange(publishId, since);
  const dirty = since ? { dirty: derivedChanges(publishId) } : {};
  if (!since || !previous || previous.publishId !== since.base) return { routes: sortedRoutes(paths), ...dirty };
  // Nothing added or removed: the listing before's own paths.
  if (paths === previous.paths) return { added: [], removed: [], ...dirty };
  // Only the difference is sorted: sorting 80,000 paths costs more than finding it.
  return {
    added: sortedRoutes([...paths].filter((p) => !previous.paths.has(p))),
    removed: [...previous.paths].filter((p) => !paths.has(p)),
    ...dirty,
  };
}

function sitePages() {
  return import.meta.glob<unknown>(['../pages/**/*.{astro,ts,js}', '!../pages/**/_*', '!../pages/**/*.spec.ts']);
}
