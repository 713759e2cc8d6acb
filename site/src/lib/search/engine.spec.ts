import { createServer, type Server } from 'node:http';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { newRecord, renderContext } from '../render-context';
import { excerpt, highlight, indexBase, prepare, search } from './engine';
import { indexEntry, shardJson } from './index-data';
import type { IndexShard } from './shard';

const essay = {
  id: 4,
  title: 'ذاكرة البحر',
  excerpt: 'مقالة عن المدينة',
  content: 'في الصباح كَتَبَ الشّاعِرُ عن غَزَّةَ والمدينةِ القديمة، وعن أحلامِ الأطفالِ إلى الأبد.',
  publication: null,
  category: 'أدب',
  imageUrl: 'https://images.example/sea.jpg',
};
const book = {
  id: 9,
  title: 'Olive Trees',
  description: 'A novel about an orchard, a family and the long winter of waiting.',
  publisher: 'Dar Press',
  genre: 'Novel',
  coverImage: null,
  translations: { ar: { title: 'أشجار الزيتون', description: 'رواية عن بستان وعائلة' } },
};
const artwork = { id: 2, title: 'Untitled', medium: 'Oil on canvas', description: null, image: 'https://images.example/a.jpg' };
const play = { id: 5, title: 'The Well', arabicTitle: 'البئر', description: 'A play in one act.', content: null, genre: null, image: null };

const shards: IndexShard[] = [
  { kind: 'books', items: [indexEntry('books', book as never, null)] },
  { kind: 'essays', items: [indexEntry('essays', essay as never, essay.imageUrl)] },
  { kind: 'artworks', items: [indexEntry('artworks', artwork as never, artwork.image)] },
  { kind: 'plays', items: [indexEntry('plays', play as never, null)] },
  { kind: 'news', items: [] },
];
const docs = prepare(shards);
const found = (q: string) => search(docs, q).hits.map((h) => `${h.doc.kind}/${h.doc.id}`);
const marked = (pieces: { text: string; mark: boolean }[]) => pieces.filter((p) => p.mark).map((p) => p.text);

