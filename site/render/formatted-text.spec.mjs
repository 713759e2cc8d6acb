// Formatted text (contract formatted-text.ts) through the real renderer and API: plain texts render
// exactly as before it existed, a Markdown essay shows its formatting on its pages in both languages,
// in the feeds' content:encoded and in the search index as words alone.
// Needs the built API (`npm run build` at the repository root).
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';

import { startStack } from '@portfolio/infra/e2e/support/stack.mjs';
import { JSDOM } from 'jsdom';

import { PLAIN_SEED } from './plain-text-seed.mjs';
import { buildRenderer, SITE_DIR, startRenderer } from './renderer.mjs';

const API_ENTRY = path.resolve(SITE_DIR, '../admin-api/dist/src/main.js');
const skip = !existsSync(API_ENTRY) && !process.env.CI && `no built API at ${API_ENTRY} (run npm run build)`;

const IMAGE = '/uploads/demo/demo-news-3-1200x675.jpg';
const FORMATTED = {
  title: 'Formatted essay',
  excerpt: 'An essay with formatting.',
  textFormat: 'markdown',
  publishedDate: '2024-04-01',
  content: [
    '# The orchard',
    'A line with *emphasis*, **strength** and [a link](https://example.org/olives), [our books](/books) and [no](javascript:alert(1)).',
    '> A quoted line.',
    '- first\n- second',
    'A claim that needs a note.[^1]',
    `![Olive trees at dawn](${IMAGE})`,
    '<script>alert(1)</script>',
    '[^1]: The note itself.',
  ].join('\n\n'),
  translations: {
    ar: {
      title: 'مقالة منسقة',
      content: [
        '# البستان',
        'سطر فيه *تأكيد* و**قوة** و[رابط](https://example.org/olives) و[كتبنا](/books).',
        '> سطر مقتبس.',
        '1. أول\n2. ثان',
        'قول يحتاج إلى حاشية.[^1]',
        `![أشجار الزيتون عند الفجر](${IMAGE})`,
        '[^1]: نص الحاشية.',
      ].join('\n\n'),
    },
  },
};

let stack;
let work;
let r;
let essayId;
let bookId;
const ids = {};
const publish = 'formatted-text-1';

