import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { type ParsedExport, parseExport } from '../source.js';
import { byTitle, fixture, LIMITS, makeZip, scratch } from './spec-support.js';

describe("Ghost JSON: a fixture of Ghost's own migration tools", () => {
  let parsed: ParsedExport;
  before(async () => {
    parsed = await parseExport(fixture('ghost-migrate-export.json'), LIMITS);
  });

  it('lists its three posts with dates, statuses, tags and covers', () => {
    assert.equal(parsed.format, 'ghost');
    assert.deepEqual(
      parsed.items.map((i) => [i.sourceId, i.title, i.type, i.status, i.date, i.slug, i.tags]),
      [
        ['ghost:9b7114425bee6e3b17baf7c0', 'Post 1', 'post', 'published', '2025-01-01T00:00:00.000Z', 'post-1', ['News']],
        ['ghost:a22153483431b691fd0178a8', 'Post 2', 'post', 'published', '2025-01-02T00:00:00.000Z', 'post-2', ['Technology']],
        ['ghost:3686b35d96fe6fd2a2748c81', 'Post 3 - Lexical', 'post', 'published', '2025-01-03T00:00:00.000Z', 'post-3-lexical', []],
      ],
    );
    assert.deepEqual(byTitle(parsed, 'Post 1').cover, { ref: 'https://example.com/images/feature-1.jpg', alt: '' });
    assert.equal(byTitle(parsed, 'Post 3 - Lexical').cover, null);
    assert.deepEqual(parsed.warnings, []);
  });

  it('writes the HTML as paragraphs with each inline image its own paragraph', () => {
    const first = byTitle(parsed, 'Post 1');
    assert.equal(first.content, 'Hello world\n\n![](https://example.com/images/photo-1.jpg)\n\nMore text');
    assert.deepEqual(first.images, [{ ref: 'https://example.com/images/photo-1.jpg', alt: '' }]);
    assert.equal(first.excerpt, 'Hello world');
    assert.equal(first.language, 'en');
  });

  it('reads a post that only has Lexical', () => {
    const lexical = byTitle(parsed, 'Post 3 - Lexical');
    assert.equal(lexical.content, '![](https://example.com/images/lexical-image.jpg)');
    assert.deepEqual(lexical.images, [{ ref: 'https://example.com/images/lexical-image.jpg', alt: '' }]);
  });
});

const ghostExport = {
  db: [
    {
      meta: { exported_on: 1716000000000, version: '5.82.0' },
      data: {
        posts: [
          {
            id: 'a1',
            title: 'Letters from Gaza',
            slug: 'letters',
            html: '<p>Intro with <a href="__GHOST_URL__/about/">a link home</a>.</p><figure class="kg-card kg-image-card"><img src="__GHOST_URL__/content/images/2024/05/sea.jpg" alt="The sea"><figcaption>At dawn</figcaption></figure>',
            feature_image: '__GHOST_URL__/content/images/2024/05/cover.jpg',
            type: 'post',
            status: 'published',
            published_at: '2024-05-01T08:00:00.000Z',
            custom_excerpt: 'Letters, one a week.',
          },
          {
            id: 'a2',
            title: 'رسائل من غزة',
            slug: 'letters-ar',
            html: '<p>مقدمة الرسائل</p>',
            type: 'post',
            status: 'published',
            published_at: '2024-05-01T09:00:00.000Z',
            lang: 'ar',
          },
          {
            id: 'b1',
            title: 'About',
            slug: 'about',
            html: '<p>The writer.</p>',
            type: 'page',
            status: 'published',
            published_at: '2024-01-01T00:00:00.000Z',
          },
          {
            id: 'c1',
            title: 'Next week',
            slug: 'next-week',
            html: null,
            mobiledoc: JSON.stringify({
              version: '0.3.1',
              markups: [['a', ['href', 'https://example.org/']]],
              cards: [['image', { src: 'https://images.example/x.jpg', alt: 'X' }]],
              sections: [
                [
                  1,
                  'p',
                  [
                    [0, [], 0, 'Soon: '],
                    [0, [0], 1, 'read this'],
                  ],
                ],
                [10, 0],
              ],
            }),
            type: 'post',
            status: 'scheduled',
            published_at: '2031-02-03T04:05:06.000Z',
          },
          {
            id: 'd1',
            title: 'Unfinished',
            slug: 'unfinished',
            html: '<p>Draft text</p>',
            type: 'post',
            status: 'draft',
            published_at: null,
          },
        ],
        tags: [
          { id: 't1', name: 'Letters', slug: 'letters' },
          { id: 't2', name: '#featured', slug: 'hash-featured', visibility: 'internal' },
        ],
        posts_tags: [
          { post_id: 'a1', tag_id: 't2', sort_order: 1 },
          { post_id: 'a1', tag_id: 't1', sort_order: 0 },
        ],
        posts_meta: [{ post_id: 'a1', feature_image_alt: 'Cover at dawn' }],
      },
    },
  ],
};

