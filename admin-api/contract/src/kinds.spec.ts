import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { CONTENT_KINDS, kindOfTab, KINDS, LIST_ORDER, publicPages, SCHEDULED_KINDS, SITE_ORDER, TRANSLATED_FIELDS } from './kinds.js';
import { PUBLISH_KINDS } from './types.js';

describe('content kinds', () => {
  it('lists the five collections of the /api in the API order, and what a publish can carry', () => {
    assert.deepEqual(CONTENT_KINDS, ['books', 'essays', 'artworks', 'news', 'plays']);
    assert.deepEqual(PUBLISH_KINDS, [...CONTENT_KINDS, 'settings']);
    assert.deepEqual([...SITE_ORDER].sort(), [...CONTENT_KINDS].sort());
    assert.deepEqual(SCHEDULED_KINDS, ['books', 'essays', 'news', 'plays']);
  });

  it('derives each list from the one definition', () => {
    for (const kind of CONTENT_KINDS) {
      assert.equal(LIST_ORDER[kind], KINDS[kind].order);
      assert.equal(TRANSLATED_FIELDS[kind], KINDS[kind].translated);
      assert.equal(kindOfTab(KINDS[kind].tab), kind);
    }
    assert.equal(kindOfTab('gallery'), 'artworks');
  });

  it("names each kind in at most 20 characters (the 'kind' columns of the outbox, revisions, newsletter and imports)", () => {
    for (const kind of CONTENT_KINDS) assert.ok(kind.length <= 20, kind);
  });

  it("names an item's public pages: its own (a book's reviews page only with reviews), then its list", () => {
    assert.deepEqual(publicPages('books', { id: 3, reviews: [] } as { id: number }), ['/books/3', '/books']);
    assert.deepEqual(publicPages('books', { id: 3, reviews: ['https://example.com/r'] } as { id: number }), [
      '/books/3',
      '/book/3/reviews',
      '/books',
    ]);
    assert.deepEqual(publicPages('artworks', { id: 4 }), ['/gallery']);
    assert.deepEqual(publicPages('news', { id: 5 }), ['/news/5', '/news']);
  });
});
