import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import {
  categorySlug,
  CONTENT_KINDS,
  kindOfTab,
  KINDS,
  LIST_ORDER,
  publicPages,
  SCHEDULED_KINDS,
  SITE_ORDER,
  TRANSLATED_FIELDS,
} from './kinds.js';
import { PUBLISH_KINDS } from './types.js';

describe('content kinds', () => {
  it('lists the five collections of the /api in the API order, and what a publish can carry', () => {
    assert.deepEqual(CONTENT_KINDS, ['books', 'essays', 'artworks', 'news', 'plays']);
    assert.deepEqual(PUBLISH_KINDS, [...CONTENT_KINDS, 'settings', 'image-variants']);
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
    for (const kind of PUBLISH_KINDS) assert.ok(kind.length <= 20, kind);
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

  it("names a category's archive among an item's pages, by a slug that is the same in every language", () => {
    assert.deepEqual(publicPages('news', { id: 5, category: 'award' } as { id: number }), ['/news/5', '/news', '/news/category/award']);
    assert.deepEqual(publicPages('essays', { id: 6, category: 'Short Stories' } as { id: number }), [
      '/essays/6',
      '/essays',
      '/essays/category/short-stories',
    ]);
    // An Arabic category is its own letters, percent-encoded UTF-8 in the address.
    assert.deepEqual(publicPages('essays', { id: 7, category: ' شعر ' } as { id: number }), [
      '/essays/7',
      '/essays',
      '/essays/category/%D8%B4%D8%B9%D8%B1',
    ]);
    assert.deepEqual(publicPages('essays', { id: 8, category: ' / ' } as { id: number }), ['/essays/8', '/essays']);
    // Books and plays group by genre (related items) but have no archive pages.
    assert.deepEqual(publicPages('books', { id: 3, genre: 'Novel', reviews: [] } as { id: number }), ['/books/3', '/books']);
    assert.equal(categorySlug('Art & Politics / 2024'), 'art-politics-2024');
    assert.equal(categorySlug('Poetry'), categorySlug(' poetry '));
    // A page's name is never a slug: the router would take the archive's address for that page.
    assert.equal(categorySlug('Books'), 'books-category');
    assert.equal(categorySlug('404'), '404-category');
    assert.equal(categorySlug('Bookshop'), 'bookshop');
    assert.equal(categorySlug(null), '');
  });
});
