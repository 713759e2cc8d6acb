/**
 * What one render reads and makes, recorded while it runs. The renderer (site/render/) renders every
 * route through Astro's server build; src/middleware.ts runs each render inside a context, and the
 * API client and the image variants note into it what the page read (`books`, `books/3`) and which
 * extra files it needs (image variants). The builder keeps that per route, so an edit re-renders
 * exactly the routes that read what changed.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';

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
  /** Bytes put into the page once it is rendered (laterMarkup): each one piece or pieces in order. */
  later: Pieces[];
  /** Network answers of a render without a publish id (dev server): shared by that render only. */
  memo?: Map<string, Promise<unknown>>;
  /**
   * A preview's answers, by API path (`/api/books`): the draft in place of (or beside) the saved
   * item. Such a render reads them instead of the API and shares nothing with any publish.
   */
  overrides?: Record<string, unknown>;
  /** What this publish changes on top of an earlier one (lib/api.ts reads only those items again). */
  since?: Since;
  /**
   * Set when the output shows something that may read otherwise later with no content change (an
   * upload not there yet, shown as it is, or whose variants are still being made: image-variants.ts):
   * keptMarkup keeps none of it.
   */
  unkept?: boolean;
}

/** A publish's changes on top of an earlier publish (render/renderer.mjs's Since). */
export interface Since {
  base: string;
  changes: { kind: string; entityId: number }[];
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
  since?: Since;
  /** The output file of the rendered path (`/books/3` → `books/3.html`); none for an address that is no page of the site. */
  file?: string;
  /** Set for an address that matched a page file but is no page (`/xx/books`: no language `xx`): no file. */
  noPage?: boolean;
  deps?: string[];
  files?: OutputFile[];
  /** The rendered bytes in pieces, in order (the response itself carries none): a page of 18 MB is never joined into one buffer. */
  body?: Uint8Array[];
  error?: string;
}

export const renderContext = new AsyncLocalStorage<RenderRecord>();

export const newRecord = (publishId: string | null): RenderRecord => ({ publishId, deps: new Set(), files: new Map(), later: [] });

const LATER = /<!--portfolio-later-(\d+)-->/g;

/**
 * Markup (or any output: a feed, an index shard) that goes into the output after Astro has rendered
 * it (src/middleware.ts): Astro and the response then handle a short marker instead of megabytes of
 * cards. It must already be what the page's language needs (its links included). Bytes go in as they
 * are: a list of 20,000 cards is joined as UTF-8 bytes, never made into one string.
 */
export function laterMarkup(markup: string | Pieces): string {
  const record = renderContext.getStore();
  if (!record) return typeof markup === 'string' ? markup : Buffer.concat([markup].flat()).toString('utf8');
  record.later.push(typeof markup === 'string' ? Buffer.from(markup, 'utf8') : markup);
  return `<!--portfolio-later-${record.later.length - 1}-->`;
}

/** UTF-8 bytes, whole or in pieces (a list of 20,000 cards is joined once, as the page is written). */
export type Pieces = Uint8Array | Uint8Array[];

/** The output's text with the bytes kept aside put in place of its markers, as UTF-8 bytes in pieces, in order, nothing copied. */
export function withLater(text: string, later: Pieces[]): Uint8Array[] {
  if (!later.length) return [Buffer.from(text, 'utf8')];
  const parts: Uint8Array[] = [];
  let at = 0;
  for (const match of text.matchAll(LATER)) {
    const bytes = later[Number(match[1])];
    if (!bytes) continue;
    parts.push(Buffer.from(text.slice(at, match.index), 'utf8'));
    if (Array.isArray(bytes)) for (const piece of bytes) parts.push(piece);
    else parts.push(bytes);
    at = match.index + match[0].length;
  }
  parts.push(Buffer.from(text.slice(at), 'utf8'));
  return parts;
}

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

/** Markup kept between renders and publishes (UTF-8), with what its render read and the extra files it needs. */
interface KeptMarkup {
  bytes: Uint8Array;
  deps: string[];
  files: [string, string][];
  /** The last publish that used it. */
  usedBy: string;
}
const NO_FILES: [string, string][] = [];
/** Per group (one kind of markup on one page: Arabic cards of /books, say), by content key. */
interface KeptGroup {
  entries: Map<string, KeptMarkup>;
  current: string | null;
  previous: string | null;
  /** Entries the current and the previous publish used. */
  usedNow: number;
  usedBefore: number;
}
const kept = new Map<string, KeptGroup>();

