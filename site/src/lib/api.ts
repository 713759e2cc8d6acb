import type { ImageVariantsState } from '@portfolio/contract/image-variants';
import { CONTENT_KINDS, type ContentKind, type KindDefinition, KINDS } from '@portfolio/contract/kinds';
import { LANGUAGE_INFO, LANGUAGES } from '@portfolio/contract/languages';
import { compareBy, LIST_ORDER } from '@portfolio/contract/rules';
import type { Artwork, Book, ContentItems, Essay, News, Play, PublicSiteSettings } from '@portfolio/contract/types';

import { fieldHtml } from './lang';
import { changedNearby, isNearKind, nearbyOf, slugOf } from './next-related';
import { once, overrideFor, recordDep, renderContext, type Since } from './render-context';

/**
 * The one content client of the site. A non-2xx answer or an unreachable API fails the render,
 * so a broken publish never replaces the live site.
 *
 * Every read is noted in the render's record (render-context.ts): `books` for the whole collection
 * (lists, home, sitemap, feeds), `books/3` for one item. Each collection is fetched once per publish
 * however many pages read it or its items.
 */
const apiBase = () => (process.env.SITE_API_URL ?? 'http://127.0.0.1:3000').replace(/\/+$/, '');

/**
 * A GET sent once more when the connection fails before any answer: the API may close a kept-alive
 * connection just as it is reused (a publish showing 2,000 new pictures makes thousands of reads, and
 * one failed so in the import benchmark), and a GET is safe to repeat. An answer is never repeated.
 */
export async function fetchGet(url: string, init?: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch {
    return fetch(url, init);
  }
}

