/**
 * What one render reads and makes, recorded while it runs. The renderer (site/render/) renders every
 * route through Astro's server build; src/middleware.ts runs each render inside a context, and the
 * API client and the image variants note into it what the page read (`books`, `books/3`) and which
 * extra files it needs (image variants). The builder keeps that per route, so an edit re-renders
 * exactly the routes that read what changed.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

/** An extra output file of a render: bytes at `source` (absolute path) published at `file`. */
export interface OutputFile {
  file: string;
  source: string;
}

export interface RenderRecord {
  /** The publish this render belongs to: renders of one publish share one read of each collection. */
  publishId: string | null;
  deps: Set<string>;
  files: Map<string, string>;
  /** Network answers of a render without a publish id (dev server): shared by that render only. */
  memo?: Map<string, Promise<unknown>>;
  /**
   * A preview's answers, by API path (`/api/books`): the draft in place of (or beside) the saved
   * item. Such a render reads them instead of the API and shares nothing with any publish.
   */
  overrides?: Record<string, unknown>;
}

/**
 * The renderer's side of a render (Astro.locals.render): set by site/render/worker.mjs, filled in by
 * the middleware, read back by the worker after the response.
 */
export interface RenderReport {
  /** `routes`: answer the route list instead of a page. */
  op?: 'render' | 'routes';
  /** A preview render: API answers to use instead of the API's (RenderRecord.overrides). */
  overrides?: Record<string, unknown>;
  /** The output file of the rendered path (`/books/3` → `books/3.html`). */
  file?: string;
  deps?: string[];
  files?: OutputFile[];
  error?: string;
}

export const renderContext = new AsyncLocalStorage<RenderRecord>();

export const newRecord = (publishId: string | null): RenderRecord => ({ publishId, deps: new Set(), files: new Map() });

/** Notes that the current render read a collection (`books`) or one item (`books/3`). */
export function recordDep(dep: string): void {
  renderContext.getStore()?.deps.add(dep);
}

/** Notes an extra file the current render's output needs. */
export function recordFile(file: string, source: string): void {
  renderContext.getStore()?.files.set(file, source);
}

/**
 * Publishes whose answers are kept: only the current one. Publishes run one at a time, and the
 * collections of a large site are much of the renderer's memory; renders of the previous publish
 * that are still running hold on to their own answers until they finish.
 */
const KEPT_PUBLISHES = 1;
const byPublish = new Map<string, Map<string, Promise<unknown>>>();
/** Outside any render (unit tests, scripts): one memo for the process, as a static build had. */
const processMemo = new Map<string, Promise<unknown>>();

/**
 * The memo of network answers for the current render: per publish id (a new id starts a new memo,
 * so a long-lived renderer never serves stale content; the same id reuses it), per render without one.
 */
export function currentMemo(): Map<string, Promise<unknown>> {
  const record = renderContext.getStore();
  if (!record) return processMemo;
  if (!record.publishId) return (record.memo ??= new Map());
  let memo = byPublish.get(record.publishId);
  if (!memo) {
    memo = new Map();
    byPublish.set(record.publishId, memo);
    while (byPublish.size > KEPT_PUBLISHES) byPublish.delete(byPublish.keys().next().value!);
  }
  return memo;
}

/** The preview's answer for an API path, or undefined (read the API). */
export function overrideFor(path: string): unknown {
  const overrides = renderContext.getStore()?.overrides;
  return overrides && Object.hasOwn(overrides, path) ? overrides[path] : undefined;
}

/** `make()` once per publish for `key`; a failure is remembered too (every render of that publish fails alike). */
export function once<T>(key: string, make: () => Promise<T>): Promise<T> {
  const memo = currentMemo();
  if (!memo.has(key)) memo.set(key, make());
  return memo.get(key) as Promise<T>;
}
