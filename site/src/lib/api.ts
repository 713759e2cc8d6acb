import type { Artwork, Book, Essay, News, Play } from '@portfolio/contract/types';

/**
 * The one build-time client of the content API. A non-2xx answer or an unreachable API fails
 * the build, so a broken build never replaces the live site.
 */
const base = (process.env.SITE_API_URL ?? 'http://127.0.0.1:3000').replace(/\/+$/, '');

async function get<T>(path: string): Promise<T> {
  let res: Response;
  try {
    res = await fetch(base + path, { headers: { accept: 'application/json' } });
  } catch (error) {
    throw new Error(`Site build: the API at ${base} is unreachable (${(error as Error).message}).`);
  }
  if (!res.ok) throw new Error(`Site build: GET ${path} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as T;
}

const memo = new Map<string, Promise<unknown>>();
const cached = <T>(path: string) => {
  if (!memo.has(path)) memo.set(path, get<T>(path));
  return memo.get(path) as Promise<T>;
};

export const api = {
  books: () => cached<Book[]>('/api/books'),
  essays: () => cached<Essay[]>('/api/essays'),
  artworks: () => cached<Artwork[]>('/api/artworks'),
  news: () => cached<News[]>('/api/news'),
  plays: () => cached<Play[]>('/api/plays'),
  /** The API origin, for images uploaded to it. */
  base,
};

export type { Artwork, Book, Essay, News, Play };