before(async () => {
  if (skip) return;
  stack = await startStack();
  const token = await stack.login();
  // The demo's pictures (one of them is in the formatted text): the API makes their variants as it seeds them.
  await stack.variantsMade();
  // The plain seed first, in the order the recorded pages (plain-text-pages.json) were made in.
  for (const [kind, body] of PLAIN_SEED) {
    const res = await stack.call('POST', `/api/${kind}`, { token, body });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    ids[kind] = res.body.id;
  }
  const res = await stack.call('POST', '/api/essays', { token, body: FORMATTED });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  assert.equal(res.body.textFormat, 'markdown');
  essayId = res.body.id;
  const book = await stack.call('POST', '/api/books', {
    token,
    body: {
      title: 'Formatted book',
      year: 2021,
      publisher: 'P',
      textFormat: 'markdown',
      description: '**A novel** about an orchard, see [the review](https://example.org/review).',
    },
  });
  assert.equal(book.status, 201, JSON.stringify(book.body));
  bookId = book.body.id;
  work = await mkdtemp(path.join(os.tmpdir(), 'site-formatted-test-'));
  const env = { ...process.env, SITE_URL: stack.url };
  await buildRenderer({ outDir: path.join(work, 'renderer'), env });
  r = await startRenderer({
    rendererDir: path.join(work, 'renderer'),
    apiUrl: stack.url,
    cacheDir: path.join(work, 'cache'),
    env,
    log: () => {},
  });
});
after(async () => {
  await r?.stop();
  await stack?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

const render = async (route) => {
  const page = await r.render(route, publish);
  assert.equal(page.status, 200, route);
  return page.body.toString();
};

describe('formatted text on the site', { skip }, () => {
  it('plain text (no textFormat, as a client of the specification posts it) renders exactly as before formatted text', async () => {
    // The <main> and meta description of each page as the site rendered them before formatted text existed.
    const recorded = JSON.parse(await readFile(new URL('./plain-text-pages.json', import.meta.url), 'utf8'));
    assert.deepEqual(ids, { essays: 4, news: 4, books: 5, plays: 3 }, 'the seed has the ids of the recorded pages');
    const normal = (html) => html.replace(/127\.0\.0\.1:[0-9]+/g, 'HOST').replace(/20[0-9]{2}-[0-9]{2}-[0-9]{2}T[0-9:.]+Z/g, 'TIME');
    // Each text of the page as it was (every element with its language and direction: titles, excerpts,
    // contents, descriptions) is still there, byte for byte; what issue 33 added around them (byline,
    // bio, next and related) is left out of the comparison.
    const texts = (main) => [...new JSDOM(main).window.document.querySelectorAll('main [lang][dir]')].map((el) => el.outerHTML);
    for (const [route, before] of Object.entries(recorded)) {
      const html = normal(await render(route));
      assert.equal(/<meta name="description" content="([^"]*)"/.exec(html)[1], before.description, `${route}: meta description`);
      const now = texts(/<main[\s\S]*<\/main>/.exec(html)[0]);
      const was = texts(before.main);
      assert.ok(was.length >= 2, `${route}: the recorded page has its texts`);
      for (const text of was) assert.ok(now.includes(text), `${route}: ${text.slice(0, 300)}\nis not on the page:\n${now.join('\n')}`);
    }
  });

  for (const [lang, prefix, words] of [
    ['en', '', { h2: 'The orchard', em: 'emphasis', strong: 'strength', quote: 'A quoted line.', list: 'ul', note: 'The note itself.' }],
    ['ar', '/ar', { h2: 'البستان', em: 'تأكيد', strong: 'قوة', quote: 'سطر مقتبس.', list: 'ol', note: 'نص الحاشية.' }],
  ]) {
    it(`an essay written in Markdown shows its link, emphasis, heading, quote, list, footnote and upload picture (${lang})`, async () => {
      const html = await render(`${prefix}/essays/${essayId}`);
      const doc = new JSDOM(html).window.document;
      const text = doc.querySelector(`article .formatted${lang === 'ar' ? '' : ''}`);
      assert.ok(text, 'the text is marked as formatted');
      const version = lang === 'ar' ? text : (text.querySelector('[data-lang="en"]') ?? text);
      assert.equal(version.closest('[dir]').getAttribute('dir'), lang === 'ar' ? 'rtl' : 'ltr');
      assert.equal(doc.querySelectorAll('h1').length, 1, 'the page keeps one h1');
      assert.equal(version.querySelector('h2').textContent, words.h2);
      assert.equal(version.querySelector('em').textContent, words.em);
      assert.equal(version.querySelector('strong').textContent, words.strong);
      assert.equal(version.querySelector('blockquote').textContent.trim(), words.quote);
      assert.equal(version.querySelectorAll(`:scope > ${words.list} > li`).length, 2);
      const external = version.querySelector('a[href="https://example.org/olives"]');
      assert.equal(external.className, 'external');
      assert.equal(external.getAttribute('rel'), 'noopener');
      assert.equal(
        version.querySelector('a[href$="/books"]').getAttribute('href'),
        `${prefix}/books`,
        'a site link in the page’s language',
      );
      assert.equal(version.querySelector('a[href^="javascript"]'), null);
      assert.equal(version.querySelector('script'), null);
      // The footnote: a numbered reference, the note at the end with a link back.
      const ref = version.querySelector('sup a[href^="#"]');
      const note = doc.getElementById(ref.getAttribute('href').slice(1));
      assert.equal(note.closest('section.footnotes').querySelector('p').firstChild.textContent.trim(), words.note);
      assert.equal(note.querySelector('a[href^="#"]').getAttribute('href'), `#${ref.id}`);
      // The picture with its WebP variants and the alt text.
      const figure = version.querySelector('figure.content-figure');
      assert.match(figure.querySelector('source').getAttribute('srcset'), /^\/_astro\/.+-360w\.[0-9a-f]+\.webp 360w, /);
      assert.equal(figure.querySelector('img').getAttribute('alt'), lang === 'ar' ? 'أشجار الزيتون عند الفجر' : 'Olive trees at dawn');
    });
  }

  it('a book description in Markdown shows formatted, and its meta description and structured data are its words alone', async () => {
    const html = await render(`/books/${bookId}`);
    const doc = new JSDOM(html).window.document;
    assert.equal(doc.querySelector('.formatted strong').textContent, 'A novel');
    assert.equal(doc.querySelector('meta[name="description"]').getAttribute('content'), 'A novel about an orchard, see the review.');
    assert.doesNotMatch(html, /\*\*A novel|\]\(https/);
    // Its card (the books list, the home page) shows its words, never the Markdown syntax.
    for (const route of ['/books', '/', '/ar/books']) {
      const list = await render(route);
      assert.match(list, /A novel about an orchard, see the review\./, route);
      assert.doesNotMatch(list, /\*\*A novel|\[the review\]/, route);
    }
  });

  it('the feeds carry the whole formatted text in content:encoded, links and pictures absolute, as a reader parses it', async () => {
    for (const feed of ['/rss/essays.xml', '/ar/rss/essays.xml']) {
      const xml = new JSDOM(await render(feed), { contentType: 'text/xml' }).window.document;
      assert.equal(xml.querySelector('parsererror'), null);
      const item = [...xml.querySelectorAll('item')].find((i) => i.querySelector('link').textContent.endsWith(`/essays/${essayId}`));
      const encoded = item.getElementsByTagName('content:encoded')[0];
      const body = JSDOM.fragment(encoded.textContent);
      const ar = feed.startsWith('/ar/');
      assert.equal(body.querySelector('h2').textContent, ar ? 'البستان' : 'The orchard');
      assert.ok(body.querySelector('em') && body.querySelector('blockquote') && body.querySelector('section.footnotes'));
      assert.equal(body.querySelector('img').getAttribute('src'), `${stack.url}${IMAGE}`);
      assert.equal(body.querySelector('a[href$="/books"]').getAttribute('href'), `${stack.url}${ar ? '/ar' : ''}/books`);
      assert.equal(body.querySelector('script'), null);
    }
  });

  it('the search index holds the formatted essay’s words, no markup and no Markdown syntax', async () => {
    const shard = JSON.parse(await render('/search-index/essays.json'));
    const entry = shard.items.find((i) => i.id === essayId);
    const text = entry.text.join(' ');
    assert.match(text, /A line with emphasis, strength and a link, our books and no\./);
    assert.match(text, /Olive trees at dawn/);
    assert.match(text, /The note itself\./);
    assert.doesNotMatch(text, /\*\*|\]\(|^#|\[\^1\]|<(?!script)/m);
  });
});