describe('index entries', () => {
  it('hold the page, the titles per language and each text once', () => {
    expect(indexEntry('books', book as never, null)).toEqual({
      id: 9,
      path: '/books/9',
      title: { en: 'Olive Trees', ar: 'أشجار الزيتون' },
      image: null,
      text: ['A novel about an orchard, a family and the long winter of waiting.', 'رواية عن بستان وعائلة', 'Dar Press', 'Novel'],
    });
  });
  it('give a play its Arabic title, and artworks the gallery', () => {
    expect(indexEntry('plays', play as never, null).title).toEqual({ en: 'The Well', ar: 'البئر' });
    expect(indexEntry('artworks', artwork as never, null).path).toBe('/gallery');
  });
  it('hold an image inside a text by its alt text, never its syntax as words', () => {
    const imported = {
      ...essay,
      content: 'The orchard.\n\n![Olive trees at dawn](/uploads/essays/olive-1200x800.jpg)\n\nWinter came.',
      translations: { ar: { content: 'البستان.\n\n![أشجار الزيتون](/uploads/essays/olive-1200x800.jpg)' } },
    };
    const entry = indexEntry('essays', imported as never, null);
    expect(entry.text).toContain('The orchard. Olive trees at dawn Winter came.');
    expect(entry.text).toContain('البستان. أشجار الزيتون');
    expect(entry.text.join(' ')).not.toMatch(/!\[|\]\(|\/uploads\//);
    const docs = prepare([{ kind: 'essays', items: [entry] }]);
    expect(search(docs, 'uploads').hits).toEqual([]);
    expect(search(docs, 'olive dawn').hits.map((h) => h.doc.id)).toEqual([4]);
  });
});

describe('search', () => {
  it('finds an Arabic essay with and without diacritics, and by a word with a prefix attached', () => {
    expect(found('غزة')).toEqual(['essays/4']);
    expect(found('غَزَّةَ')).toEqual(['essays/4']);
    expect(found('الشاعر غزه')).toEqual(['essays/4']);
    expect(found('مدينة')).toEqual(['essays/4']);
    expect(found('احلام الي')).toEqual(['essays/4']);
  });
  it('finds a book by a word of its description, in either language', () => {
    expect(found('orchard')).toEqual(['books/9']);
    expect(found('بستان')).toEqual(['books/9']);
    expect(found('ORCHARD winter')).toEqual(['books/9']);
  });
  it('matches an English word at the start of a word only (an Arabic one anywhere, for its prefixes)', () => {
    expect(found('orch')).toEqual(['books/9']);
    expect(found('chard')).toEqual([]);
    expect(found('ait')).toEqual([]); // 'waiting' is not found by 'ait'
    expect(marked(highlight('Art, party and artists', ['art']))).toEqual(['Art', 'art']);
    expect(found('بحر')).toEqual(['essays/4']);
  });
  it('needs every word, and at least two letters', () => {
    expect(found('orchard summer')).toEqual([]);
    expect(found('o')).toEqual([]);
    expect(search(docs, 'zzzz')).toEqual({ total: 0, hits: [] });
  });
  it('puts title matches first', () => {
    const many = prepare([
      {
        kind: 'books',
        items: [
          indexEntry('books', { ...book, id: 1, title: 'Winter', translations: {} } as never, null),
          indexEntry('books', book as never, null),
        ],
      },
    ]);
    expect(search(many, 'winter').hits.map((h) => h.doc.id)).toEqual([1, 9]);
  });
  it('highlights the match in the original text (diacritics kept) and cuts an excerpt around it', () => {
    const [hit] = search(docs, 'غزة').hits;
    expect(marked(hit.excerpt)).toEqual(['غَزَّةَ']);
    expect(hit.excerpt.map((p) => p.text).join('')).toContain('كَتَبَ الشّاعِرُ عن غَزَّةَ');
    expect(marked(search(docs, 'olive').hits[0].title.en)).toEqual(['Olive']);
  });
  it('marks every occurrence and cuts long text at spaces', () => {
    expect(highlight('Sea, sea and SEA', ['sea'])).toEqual([
      { text: 'Sea', mark: true },
      { text: ', ', mark: false },
      { text: 'sea', mark: true },
      { text: ' and ', mark: false },
      { text: 'SEA', mark: true },
    ]);
    const long = prepare([
      {
        kind: 'news',
        items: [
          {
            id: 1,
            path: '/news/1',
            title: { en: 'N', ar: 'N' },
            image: null,
            text: [`${'word '.repeat(100)}target ${'word '.repeat(100)}`],
          },
        ],
      },
    ])[0];
    const pieces = excerpt(long, ['target']);
    const shown = pieces.map((p) => p.text).join('');
    expect(shown.startsWith('… word')).toBe(true);
    expect(shown.endsWith('word …')).toBe(true);
    expect(shown.length).toBeLessThan(220);
  });
});

describe('where the index is fetched from', () => {
  it('beside the _astro folder the code came from, so a copy under a sub-path finds its own', () => {
    expect(indexBase('https://author.example/_astro/ui.B1x2.js')).toBe('https://author.example/search-index/');
    expect(indexBase('https://mirror.example/archive/gaza/_astro/ui.B1x2.js')).toBe('https://mirror.example/archive/gaza/search-index/');
    expect(indexBase('file:///media/usb/site/_astro/ui.B1x2.js')).toBe('file:///media/usb/site/search-index/');
    expect(indexBase('http://localhost:4321/src/lib/search/engine.ts')).toBe('/search-index/');
  });
});

describe('shards built from the API', () => {
  let server: Server;
  let base = '';
  beforeAll(async () => {
    server = createServer((req, res) => {
      const body = req.url === '/api/essays' ? [essay] : req.url === '/api/books' ? [book] : [];
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    process.env.SITE_API_URL = base;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('reads the whole collection (recorded as its dependency) and keeps the order and images', async () => {
    const record = newRecord('search-shard-test');
    const shard = JSON.parse(Buffer.concat(await renderContext.run(record, () => shardJson('essays'))).toString('utf8')) as IndexShard;
    expect([...record.deps]).toEqual(['essays']);
    expect(shard.kind).toBe('essays');
    expect(shard.items.map((i) => [i.id, i.path, i.image])).toEqual([[4, '/essays/4', 'https://images.example/sea.jpg']]);
  });
});
