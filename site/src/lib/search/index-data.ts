/**
 * The site's search index: one JSON shard per kind (`/search-index/books.json` …), made by a route of
 * the site from the same API reads as the pages (pages/search-index/[kind].json.ts). Each shard reads
 * its whole collection, so the builder records it as depending on `books` (…) and re-renders it in
 * every targeted publish that touches that kind: the index follows every publish, and a targeted
 * version stays byte-identical to a full export.
 *
 * Shards hold the text as entered (both languages: the item's own fields and its translations when
 * the API gives them); the reader folds it (normalize.ts) when search opens, so no text is stored twice.
 */
import { fieldFormat, formattedPlainText } from '@portfolio/contract/formatted-text';
import type { VariantWidth } from '@portfolio/contract/image-variants';
import { type KindDefinition, KINDS } from '@portfolio/contract/kinds';
import { type Lang, LANGUAGES, perLanguage } from '@portfolio/contract/languages';
import { imagePath } from '@portfolio/contract/rules';
import { textFor, type Translatable } from '@portfolio/contract/translations';
import type { ContentItem } from '@portfolio/contract/types';

import { api } from '../api';
import { uploadVariants } from '../image-variants';
import { allKept, contentKey, keptMarkup } from '../render-context';
import { type IndexEntry, type IndexShard, SEARCH_KINDS, type SearchKind } from './shard';

export { type IndexEntry, type IndexShard, SEARCH_KINDS, type SearchKind };

/** A field longer than this is cut in the index (a whole book pasted into a description). */
export const MAX_FIELD_CHARS = 20_000;
const THUMB_WIDTH: VariantWidth = 360;

type AnyItem = ContentItem;
type Texts = Record<string, string | null | undefined>;

const clean = (value: unknown): string => (typeof value === 'string' ? value.replace(/\s+/g, ' ').trim().slice(0, MAX_FIELD_CHARS) : '');

const definition = (kind: SearchKind): KindDefinition => KINDS[kind];

/** The item's own page, or its kind's list where items have none (artworks: the gallery). */
const pathOf = (kind: SearchKind, id: number) => definition(kind).itemPages[0]?.path(id) ?? definition(kind).listPage;

function imageOf(kind: SearchKind, item: AnyItem): string | null {
  const src = (item as unknown as Texts)[definition(kind).image];
  return imagePath(src ?? null) ?? null;
}

/** One item as the index holds it: the title each reader sees (contract's textFor), every version of the other fields. */
export function indexEntry(kind: SearchKind, item: AnyItem, image: string | null): IndexEntry {
  const own = item as unknown as Texts & { translations?: { [L in Lang]?: Texts } };
  const tr = own.translations ?? {};
  const readable = {
    ...item,
    contentLanguage: (item as Partial<Translatable>).contentLanguage ?? null,
    translations: tr,
  } as unknown as Translatable;
  const title = perLanguage((lang) => clean(textFor(kind, readable, 'title', lang)?.text));
  const titles = Object.values(title);
  const text: string[] = [];
  const add = (value: unknown) => {
    const v = clean(value);
    if (v && !text.includes(v) && !titles.includes(v)) text.push(v);
  };
  add(own.title);
  // An image inside a text (`![alt](/uploads/…)`) is found by its alt text, never by its syntax; a formatted text by its words alone.
  for (const field of definition(kind).searchable) {
    const format = fieldFormat(kind, field, item as { textFormat?: 'plain' | 'markdown' });
    const words = (value: unknown) => (typeof value === 'string' ? formattedPlainText(value, format, true) : value);
    add(words(own[field]));
    for (const lang of LANGUAGES) add(words(tr[lang]?.[field]));
  }
  return { id: item.id, path: pathOf(kind, item.id), title, image, text };
}

/** One item's entry as JSON, kept between publishes (keptMarkup) with the thumbnail variant it names. */
function entryJson(kind: SearchKind, item: AnyItem): Uint8Array | Promise<Uint8Array> {
  return keptMarkup(`search-entry\0${kind}`, contentKey(item), async () => {
    const src = imageOf(kind, item);
    const image = src?.startsWith('/uploads/') ? ((await uploadVariants(src, [THUMB_WIDTH]))?.webp?.largest ?? src) : src;
    return JSON.stringify(indexEntry(kind, item, image));
  });
}

/**
 * The shard of one kind as its file's bytes in pieces (an IndexShard in JSON), in the API's order; images of
 * uploads as the same small variant the cards publish. Entries of unchanged items are reused.
 */
export async function shardJson(kind: SearchKind): Promise<Uint8Array[]> {
  const items: AnyItem[] = await api[kind]();
  const entries = await allKept(items.map((item) => entryJson(kind, item)));
  const parts: Uint8Array[] = [Buffer.from(`{"kind":${JSON.stringify(kind)},"items":[`)];
  entries.forEach((entry, i) => {
    if (i) parts.push(COMMA);
    parts.push(entry);
  });
  parts.push(END);
  return parts;
}
const COMMA = Buffer.from(',');
const END = Buffer.from(']}');
