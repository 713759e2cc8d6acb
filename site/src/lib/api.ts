import { CONTENT_KINDS, type ContentKind } from '@portfolio/contract/kinds';
import { compareBy, LIST_ORDER } from '@portfolio/contract/rules';
import type { Artwork, Book, ContentItems, Essay, News, Play, PublicSiteSettings } from '@portfolio/contract/types';

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

async function get<T>(path: string, { missing }: { missing?: T } = {}): Promise<T> {
  const preview = overrideFor(path);
  // Each render receives its own copy of the overrides (over IPC) and reads each path once.
  if (preview !== undefined) return preview as T;
  const base = apiBase();
  let res: Response;
  try {
    res = await fetch(base + path, { headers: { accept: 'application/json' } });
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
  if (kept && changed && changed.length <= MAX_ITEM_READS) {
    const ids = new Set(changed);
    const fresh = await Promise.all(changed.map((id) => get<Items[K] | null>(`/api/${kind}/${id}`, { missing: null })));
    items = (kept.items as Items[K][]).filter((item) => !ids.has(item.id));
    for (const item of fresh) if (item) items.push(item);
    items.sort(compareBy(LIST_ORDER[kind]));
  } else {
    items = await get<Items[K][]>(`/api/${kind}`);
  }
  keptCollections.set(kind, { publishId, items });
  return items;
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
  book: item('books'),
  essay: item('essays'),
  artwork: item('artworks'),
  newsItem: item('news'),
  play: item('plays'),
  /** The site settings (the author's details); a page that shows them depends on `settings`. */
  settings: () => {
    recordDep('settings');
    return once('GET /api/settings', () => get<PublicSiteSettings>('/api/settings'));
  },
  /** The API origin, for images uploaded to it. */
  get base() {
    return apiBase();
  },
};

export type { Artwork, Book, Essay, News, Play, PublicSiteSettings };