/**
 * Markup that is a pure function of its group and key (a list page's card: the page's language and
 * the card's options; the item's content), made once and reused by every later render and publish
 * that asks for it, so a list of 20,000 cards re-renders only the cards whose item changed. What
 * making it read and the extra files it needs (image variants) are recorded again on reuse. An
 * entry is kept while the current or the previous publish that used its group used it (a publish
 * that never shows the group leaves it alone); the others are dropped once they are as many as the
 * ones in use, so a publish does not pass over 20,000 entries to drop one. A render outside a
 * publish (preview, dev server) makes it afresh and keeps nothing. A kept entry is answered at once
 * (not as a promise).
 */
export function keptMarkup(group: string, key: string, make: () => Promise<string> | string): Uint8Array | Promise<Uint8Array> {
  const outer = renderContext.getStore();
  const publishId = outer?.publishId;
  if (!outer || !publishId || outer.overrides) return (async () => Buffer.from(await make(), 'utf8'))();
  let g = kept.get(group);
  if (!g) kept.set(group, (g = { entries: new Map(), current: null, previous: null, usedNow: 0, usedBefore: 0 }));
  if (g.current !== publishId) {
    [g.previous, g.current, g.usedBefore, g.usedNow] = [g.current, publishId, g.usedNow, 0];
    if (g.entries.size > 2 * g.usedBefore + 64) {
      for (const [k, entry] of g.entries) if (entry.usedBy !== g.previous) g.entries.delete(k);
    }
  }
  const hit = g.entries.get(key);
  // A variant removed from the image cache is made again: checked when a publish reads everything
  // afresh (a full publish), not for each of 20,000 cards in every targeted one.
  if (hit && (outer.since || hit.files.every(([, source]) => existsSync(source)))) {
    if (hit.usedBy !== publishId) {
      hit.usedBy = publishId;
      g.usedNow++;
    }
    for (const dep of hit.deps) outer.deps.add(dep);
    for (const [file, source] of hit.files) outer.files.set(file, source);
    return hit.bytes;
  }
  return (async () => {
    const inner: RenderRecord = { ...outer, deps: new Set(), files: new Map(), later: [], unkept: false };
    // Kept markup is whole: anything it put aside goes in now.
    const bytes = ownBytes(withLater(await renderContext.run(inner, make), inner.later));
    for (const dep of inner.deps) outer.deps.add(dep);
    for (const [file, source] of inner.files) outer.files.set(file, source);
    if (inner.unkept) {
      outer.unkept = true;
      g.entries.delete(key);
      return bytes;
    }
    if (g.entries.get(key)?.usedBy !== publishId) g.usedNow++;
    g.entries.set(key, { bytes, deps: [...inner.deps], files: inner.files.size ? [...inner.files] : NO_FILES, usedBy: publishId });
    return bytes;
  })();
}

/**
 * Pieces joined into memory of their own. Buffer.concat (and Buffer.from) carve small results out of
 * a shared pool slab, and one kept card then holds its whole slab and every short-lived piece in it:
 * at 20,000 books the kept cards held 106 MB this way.
 */
function ownBytes(pieces: Uint8Array[]): Uint8Array {
  const bytes = new Uint8Array(pieces.reduce((n, p) => n + p.byteLength, 0));
  let at = 0;
  for (const p of pieces) {
    bytes.set(p, at);
    at += p.byteLength;
  }
  return bytes;
}

/** Kept bytes as they come: all at once when every one was kept (no promise per card). */
export function allKept(items: (Uint8Array | Promise<Uint8Array>)[]): Uint8Array[] | Promise<Uint8Array[]> {
  return items.some((item) => item instanceof Promise) ? Promise.all(items) : (items as Uint8Array[]);
}

const contentKeys = new WeakMap<object, string>();
/** A short key of a value's content (its JSON's hash), computed once per object. */
export function contentKey(value: object): string {
  let key = contentKeys.get(value);
  if (key === undefined) {
    key = createHash('sha1').update(JSON.stringify(value)).digest('base64url');
    contentKeys.set(value, key);
  }
  return key;
}
