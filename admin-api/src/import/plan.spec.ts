import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import type { ImportedItem } from './imported-item.entity.js';
import { digestOf, EMPTY_MAPPING, planImport, rewriteImages, sourceKey } from './plan.js';
import type { SourceItem } from './source.js';

const item = (over: Partial<SourceItem> = {}): SourceItem => ({
  sourceId: 'wp:1',
  type: 'post',
  status: 'published',
  date: '2024-05-02T08:00:00.000Z',
  slug: 'sea',
  title: 'The sea',
  excerpt: 'On the sea.',
  content: 'First.\n\n![A boat](https://example.org/boat.jpg)\n\nLast.',
  language: 'en',
  categories: ['Uncategorized', 'Prose'],
  tags: ['Awards'],
  cover: { ref: 'https://example.org/cover.jpg', alt: '' },
  images: [{ ref: 'https://example.org/boat.jpg', alt: 'A boat' }],
  translations: {
    ar: {
      sourceId: 'wp:2',
      title: 'البحر',
      excerpt: 'عن البحر.',
      content: 'أول.',
      images: [{ ref: 'https://example.org/cover.jpg', alt: '' }],
    },
  },
  ...over,
});

const record = (over: Partial<ImportedItem>): ImportedItem =>
  ({
    id: 1,
    source: 'wordpress:x',
    sourceId: 'wp:1',
    kind: 'essays',
    itemId: 7,
    digest: '',
    importedAt: new Date(),
    ...over,
  }) as ImportedItem;

describe('planImport', () => {
  it('makes posts essays (news by the mapping), skips pages and what the kind would refuse, and counts', async () => {
    const parsed = {
      format: 'wordpress' as const,
      warnings: [],
      items: [
        item(),
        item({ sourceId: 'wp:3', type: 'page', title: 'About' }),
        item({ sourceId: 'wp:4', title: '' }),
        item({ sourceId: 'wp:5', title: 'Prize', status: 'scheduled', date: '2031-01-01T00:00:00.000Z' }),
      ],
    };
    const { report, entries } = await planImport(parsed, { newsCategories: [], newsTags: ['awards'] }, new Map(), async () => 'gone');
    assert.deepEqual(report.counts, { create: 2, update: 0, unchanged: 0, skip: 2 });
    assert.deepEqual(
      report.items.map((i) => [i.kind, i.action, i.reason]),
      [
        ['news', 'create', null],
        [null, 'skip', 'A page, not a post'],
        ['news', 'skip', 'Title: Required'],
        ['news', 'create', null],
      ],
    );
    assert.equal(report.items[0]!.images, 2, 'the cover, used again in the translation, counts once');
    assert.deepEqual(report.items[0]!.translations, ['ar']);
    const news = entries[0]!.fields!;
    assert.equal(news.category, 'award', '"Awards" is obviously the award category');
    assert.deepEqual(news.translations, { ar: { title: 'البحر', excerpt: 'عن البحر.', content: 'أول.' } });
    const scheduled = entries[3]!.fields!;
    assert.deepEqual([scheduled.published, scheduled.publishAt?.toISOString()], [true, '2031-01-01T00:00:00.000Z']);

    const essays = await planImport({ ...parsed, items: [item()] }, EMPTY_MAPPING, new Map(), async () => 'gone');
    assert.equal(essays.entries[0]!.fields!.category, 'Prose', "WordPress's default category is not the author's");
  });

  it('knows an item imported before: unchanged, updated, in the trash, or gone (created again)', async () => {
    const parsed = { format: 'wordpress' as const, warnings: [], items: [item()] };
    const plan = async (digest: string, state: 'present' | 'trashed' | 'gone') =>
      (await planImport(parsed, EMPTY_MAPPING, new Map([['wp:1', record({ digest, kind: 'news' })]]), async () => state)).report.items[0]!;
    assert.deepEqual(
      [(await plan(digestOf(item()), 'present')).action, (await plan(digestOf(item()), 'present')).kind],
      ['unchanged', 'news'],
    );
    assert.equal((await plan('older', 'present')).action, 'update');
    assert.equal((await plan('older', 'gone')).action, 'create');
    const trashed = await plan('older', 'trashed');
    assert.deepEqual(
      [trashed.action, trashed.reason],
      ['skip', 'Imported before and now in the trash here: restore it to import it again'],
    );
  });
});

describe('rewriteImages', () => {
  it('points image paragraphs at the stored copies and drops those that could not be stored', () => {
    const stored: Record<string, string | null> = { 'a.jpg': '/uploads/essays/a.jpg', 'b.jpg': null };
    assert.equal(
      rewriteImages('One.\n\n![A](a.jpg)\n\n![B](b.jpg)\n\nTwo ![inline](a.jpg) stays.', (ref) => stored[ref]),
      'One.\n\n![A](/uploads/essays/a.jpg)\n\nTwo ![inline](a.jpg) stays.',
    );
    assert.equal(
      rewriteImages('> Quoted\n>\n> ![A](a.jpg)\n\n- item\n\n  ![A](a.jpg)\n\n![B](b.jpg)\n\nEnd.', (ref) => stored[ref]),
      '> Quoted\n>\n> ![A](/uploads/essays/a.jpg)\n\n- item\n\n  ![A](/uploads/essays/a.jpg)\n\nEnd.',
      'also inside a quote or a list item',
    );
  });
});

describe('sourceKey', () => {
  it('keeps ids that fit the column and hashes longer ones', () => {
    assert.equal(sourceKey('wp:1'), 'wp:1');
    assert.match(sourceKey(`markdown:${'a/'.repeat(200)}`), /^sha256:[0-9a-f]{64}$/);
  });
});
