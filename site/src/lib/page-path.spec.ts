import { describe, expect, it } from 'vitest';

import { isCurrentSection, pagePath } from './page-path';

describe('pagePath', () => {
  it('gives / for every spelling of the home page', () => {
    for (const p of ['/', '', '/index.html', '/index', '/?lang=ar', '/#books']) expect(pagePath(p)).toBe('/');
  });
  it('drops .html, a trailing slash and a trailing index', () => {
    expect(pagePath('/books.html')).toBe('/books');
    expect(pagePath('/books/')).toBe('/books');
    expect(pagePath('/books/index.html')).toBe('/books');
    expect(pagePath('/books/3.html')).toBe('/books/3');
    expect(pagePath('/book/3/reviews.html')).toBe('/book/3/reviews');
  });
  it('keeps pages whose name merely ends in "index"', () => {
    expect(pagePath('/reindex.html')).toBe('/reindex');
  });
});

describe('isCurrentSection', () => {
  it('marks home only on the home page, however it is spelt', () => {
    expect(isCurrentSection('/index.html', '/')).toBe(true);
    expect(isCurrentSection('/books.html', '/')).toBe(false);
  });
  it('marks a section on its list, its detail pages and (for books) /book/…', () => {
    expect(isCurrentSection('/books.html', '/books')).toBe(true);
    expect(isCurrentSection('/books/3.html', '/books')).toBe(true);
    expect(isCurrentSection('/book/3/reviews.html', '/books')).toBe(true);
    expect(isCurrentSection('/index.html', '/books')).toBe(false);
    expect(isCurrentSection('/booksellers.html', '/books')).toBe(false);
    expect(isCurrentSection('/essays/2.html', '/books')).toBe(false);
  });
});
