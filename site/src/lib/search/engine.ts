/**
 * Search in the browser over the index shards (index-data.ts). Every word of the query must occur in
 * the item (title or text), folded (normalize.ts) on both sides: an Arabic word anywhere in a word, so
 * it is found with its attached prefixes (و، ب، ل، ال); a Latin word (English) at the start of a word
 * only, so 'art' finds 'artist' but not 'party'.
 */
import type { Lang } from '@portfolio/contract/languages';

import { fold, foldChar, normalize, queryTerms } from './normalize';
import { type IndexEntry, type IndexShard, SEARCH_KINDS, type SearchKind } from './shard';

export interface Doc extends IndexEntry {
  kind: SearchKind;
  /** Folded titles (both languages) and folded text, for matching. */
  titleHay: string;
  textHay: string;
}

/** A piece of shown text; `mark` pieces are what the query matched. */
export interface Piece {
  text: string;
  mark: boolean;
}

export interface Hit {
  doc: Doc;
  score: number;
  title: Record<Lang, Piece[]>;
  excerpt: Piece[];
}

export function prepare(shards: IndexShard[]): Doc[] {
  const docs: Doc[] = [];
  for (const shard of shards)
    for (const entry of shard.items)
      docs.push({
        ...entry,
        kind: shard.kind,
        titleHay: normalize([...new Set(Object.values(entry.title))].join(' \n ')),
        textHay: normalize(entry.text.join(' \n ')),
      });
  return docs;
}

const atWordStart = (hay: string, at: number) => at === 0 || !/[\p{L}\p{N}]/u.test(hay[at - 1]);
const LATIN = /^[a-z0-9]/;

/** Where `term` next occurs in folded `hay` from `from`: Latin terms at a word's start only (-1: nowhere). */
export function findTerm(hay: string, term: string, from = 0): number {
  let at = hay.indexOf(term, from);
  if (!LATIN.test(term)) return at;
  while (at >= 0 && !atWordStart(hay, at)) at = hay.indexOf(term, at + 1);
  return at;
}

function termScore(doc: Doc, term: string): number {
  const t = findTerm(doc.titleHay, term);
  const x = t >= 0 ? -1 : findTerm(doc.textHay, term);
  if (t < 0 && x < 0) return 0;
  let score = 0;
  if (t >= 0) score += 10 + (atWordStart(doc.titleHay, t) ? 5 : 0) + (doc.titleHay === term ? 10 : 0);
  const tx = x >= 0 ? x : findTerm(doc.textHay, term);
  if (tx >= 0) score += 1 + (atWordStart(doc.textHay, tx) ? 1 : 0);
  return score;
}

/** Marks every occurrence of the terms in `original` (by folded position), as pieces. */
export function highlight(original: string, terms: string[], start = 0, end = original.length): Piece[] {
  const { text, from } = fold(original);
  const marks: [number, number][] = [];
  for (const term of terms) {
    for (let at = findTerm(text, term); at >= 0; at = findTerm(text, term, at + term.length)) {
      const s = from[at];
      const lastStart = from[at + term.length - 1];
      let e = lastStart + (original.codePointAt(lastStart)! > 0xffff ? 2 : 1);
      // The marks on the last letter (a fatha, a shadda) stay with it inside the highlight.
      while (e < original.length && foldChar(original[e]) === '') e++;
      if (e > start && s < end) marks.push([Math.max(s, start), Math.min(e, end)]);
    }
  }
  marks.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  const pieces: Piece[] = [];
  let pos = start;
  for (const [s, e] of marks) {
    if (e <= pos) continue;
    const from0 = Math.max(s, pos);
    if (from0 > pos) pieces.push({ text: original.slice(pos, from0), mark: false });
    pieces.push({ text: original.slice(from0, e), mark: true });
    pos = e;
  }
  if (pos < end) pieces.push({ text: original.slice(pos, end), mark: false });
  return pieces;
}

const BEFORE = 60;
const AFTER = 120;
const PLAIN = 160;

/** Moves a cut to the nearest space (not further than 20 characters), so words are not split. */
function toSpace(text: string, at: number, forward: boolean): number {
  if (at <= 0) return 0;
  if (at >= text.length) return text.length;
  for (let k = 0; k < 20; k++) {
    const i = forward ? at + k : at - k;
    if (i <= 0 || i >= text.length) break;
    if (text[i] === ' ') return forward ? i : i + 1;
  }
  return at;
}

/** About 180 characters around the first match in the item's text (or its start), matches marked. */
export function excerpt(doc: Doc, terms: string[]): Piece[] {
  for (const term of terms) {
    for (const field of doc.text) {
      const folded = fold(field);
      const at = findTerm(folded.text, term);
      if (at < 0) continue;
      const s = toSpace(field, folded.from[at] - BEFORE, false);
      const e = toSpace(field, folded.from[at] + AFTER, true);
      const pieces = highlight(field, terms, s, e);
      if (s > 0) pieces.unshift({ text: '… ', mark: false });
      if (e < field.length) pieces.push({ text: ' …', mark: false });
      return pieces;
    }
  }
  const first = doc.text[0] ?? '';
  if (!first) return [];
  const e = toSpace(first, PLAIN, true);
  return [{ text: first.slice(0, e) + (e < first.length ? ' …' : ''), mark: false }];
}

/** The items holding every word of the query, best first (title matches before text matches). */
export function search(docs: Doc[], query: string, limit = Infinity): { total: number; hits: Hit[] } {
  const terms = queryTerms(query);
  if (!terms.length || terms.join('').length < 2) return { total: 0, hits: [] };
  const scored: { doc: Doc; score: number }[] = [];
  for (const doc of docs) {
    let score = 0;
    for (const term of terms) {
      const s = termScore(doc, term);
      if (!s) {
        score = 0;
        break;
      }
      score += s;
    }
    if (score) scored.push({ doc, score });
  }
  const order = (k: SearchKind) => SEARCH_KINDS.indexOf(k);
  scored.sort((a, b) => b.score - a.score || order(a.doc.kind) - order(b.doc.kind) || a.doc.id - b.doc.id);
  const hits = scored.slice(0, limit).map(({ doc, score }) => ({
    doc,
    score,
    title: Object.fromEntries(Object.entries(doc.title).map(([lang, title]) => [lang, highlight(title, terms)])) as Record<Lang, Piece[]>,
    excerpt: excerpt(doc, terms),
  }));
  return { total: scored.length, hits };
}

let loading: Promise<Doc[]> | null = null;

/**
 * Where the index lives: beside the site's `_astro/` folder this code was loaded from, so a copy of
 * the site under a sub-path (`npm run export-site`, a mirror at https://host/archive/) finds its own
 * index; `/search-index/` otherwise.
 */
export function indexBase(moduleUrl: string): string {
  const url = new URL(moduleUrl);
  const root = /^(.*\/)_astro\/[^/]*$/.exec(url.pathname)?.[1];
  return root ? `${url.origin === 'null' ? `${url.protocol}//` : url.origin}${root}search-index/` : '/search-index/';
}

/** The index, fetched once per page view (all shards at once), when search opens. */
export function loadIndex(base = indexBase(import.meta.url)): Promise<Doc[]> {
  loading ??= Promise.all(
    SEARCH_KINDS.map(async (kind) => {
      const res = await fetch(`${base}${kind}.json`, { headers: { accept: 'application/json' } });
      if (!res.ok) throw new Error(`${kind}: ${res.status}`);
      return (await res.json()) as IndexShard;
    }),
  ).then(prepare, (error) => {
    loading = null;
    throw error;
  });
  return loading;
}
