import { categorySlug, type ContentKind, type KindDefinition, KINDS } from '@portfolio/contract/kinds';

/**
 * Around each item page (books, essays, news, plays): the previous and next item of its kind in the
 * public list's order (the API's order, LIST_ORDER, as the list page shows them) and up to three
 * related items: the items of the same category (genre for books and plays) nearest to it in that
 * order, else the newest. Neither related list repeats the item or its previous and next.
 *
 * Nearest rather than newest of the category: then a change to one item touches the pages of a few
 * items around it, not every page of its category (see changedNearby, which targeted publishing uses).
 */
export type NearKind = Extract<ContentKind, 'books' | 'essays' | 'news' | 'plays'>;
export const NEAR_KINDS: readonly NearKind[] = ['books', 'essays', 'news', 'plays'];
export const isNearKind = (kind: string): kind is NearKind => (NEAR_KINDS as readonly string[]).includes(kind);

export const RELATED_COUNT = 3;

export interface Nearby<T> {
  previous: T | null;
  next: T | null;
  related: T[];
}

interface Item {
  id: number;
}

/** The slug of an item's category (its kind's `category` field), '' for none. */
export function slugOf(kind: ContentKind, item: object): string {
  const field = (KINDS[kind] as KindDefinition).category?.field;
  const value = field ? (item as Record<string, unknown>)[field] : null;
  if (typeof value !== 'string') return '';
  // A site has few categories and thousands of items: each text is made a slug once.
  let slug = slugs.get(value);
  if (slug === undefined) {
    if (slugs.size > 10_000) slugs.clear();
    slugs.set(value, (slug = categorySlug(value)));
  }
  return slug;
}
const slugs = new Map<string, string>();

/** A category's slug from its address's parameter (percent-encoded UTF-8; a slug holds no '%' of its own). */
export function slugParam(param: string | undefined): string {
  try {
    return decodeURIComponent(param ?? '');
  } catch {
    return '';
  }
}

/** For one list: each category's items as positions in the list, and each item's place among them. */
interface Groups {
  positions: Map<string, number[]>;
  slugs: string[];
  /** Each item's index in its category's positions. */
  rank: number[];
}

function groupsOf(kind: ContentKind, list: readonly object[]): Groups {
  const positions = new Map<string, number[]>();
  const slugs: string[] = [];
  const rank: number[] = [];
  list.forEach((item, i) => {
    const slug = slugOf(kind, item);
    slugs.push(slug);
    if (!slug) return void rank.push(-1);
    let at = positions.get(slug);
    if (!at) positions.set(slug, (at = []));
    rank.push(at.length);
    at.push(i);
  });
  return { positions, slugs, rank };
}

/** The positions in the list of what the item at `index` shows. */
function nearbyPositions(groups: Groups, length: number, index: number): { previous: number; next: number; related: number[] } {
  const previous = index - 1;
  const next = index + 1 < length ? index + 1 : -1;
  const taken = (p: number) => p === index || p === previous || p === next;
  const related: number[] = [];
  const slug = groups.slugs[index];
  if (slug) {
    const same = groups.positions.get(slug)!;
    const r = groups.rank[index];
    // Outwards from the item, the newer (earlier) one first at equal distance.
    for (let d = 1; related.length < RELATED_COUNT && (r - d >= 0 || r + d < same.length); d++) {
      for (const p of [same[r - d], same[r + d]]) if (p !== undefined && !taken(p) && related.length < RELATED_COUNT) related.push(p);
    }
  }
  for (let p = 0; related.length < RELATED_COUNT && p < length; p++) if (!taken(p) && !related.includes(p)) related.push(p);
  related.sort((a, b) => a - b);
  return { previous, next, related };
}

/**
 * Per list (an API answer, shared by every page of a publish): its categories and each item's place,
 * made once, so 8,000 item pages do not each go through a list of 4,000.
 */
const layouts = new WeakMap<readonly object[], { groups: Groups; index: Map<number, number> }>();
function layoutOf(kind: ContentKind, list: readonly Item[]) {
  let layout = layouts.get(list);
  if (!layout) layouts.set(list, (layout = { groups: groupsOf(kind, list), index: new Map(list.map((item, i) => [item.id, i])) }));
  return layout;
}

/** What the page of item `id` shows around it; null when the list does not hold it. */
export function nearbyOf<T extends Item>(kind: ContentKind, list: readonly T[], id: number): Nearby<T> | null {
  const { groups, index: indexOf } = layoutOf(kind, list);
  const index = indexOf.get(id);
  if (index === undefined) return null;
  const { previous, next, related } = nearbyPositions(groups, list.length, index);
  return { previous: list[previous] ?? null, next: list[next] ?? null, related: related.map((p) => list[p]) };
}

/**
 * The items of `after` whose page shows something else around it than in `before`: another
 * previous, next or related item, or one of them shown otherwise (`shown`: what the page shows of an
 * item, its title in each language; asked only of items that are not the same object in both lists,
 * as an unchanged item is when a publish brings the previous list forward). Items new to the list
 * are named too; items gone from it have no page to change.
 */
export function changedNearby<T extends Item>(
  kind: ContentKind,
  before: readonly T[],
  after: readonly T[],
  shown: (item: T) => string,
): number[] {
  const old = layoutOf(kind, before);
  const now = layoutOf(kind, after);
  const same = (p: number, q: number) => {
    const a = after[p];
    const b = before[q];
    return a === b || (a.id === b.id && shown(a) === shown(b));
  };
  const changed: number[] = [];
  for (let i = 0; i < after.length; i++) {
    const j = old.index.get(after[i].id);
    if (j === undefined) {
      changed.push(after[i].id);
      continue;
    }
    const a = nearbyPositions(now.groups, after.length, i);
    const b = nearbyPositions(old.groups, before.length, j);
    const differs =
      !sameEnd(a.previous, b.previous, same) ||
      !sameEnd(a.next, b.next, same) ||
      a.related.length !== b.related.length ||
      a.related.some((p, k) => !same(p, b.related[k]));
    if (differs) changed.push(after[i].id);
  }
  return changed;
}

/** Two previous (or next) positions show the same: both none, or the same item shown alike. */
function sameEnd(p: number, q: number, same: (p: number, q: number) => boolean): boolean {
  return p < 0 || q < 0 ? p < 0 && q < 0 : same(p, q);
}
