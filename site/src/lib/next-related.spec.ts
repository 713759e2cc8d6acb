import { describe, expect, it } from 'vitest';

import { changedNearby, nearbyOf, slugParam } from './next-related';

type E = { id: number; title: string; category: string | null };
const essay = (id: number, category: string | null = null, title = `Essay ${id}`): E => ({ id, title, category });
const ids = (items: { id: number }[]) => items.map((item) => item.id);
const shown = (item: E) => item.title;

describe('next and related', () => {
  // The list in the public order (newest first), as the API answers it.
  const list = [
    essay(9, 'Poetry'),
    essay(8),
    essay(7, 'poetry'),
    essay(6, 'Prose'),
    essay(5, 'Poetry'),
    essay(4),
    essay(3, 'Poetry'),
    essay(2),
    essay(1, 'Poetry'),
  ];

  it('gives the items before and after in the list order, none past either end', () => {
    expect(nearbyOf('essays', list, 6)).toMatchObject({ previous: { id: 7 }, next: { id: 5 } });
    expect(nearbyOf('essays', list, 9)).toMatchObject({ previous: null, next: { id: 8 } });
    expect(nearbyOf('essays', list, 1)).toMatchObject({ previous: { id: 2 }, next: null });
    expect(nearbyOf('essays', list, 42)).toBeNull();
  });

  it('relates the same category nearest in the list order (its slug: case and spacing aside), never the item or its neighbours', () => {
    // Poetry: 9, 7, 5, 3, 1. Around 5: its neighbours are 6 and 4; the nearest poetry are 7 and 3, then 9 (newer first at equal distance).
    expect(ids(nearbyOf('essays', list, 5)!.related)).toEqual([9, 7, 3]);
    // 7's neighbours 8 and 6; 'poetry' and 'Poetry' are one category.
    expect(ids(nearbyOf('essays', list, 7)!.related)).toEqual([9, 5, 3]);
  });

  it('fills up with the newest when the category has fewer, and uses the newest for items without one', () => {
    // Prose has only 6: the newest that are not 6 or its neighbours 7 and 5.
    expect(ids(nearbyOf('essays', list, 6)!.related)).toEqual([9, 8, 4]);
    expect(ids(nearbyOf('essays', list, 2)!.related)).toEqual([9, 8, 7]);
    expect(ids(nearbyOf('essays', list, 8)!.related)).toEqual([6, 5, 4]);
    expect(nearbyOf('essays', [essay(1)], 1)).toEqual({ previous: null, next: null, related: [] });
  });

  it('groups books and plays by genre, news by category', () => {
    const books = [
      { id: 3, genre: 'Novel' },
      { id: 2, genre: null },
      { id: 1, genre: 'Novel' },
      { id: 0, genre: 'Poems' },
    ];
    expect(ids(nearbyOf('books', books, 0)!.related)).toEqual([3, 2]);
    expect(ids(nearbyOf('books', [...books, { id: 9, genre: 'novel' }], 3)!.related)).toEqual([1, 0, 9]);
  });

  it('names the pages whose surroundings an edit changes: a title edit only where that title shows', () => {
    const many = Array.from({ length: 40 }, (_, i) => essay(40 - i, i % 2 ? 'Poetry' : null));
    const retitled = many.map((item) => (item.id === 20 ? { ...item, title: 'New title' } : item));
    const changed = changedNearby('essays', many, retitled, shown);
    // Its neighbours 21 and 19 and the poetry essays whose nearest it is; not the other 30-odd pages.
    expect(changed).toContain(21);
    expect(changed).toContain(19);
    expect(changed).not.toContain(20);
    expect(changed.length).toBeLessThanOrEqual(8);
    // An edit of something not shown (content) changes nothing around.
    expect(
      changedNearby(
        'essays',
        many,
        many.map((item) => ({ ...item })),
        shown,
      ),
    ).toEqual([]);
  });

  it('names the neighbours of an item added, moved or removed, and the pages of its old and new category', () => {
    const base = [essay(5, 'A'), essay(4, 'B'), essay(3, 'A'), essay(2, 'B'), essay(1, 'A')];
    const added = [essay(6, 'B'), ...base];
    expect(changedNearby('essays', base, added, shown).sort()).toEqual(expect.arrayContaining([5, 6]));
    const removed = base.filter((item) => item.id !== 3);
    expect(changedNearby('essays', base, removed, shown)).toEqual(expect.arrayContaining([4, 2]));
    const moved = [base[0], base[1], base[3], base[2], base[4]];
    expect(changedNearby('essays', base, moved, shown)).toEqual(expect.arrayContaining([4, 3, 2, 1]));
    // Twelve essays, A and B in turn: 6 moves from A to B. Its own page relates B essays now; A essays
    // near it (8, 4) relate another A essay instead; B essays near it (7, 5 are its neighbours) gain it.
    const long = Array.from({ length: 12 }, (_, i) => essay(12 - i, i % 2 ? 'B' : 'A'));
    const recategorised = long.map((item) => (item.id === 6 ? essay(6, 'B') : item));
    const changed = changedNearby('essays', long, recategorised, shown);
    expect(changed).toEqual(expect.arrayContaining([6, 8, 4, 9, 3]));
  });

  it('reads a category from its address: percent-encoded UTF-8', () => {
    expect(slugParam('%D8%B4%D8%B9%D8%B1')).toBe('شعر');
    expect(slugParam('%E0%A4%A')).toBe('');
    expect(slugParam(undefined)).toBe('');
  });
});