describe('Ghost: pages, schedules, languages and images in a zip (an export written here)', () => {
  const files = scratch();
  let json: ParsedExport;
  let zipped: ParsedExport;
  before(async () => {
    const dir = await files;
    json = await parseExport(await dir.write('export.json', JSON.stringify(ghostExport)), LIMITS);
    const zip = makeZip([
      { name: 'site-export/site.ghost.2024-05-01.json', data: JSON.stringify(ghostExport) },
      { name: 'site-export/content/images/2024/05/cover.jpg', data: 'cover-bytes' },
      { name: 'site-export/content/images/2024/05/sea.jpg', data: 'sea-bytes' },
    ]);
    zipped = await parseExport(await dir.write('upload.bin', zip), LIMITS);
  });
  after(async () => {
    await zipped.archive?.close();
    await (await files).remove();
  });

  it('pairs a post with its other-language version by slug (letters / letters-ar)', () => {
    assert.deepEqual(
      json.items.map((i) => i.title),
      ['Letters from Gaza', 'About', 'Next week', 'Unfinished'],
    );
    const letters = byTitle(json, 'Letters from Gaza');
    assert.equal(letters.language, 'en');
    assert.deepEqual(letters.translations.ar, {
      sourceId: 'ghost:a2',
      title: 'رسائل من غزة',
      excerpt: 'مقدمة الرسائل',
      content: 'مقدمة الرسائل',
      images: [],
    });
  });

  it('lists pages as pages, scheduled and draft posts with their status', () => {
    assert.equal(byTitle(json, 'About').type, 'page');
    const next = byTitle(json, 'Next week');
    assert.equal(next.status, 'scheduled');
    assert.equal(next.date, '2031-02-03T04:05:06.000Z');
    assert.equal(next.content, 'Soon: [read this](https://example.org/)\n\n![X](https://images.example/x.jpg)');
    const draft = byTitle(json, 'Unfinished');
    assert.equal(draft.status, 'draft');
    assert.equal(draft.date, null);
  });

  it('keeps public tags only, in their order, and the custom excerpt', () => {
    const letters = byTitle(json, 'Letters from Gaza');
    assert.deepEqual(letters.tags, ['Letters']);
    assert.deepEqual(letters.categories, []);
    assert.equal(letters.excerpt, 'Letters, one a week.');
  });

  it('resolves __GHOST_URL__ images to paths, and to the files of the zip when it holds them', async () => {
    const plain = byTitle(json, 'Letters from Gaza');
    assert.deepEqual(plain.cover, { ref: 'content/images/2024/05/cover.jpg', alt: 'Cover at dawn' });
    assert.equal(plain.content, 'Intro with a link home.\n\n![The sea](content/images/2024/05/sea.jpg)\n\nAt dawn');

    assert.equal(zipped.format, 'ghost');
    const letters = byTitle(zipped, 'Letters from Gaza');
    assert.deepEqual(letters.cover, { ref: 'site-export/content/images/2024/05/cover.jpg', alt: 'Cover at dawn' });
    assert.deepEqual(letters.images, [{ ref: 'site-export/content/images/2024/05/sea.jpg', alt: 'The sea' }]);
    assert.equal((await zipped.archive!.read(letters.cover!.ref))?.toString(), 'cover-bytes');
    assert.equal(await zipped.archive!.read('site-export/content/images/missing.jpg'), null);
  });
});
