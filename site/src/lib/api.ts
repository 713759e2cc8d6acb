import type { Artwork, Book, Essay, News, Play, PublicSiteSettings } from '@portfolio/contract/types';
import { once, overrideFor, recordDep } from './render-context';

/**
 * The one content client of the site. A non-2xx answer or an unreachable API fails the render,
 * so a broken publish never replaces the live site.
 *
 * Every read is noted in the render's record (render-context.ts): `books` for the whole collection
 * (lists, home, sitemap, feeds), `books/3` for one item. Each collection is fetched once per publish
 * however many pages read it or its items.
 */
const apiBase = () => (process.env.SITE_API_URL ?? 'http://127.0.0.1:3000').replace(/\/+$/, '');

async function get<T>(path: string): Promise<T> {
  const preview = overrideFor(path);
  // Each render receives its own copy of the overrides (over IPC) and reads each path once.
  if (preview !== undefined) return preview as T;
  const base = apiBase();
  let res: Response;
  try {
    res = await fetch(base + path, { headers: { accept: 'application/json' } });
  } catch (error) {
    throw new Error(`Site build: the API at ${base} is unreachable (${(error as Error).message}).`);
  }
  if (!res.ok) throw new Error(`Site build: GET ${path} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as T;
}

/** The API collections the site reads; each is a dependency name (`books`, `books/3`). */
export const KINDS = ['books', 'essays', 'artworks', 'news', 'plays'] as const;
export type Kind = (typeof KINDS)[number];
interface Items {
  books: Book;
  essays: Essay;
  artworks: Artwork;
  news: News;
  plays: Play;
}

const fetchAll = <K extends Kind>(kind: K) => once(`GET /api/${kind}`, () => get<Items[K][]>(`/api/${kind}`));
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

export const api = {
  books: collection('books'),
  essays: collection('essays'),
  artworks: collection('artworks'),
  news: collection('news'),
  plays: collection('plays'),
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
