import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { notFoundPage } from './static-files.js';

describe('notFoundPage', () => {
  it("gives a missing item's address its section's page, in its language", () => {
    const pages: Record<string, string> = {
      '/books/7': '404/books.html',
      '/books/7/': '404/books.html',
      '/book/7/reviews': '404/reviews.html',
      '/essays/3': '404/essays.html',
      '/news/12/': '404/news.html',
      '/plays/1': '404/plays.html',
      '/ar/books/7': 'ar/404/books.html',
      '/ar/book/7/reviews/': 'ar/404/reviews.html',
      '/ar/plays/2': 'ar/404/plays.html',
    };
    for (const [address, page] of Object.entries(pages)) assert.equal(notFoundPage(address), page, address);
  });

  it('gives any other address the site-wide page', () => {
    for (const address of [
      '/nothing',
      '/books',
      '/books/x',
      '/books/7/reviews',
      '/gallery/3',
      '/essays/3/more',
      '/booksy/3',
      '/xbooks/3',
    ]) {
      assert.equal(notFoundPage(address), '404.html', address);
    }
    for (const address of ['/ar', '/ar/', '/ar/nothing', '/ar/gallery/3']) assert.equal(notFoundPage(address), 'ar/404.html', address);
  });
});
