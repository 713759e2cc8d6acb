import { TOP_LEVEL_PAGES } from '@portfolio/contract/kinds';
import { LANGUAGE_INFO, LANGUAGES } from '@portfolio/contract/languages';
import { describe, expect, it } from 'vitest';

import { fillPattern, listRoutes, outputFile, routePattern } from './routes';

describe('outputFile', () => {
  it('names files as build.format "file" does', () => {
    expect(outputFile('/')).toBe('index.html');
    expect(outputFile('/books')).toBe('books.html');
    expect(outputFile('/books/3')).toBe('books/3.html');
    expect(outputFile('/book/3/reviews')).toBe('book/3/reviews.html');
    expect(outputFile('/404')).toBe('404.html');
  });
  it('keeps the name of an endpoint with an extension', () => {
    expect(outputFile('/sitemap.xml')).toBe('sitemap.xml');
    expect(outputFile('/rss/news.xml')).toBe('rss/news.xml');
    expect(outputFile('/og-image.png')).toBe('og-image.png');
    expect(outputFile('/robots.txt')).toBe('robots.txt');
  });
  it('names the file of a percent-encoded address in UTF-8, as nginx and the API look it up', () => {
    expect(outputFile('/ar/essays/category/%D8%B4%D8%B9%D8%B1')).toBe('ar/essays/category/شعر.html');
    expect(outputFile('/essays/category/short-stories')).toBe('essays/category/short-stories.html');
    // Never a folder or a dot file from an encoded slash or dot.
    expect(outputFile('/essays/category/a%2Fb')).toBe('essays/category/a%2Fb.html');
    expect(outputFile('/essays/category/%2E%2E')).toBe('essays/category/%2E%2E.html');
  });
});

describe('routePattern and fillPattern', () => {
  it('gives the route of a page file', () => {
    expect(routePattern('../pages/index.astro')).toBe('/');
    expect(routePattern('../pages/books.astro')).toBe('/books');
    expect(routePattern('../pages/book/[id]/reviews.astro')).toBe('/book/[id]/reviews');
    expect(routePattern('../pages/rss/essays.xml.ts')).toBe('/rss/essays.xml');
  });
  it("fills a language segment: empty for the specification's addresses, a prefix for the others", () => {
    expect(routePattern('../pages/[...lang]/index.astro')).toBe('/[...lang]');
    expect(fillPattern('/[...lang]', {})).toBe('/');
    expect(fillPattern('/[...lang]', { lang: 'ar' })).toBe('/ar');
    expect(fillPattern('/[...lang]/books/[id]', { lang: '', id: '3' })).toBe('/books/3');
    expect(fillPattern('/[...lang]/books/[id]', { lang: 'ar', id: '3' })).toBe('/ar/books/3');
  });
  it('fills parameters, and refuses a missing one', () => {
    expect(fillPattern('/book/[id]/reviews', { id: '4' })).toBe('/book/4/reviews');
    expect(() => fillPattern('/books/[id]', {})).toThrow('Route /books/[id]: paths() gave no "id"');
  });
});

describe('listRoutes', () => {
  const page = (mod: object) => async () => mod;

  it('lists pages without parameters as they are and pages with parameters by their paths(), sorted', async () => {
    const routes = await listRoutes({
      '../pages/index.astro': page({}),
      '../pages/books.astro': page({}),
      '../pages/books/[id].astro': page({ paths: async () => [{ id: '10' }, { id: '2' }] }),
      '../pages/sitemap.xml.ts': page({ GET: () => null }),
    });
    expect(routes).toEqual([
      { path: '/', file: 'index.html' },
      { path: '/books', file: 'books.html' },
      { path: '/books/10', file: 'books/10.html' },
      { path: '/books/2', file: 'books/2.html' },
      { path: '/sitemap.xml', file: 'sitemap.xml' },
    ]);
  });

  it('lists a page under [...lang] once per language of the list, crossed with its own paths()', async () => {
    const routes = await listRoutes({
      '../pages/404.astro': page({}),
      '../pages/[...lang]/index.astro': page({}),
      '../pages/[...lang]/404.astro': page({}),
      '../pages/[...lang]/rss/news.xml.ts': page({ GET: () => null }),
      '../pages/[...lang]/book/[id]/reviews.astro': page({ paths: async () => [{ id: '4' }] }),
    });
    expect(routes).toEqual([
      { path: '/', file: 'index.html' },
      { path: '/404', file: '404.html' },
      { path: '/ar', file: 'ar/index.html' },
      { path: '/ar/404', file: 'ar/404.html' },
      { path: '/ar/book/4/reviews', file: 'ar/book/4/reviews.html' },
      { path: '/ar/rss/news.xml', file: 'ar/rss/news.xml' },
      { path: '/book/4/reviews', file: 'book/4/reviews.html' },
      { path: '/rss/news.xml', file: 'rss/news.xml' },
    ]);
  });

  it("has a not-found page for every prefixed language, outside [...lang]/ (which would take `/books/404`), and a category slug is never a page's name", async () => {
    const { existsSync, readdirSync } = await import('node:fs');
    const pages = new URL('../pages/', import.meta.url);
    for (const lang of LANGUAGES.filter((l) => LANGUAGE_INFO[l].prefix))
      expect(existsSync(new URL(`.${LANGUAGE_INFO[lang].prefix}/404.astro`, pages)), lang).toBe(true);
    expect(existsSync(new URL('[...lang]/404.astro', pages))).toBe(false);
    const names = readdirSync(new URL('[...lang]/', pages)).map((name) => name.replace(/\.(astro|ts)$/, ''));
    for (const name of names) expect(TOP_LEVEL_PAGES, name).toContain(name);
  });

  it('lists again from what each page gives now: the same routes, changed ones, and after a failed listing too', async () => {
    let ids = ['1', '2'];
    let down = false;
    const pages = {
      '../pages/index.astro': page({}),
      '../pages/[...lang]/essays/[id].astro': page({ paths: async () => ids.map((id) => ({ id })) }),
      '../pages/plays/[id].astro': page({
        paths: async () => {
          if (down) throw new Error('the API is down');
          return [{ id: '7' }];
        },
      }),
    };
    const paths = async () => (await listRoutes(pages)).map((route) => route.path);
    expect(await paths()).toEqual(['/', '/ar/essays/1', '/ar/essays/2', '/essays/1', '/essays/2', '/plays/7']);
    expect(await paths()).toEqual(['/', '/ar/essays/1', '/ar/essays/2', '/essays/1', '/essays/2', '/plays/7']);
    ids = ['1', '3'];
    expect(await paths()).toEqual(['/', '/ar/essays/1', '/ar/essays/3', '/essays/1', '/essays/3', '/plays/7']);
    ids = ['1'];
    down = true;
    await expect(listRoutes(pages)).rejects.toThrow('the API is down');
    down = false;
    expect(await paths()).toEqual(['/', '/ar/essays/1', '/essays/1', '/plays/7']);
  });

  it('fails for a page with parameters that does not say its paths (it would silently not be published)', async () => {
    await expect(listRoutes({ '../pages/plays/[id].astro': page({}) })).rejects.toThrow(
      '../pages/plays/[id].astro has parameters but exports no paths()',
    );
  });
});
