/** The shape of the search index's shards, shared by the route that writes them and the browser that reads them. */
import type { ContentKind } from '@portfolio/contract/kinds';
import type { Lang } from '@portfolio/contract/languages';

/** One shard per kind, in the order results of equal score are shown (the site's order of the kinds). */
export { SITE_ORDER as SEARCH_KINDS } from '@portfolio/contract/kinds';
export type SearchKind = ContentKind;

export interface IndexEntry {
  id: number;
  /** The page of the item. */
  path: string;
  /** The title as a visitor reading English / Arabic sees it. */
  title: Record<Lang, string>;
  /** A small image (a 360 px WebP variant for uploads), or null. */
  image: string | null;
  /** The other searchable fields, whitespace collapsed, each once. */
  text: string[];
}

export interface IndexShard {
  kind: SearchKind;
  items: IndexEntry[];
}