async function get<T>(path: string, { missing }: { missing?: T } = {}): Promise<T> {
  const preview = overrideFor(path);
  // Each render receives its own copy of the overrides (over IPC) and reads each path once.
  if (preview !== undefined) return preview as T;
  const base = apiBase();
  let res: Response;
  try {
    res = await fetchGet(base + path, { headers: { accept: 'application/json' } });
  } catch (error) {
    throw new Error(`Site build: the API at ${base} is unreachable (${(error as Error).message}).`, { cause: error });
  }
  if (res.status === 404 && missing !== undefined) return missing;
  if (!res.ok) throw new Error(`Site build: GET ${path} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as T;
}

/** The API collections the site reads (@portfolio/contract/kinds); each is a dependency name (`books`, `books/3`). */
type Kind = ContentKind;
type Items = ContentItems;

const fetchAll = <K extends Kind>(kind: K) => once(`GET /api/${kind}`, () => readCollection(kind));
/** The site settings, once per publish; the caller records the read. */
const readSettings = () => once('GET /api/settings', () => get<PublicSiteSettings>('/api/settings'));

/**
 * The collections read by recent publishes, each with the publish it is the content of, and what
 * each recent publish changed on top of which (its Since; null: it read everything afresh).
 */
const keptCollections = new Map<Kind, { publishId: string; items: unknown[] }>();
const publishChain = new Map<string, Since | null>();
const CHAIN_LENGTH = 64;
/** Past this many changed items of one kind, reading the whole collection is cheaper. */
const MAX_ITEM_READS = 100;

/** The ids of `kind` changed from publish `from` to publish `to`, following the chain back; null when it breaks. */
function changedSince(kind: Kind, from: string, to: string): number[] | null {
  const ids = new Set<number>();
  for (let at = to, steps = 0; at !== from; steps++) {
    const since = publishChain.get(at);
    if (!since || steps >= CHAIN_LENGTH) return null;
    for (const c of since.changes) if (c.kind === kind) ids.add(Number(c.entityId));
    at = since.base;
  }
  return [...ids];
}

/**
 * A whole collection as the API lists it. Within a publish that says what changed since an earlier
 * one (a targeted publish), the list kept from that publish is brought forward instead: its changed
 * items are read one by one (gone when the API no longer shows them) and the list is sorted again in
 * the API's order (LIST_ORDER), so a one-word edit on a site of 20,000 books reads one book, not
 * 20,000. A full publish reads everything afresh.
 */
async function readCollection<K extends Kind>(kind: K): Promise<Items[K][]> {
  const record = renderContext.getStore();
  const publishId = record && !record.overrides ? record.publishId : null;
  if (!publishId) return get<Items[K][]>(`/api/${kind}`);
  if (!publishChain.has(publishId)) {
    publishChain.set(publishId, record?.since ?? null);
    while (publishChain.size > CHAIN_LENGTH) publishChain.delete(publishChain.keys().next().value!);
  }
  const kept = keptCollections.get(kind);
  const changed = kept ? changedSince(kind, kept.publishId, publishId) : null;
  let items: Items[K][];
  if (kept && changed && !changed.length) {
    // Unchanged (a settings change, an edit of another kind): the same list, so what pages derive from it once (layouts, keys) is reused.
    items = kept.items as Items[K][];
  } else if (kept && changed && changed.length <= MAX_ITEM_READS) {
    const ids = new Set(changed);
    const fresh = await Promise.all(changed.map((id) => get<Items[K] | null>(`/api/${kind}/${id}`, { missing: null })));
    items = (kept.items as Items[K][]).filter((item) => !ids.has(item.id));
    for (const item of fresh) if (item) items.push(item);
    items.sort(compareBy(LIST_ORDER[kind]));
  } else {
    items = await get<Items[K][]>(`/api/${kind}`);
  }
  if (record?.since) noteDerivedChanges(kind, publishId, record.since, kept, items, changed);
  keptCollections.set(kind, { publishId, items });
  return items;
}

/**
 * Reads derived from a whole collection, finer than the collection: `near:essays/3` (what the page
 * of essay 3 shows around it: next/related) and `category:essays/poetry` (a category's archive).
 * A page that shows them records these instead of `essays`, so an edit of one essay re-renders the
 * pages it shows on, not every essay's page. The builder learns which changed from the route listing
 * of the publish (routes.ts), computed here from the list the previous publish read and this one's.
 */
const derivedByPublish = new Map<string, Set<string>>();

/** The derived reads whose value changed in publish `publishId` (only for a publish that names its changes). */
export function derivedChanges(publishId: string | null): string[] {
  return publishId ? [...(derivedByPublish.get(publishId) ?? [])].sort() : [];
}

/** The derived reads publish `publishId` changed so far (a set kept for the route listing). */
function derivedOf(publishId: string): Set<string> {
  let dirty = derivedByPublish.get(publishId);
  if (!dirty) {
    derivedByPublish.set(publishId, (dirty = new Set()));
    while (derivedByPublish.size > CHAIN_LENGTH) derivedByPublish.delete(derivedByPublish.keys().next().value!);
  }
  return dirty;
}

/** The site address the route listing of a publish read, with that publish (noteSiteUrlChange). */
let keptSiteUrl: { publishId: string; url: string } | null = null;

/**
 * `settings:url`, the site's public address alone (api.siteUrl: redirect pages, robots.txt), as a
 * derived read of the settings: changed in a publish that changes the settings unless the address
 * is the one the base publish's listing read. A change of the author's name then re-renders the
 * pages that show it, not the 8,000 redirect pages of 4,000 books. Called by every route listing.
 */
export async function noteSiteUrlChange(publishId: string | null, since: Since | undefined): Promise<void> {
  if (!publishId) return;
  const url = (await readSettings()).siteUrl;
  const before = keptSiteUrl;
  keptSiteUrl = { publishId, url };
  if (!since || !since.changes.some((c) => c.kind === 'settings')) return;
  if (before?.publishId !== since.base || before.url !== url) derivedOf(publishId).add('settings:url');
}

/** The languages pages are in: null (the specification's addresses, the reader's choice) and each prefixed one. */
const PAGE_LANGUAGES = [null, ...LANGUAGES.filter((lang) => LANGUAGE_INFO[lang].prefix)];
/** What an item page shows of another item around it: its title as each page language shows it. */
const shownTitles = new WeakMap<object, string>();
const shownTitle = (kind: Kind) => (item: object) => {
  let shown = shownTitles.get(item);
  if (shown === undefined) {
    shown = PAGE_LANGUAGES.map((fixed) => fieldHtml(kind, item as never, 'title', fixed)).join('');
    shownTitles.set(item, shown);
  }
  return shown;
};

function noteDerivedChanges(
  kind: Kind,
  publishId: string,
  since: Since,
  kept: { publishId: string; items: unknown[] } | undefined,
  items: { id: number }[],
  changed: number[] | null,
) {
  const archives = (KINDS[kind] as KindDefinition).category?.archive;
  if (!isNearKind(kind) && !archives) return;
  const dirty = derivedOf(publishId);
  // The live pages were made from the list the base publish read: without it, everything may have changed.
  const before = kept && kept.publishId === since.base && changed ? (kept.items as { id: number }[]) : null;
  if (before && !changed!.length) return;
  if (isNearKind(kind)) {
    const ids = before ? changedNearby(kind, before, items, shownTitle(kind)) : items.map((item) => item.id);
    for (const id of ids) dirty.add(`near:${kind}/${id}`);
  }
  if (archives) {
    const slugs = new Set<string>();
    if (before) {
      const ids = new Set(changed);
      for (const item of [...before, ...items]) if (ids.has(item.id)) slugs.add(slugOf(kind, item));
    } else {
      for (const item of items) slugs.add(slugOf(kind, item));
    }
    for (const slug of slugs) if (slug) dirty.add(`category:${kind}/${slug}`);
  }
}
const index = <K extends Kind>(kind: K) =>
  once(`index ${kind}`, async () => new Map((await fetchAll(kind)).map((item) => [String(item.id), item] as const)));

/** The whole collection, in the API's order. */
function collection<K extends Kind>(kind: K): () => Promise<Items[K][]> {
  return () => {
    recordDep(kind);
    return fetchAll(kind);
  };
}

/** One item by id (a route parameter or a number); undefined when the API does not show it. */
function item<K extends Kind>(kind: K): (id: string | number | undefined) => Promise<Items[K] | undefined> {
  return async (id) => {
    const key = String(id ?? '');
    if (!/^[1-9]\d*$/.test(key)) return undefined;
    recordDep(`${kind}/${key}`);
    return (await index(kind)).get(key);
  };
}

/** Each kind's whole collection by its name: `api.books()`. */
const collections = Object.fromEntries(CONTENT_KINDS.map((kind) => [kind, collection(kind)])) as { [K in Kind]: () => Promise<Items[K][]> };

export const api = {
  ...collections,
  /** What the page of an item shows around it (lib/next-related.ts); reads `near:books/3`, not the whole list. */
  nearby: async <K extends Kind>(kind: K, id: number) => {
    recordDep(`near:${kind}/${id}`);
    return nearbyOf(kind, await fetchAll(kind), id);
  },
  /** The categories of a kind that have items, by slug, each with its items in the list's order (no read recorded: the route listing). */
  categories: async <K extends Kind>(kind: K) => {
    const groups = new Map<string, Items[K][]>();
    for (const item of await fetchAll(kind)) {
      const slug = slugOf(kind, item);
      if (!slug) continue;
      const group = groups.get(slug);
      if (group) group.push(item);
      else groups.set(slug, [item]);
    }
    return groups;
  },
  /** The items of one category (`category:essays/poetry`), in the list's order. */
  category: async <K extends Kind>(kind: K, slug: string) => {
    recordDep(`category:${kind}/${slug}`);
    return (await fetchAll(kind)).filter((item) => slugOf(kind, item) === slug);
  },
  book: item('books'),
  essay: item('essays'),
  artwork: item('artworks'),
  newsItem: item('news'),
  play: item('plays'),
  /** The site settings (the author's details); a page that shows them depends on `settings`. */
  settings: () => {
    recordDep('settings');
    return readSettings();
  },
  /** The site's public address alone (settings' siteUrl); reads `settings:url`, not `settings` (noteSiteUrlChange). */
  siteUrl: async () => {
    recordDep('settings:url');
    return (await readSettings()).siteUrl;
  },
  /**
   * Whether the API has made an upload's image variants (lib/image-variants.ts), read once per publish;
   * null when it has none for that path. The read is recorded by the caller, only while they are pending.
   */
  imageVariants: (path: string) =>
    once(`GET /api/image-variants ${path}`, () =>
      get<ImageVariantsState | null>(`/api/image-variants?path=${encodeURIComponent(path)}`, { missing: null }),
    ),
  /** The API origin, for images uploaded to it. */
  get base() {
    return apiBase();
  },
};

export type { Artwork, Book, Essay, News, Play, PublicSiteSettings };
