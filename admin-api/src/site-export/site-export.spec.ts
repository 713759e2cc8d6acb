import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';

import { emptySummary, exportedName, normaliseBaseUrl, SiteChangedError, siteExportEntries, SiteNotBuiltError } from './site-export.js';

let root: string;
let siteDir: string;
let uploadsDir: string;

const head = '<link rel="canonical" href="https://author.example.org/books/3"><link rel="stylesheet" href="/_astro/site.css">';

before(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'site-export-spec-'));
  siteDir = path.join(root, 'site', 'live');
  uploadsDir = path.join(root, 'uploads');
  const files: Record<string, string> = {
    'index.html': `<html><head><link rel="canonical" href="https://author.example.org/">${head}</head><body><a href="/#books">Books</a><a href="/api/books/3/download">Download</a></body></html>`,
    'books/3.html': `<html><head>${head}</head><body><picture><source srcSet="/_astro/c-360w.webp 360w, /_astro/c-600w.webp 600w"><img src="/uploads/books/c.jpg"></picture><a href="/books?page=2#top">Back</a><a href="mailto:a@example.org">Mail</a><a href="https://elsewhere.example/x">Out</a><a href="/uploads/../data/portfolio.sqlite">Bad</a><a href="/uploads/%2e%2e/data/portfolio.sqlite">Bad 2</a><a href="/uploads/.hidden/x.pdf">Hidden</a><astro-island component-url="/_astro/gallery.js" props="{&quot;src&quot;:[0,&quot;/_astro/a-400w.webp 400w, /_astro/a-800w.webp 800w&quot;]}"></astro-island></body></html>`,
    'contact.html': `<html><head>${head}</head><body><astro-island uid="a" component-url="/_astro/admin-button.X1.js" props="{}" ssr><button data-admin-button>Admin</button></astro-island><astro-island uid="c" component-url="/_astro/contact-form.X2.js" props="{}" ssr><form><input name="name"></form></astro-island><a href="mailto:a@example.org">a@example.org</a></body></html>`,
    'book/3.html': '<html><head><meta http-equiv="refresh" content="0;url=/books/3"></head><body><a href="/books/3">x</a></body></html>',
    'books.html': `<html><head>${head}</head><body><a href="/books/3">A book</a></body></html>`,
    '_astro/site.css': '@font-face{src:url(/_astro/f.woff2) format("woff2"),url("/_astro/f.woff")}',
    '.hidden-file': 'not part of the site',
  };
  for (const [name, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(siteDir, name)), { recursive: true });
    await writeFile(path.join(siteDir, name), text);
  }
  await mkdir(path.join(uploadsDir, 'books'), { recursive: true });
  await mkdir(path.join(uploadsDir, '.hidden'), { recursive: true });
  await mkdir(path.join(root, 'data'), { recursive: true });
  await writeFile(path.join(uploadsDir, 'books', 'c.jpg'), 'cover');
  await writeFile(path.join(uploadsDir, 'books', 'draft.jpg'), 'draft cover');
  await writeFile(path.join(uploadsDir, '.hidden', 'x.pdf'), 'hidden');
  await writeFile(path.join(root, 'data', 'portfolio.sqlite'), 'the database');
});

after(async () => {
  await rm(root, { recursive: true, force: true });
});

async function collect(baseUrl: string | null = null) {
  const summary = emptySummary();
  const files = new Map<string, string>();
  for await (const entry of siteExportEntries({ siteDir, uploadsDir, baseUrl }, summary))
    files.set(entry.name, entry.data.toString('utf8'));
  return { files, summary };
}

describe('exportedName', () => {
  it('gives each page a folder of its own; the home page, 404 and other files keep their names', () => {
    assert.equal(exportedName('index.html'), 'index.html');
    assert.equal(exportedName('404.html'), '404.html');
    assert.equal(exportedName('books.html'), 'books/index.html');
    assert.equal(exportedName('ar/index.html'), 'ar/index.html');
    assert.equal(exportedName('ar/books.html'), 'ar/books/index.html');
    assert.equal(exportedName('book/4/reviews.html'), 'book/4/reviews/index.html');
    assert.equal(exportedName('rss/news.xml'), 'rss/news.xml');
  });
});

describe('normaliseBaseUrl', () => {
  it('ends the URL with a slash and refuses what is not an absolute http(s) address', () => {
    assert.equal(normaliseBaseUrl('https://mirror.example'), 'https://mirror.example/');
    assert.equal(normaliseBaseUrl('https://mirror.example/archive//'), 'https://mirror.example/archive/');
    assert.throws(
      () => normaliseBaseUrl('mirror.example'),
      /^Error: --base-url must be an absolute http:\/\/ or https:\/\/ address \(got "mirror.example"\)$/,
    );
    assert.throws(() => normaliseBaseUrl('file:///tmp/x'), /absolute http:\/\/ or https:\/\//);
    assert.throws(() => normaliseBaseUrl('https://mirror.example/?a=1'), /must not have a query/);
  });
});

describe('siteExportEntries', () => {
  it('makes every address relative to its page: links, sources, srcSet, island modules and props, refreshes, stylesheets', async () => {
    const { files } = await collect();
    assert.deepEqual([...files.keys()].sort(), [
      '_astro/site.css',
      'book/3/index.html',
      'books/3/index.html',
      'books/index.html',
      'contact/index.html',
      'index.html',
      'uploads/books/c.jpg',
    ]);
    const book = files.get('books/3/index.html')!;
    assert.match(book, /<source srcSet="\.\.\/\.\.\/_astro\/c-360w\.webp 360w, \.\.\/\.\.\/_astro\/c-600w\.webp 600w">/);
    assert.match(book, /<img src="\.\.\/\.\.\/uploads\/books\/c\.jpg">/);
    assert.match(book, /<a href="\.\.\/\.\.\/books\/index\.html\?page=2#top">Back<\/a>/);
    assert.match(book, /<a href="mailto:a@example\.org">/);
    assert.match(book, /<a href="https:\/\/elsewhere\.example\/x">/);
    assert.match(book, /component-url="\.\.\/\.\.\/_astro\/gallery\.js"/);
    assert.match(book, /&quot;\.\.\/\.\.\/_astro\/a-400w\.webp 400w, \.\.\/\.\.\/_astro\/a-800w\.webp 800w&quot;/);
    assert.match(
      book,
      /<link rel="canonical" href="https:\/\/author\.example\.org\/books\/3">/,
      'the canonical address keeps naming the live site',
    );
    assert.match(files.get('book/3/index.html')!, /content="0;url=\.\.\/\.\.\/books\/3\/index\.html"/);
    const home = files.get('index.html')!;
    assert.match(home, /<a href="index\.html#books">/);
    assert.match(home, /<a href="https:\/\/author\.example\.org\/api\/books\/3\/download">/, 'the API is the live site’s');
    assert.equal(files.get('_astro/site.css'), '@font-face{src:url(../_astro/f.woff2) format("woff2"),url("../_astro/f.woff")}');
  });

  it('leaves the Admin button out and puts a note in both languages, with the live site’s contact page, in place of the form', async () => {
    const { files } = await collect();
    const contact = files.get('contact/index.html')!;
    assert.ok(!contact.includes('admin-button') && !contact.includes('data-admin-button'));
    assert.ok(!contact.includes('contact-form') && !contact.includes('<form'));
    assert.match(contact, /<div class="panel" role="note" data-export-contact-note>/);
    assert.match(
      contact,
      /<span data-lang="en" lang="en">This is a saved copy of the site: messages cannot be sent from it\.<\/span><span data-lang="ar" lang="ar">هذه نسخة محفوظة من الموقع: لا يمكن إرسال الرسائل منها\.<\/span>/,
    );
    assert.match(contact, /<a href="https:\/\/author\.example\.org\/contact">https:\/\/author\.example\.org\/contact<\/a>/);
    assert.match(contact, /<a href="mailto:a@example\.org">/);
  });

  it('copies only the uploads the pages name, never a file outside the uploads folder or a hidden one', async () => {
    const { files, summary } = await collect();
    assert.equal(files.get('uploads/books/c.jpg'), 'cover');
    assert.ok(!files.has('uploads/books/draft.jpg'), 'an upload no page shows stays out');
    assert.ok(![...files.values()].includes('the database'));
    assert.ok(![...files.values()].includes('hidden'));
    assert.deepEqual(summary.missingUploads, ['/uploads/../data/portfolio.sqlite', '/uploads/.hidden/x.pdf']);
    assert.deepEqual(
      { ...summary, missingUploads: undefined, bytes: summary.bytes > 0 },
      { pages: 5, files: 7, uploads: 1, missingUploads: undefined, bytes: true },
    );
  });

  it('with a base URL: every address of the site, canonical ones included, is absolute under it', async () => {
    const { files } = await collect('https://mirror.example/archive');
    const book = files.get('books/3/index.html')!;
    assert.match(book, /<link rel="canonical" href="https:\/\/mirror\.example\/archive\/books\/3\/">/);
    assert.match(book, /<img src="https:\/\/mirror\.example\/archive\/uploads\/books\/c\.jpg">/);
    assert.match(book, /<a href="https:\/\/mirror\.example\/archive\/books\/\?page=2#top">Back<\/a>/);
    assert.match(files.get('index.html')!, /<a href="https:\/\/mirror\.example\/archive\/#books">/);
  });

  it('fails with SiteChangedError when the version being copied loses a file meanwhile (pruned by the builder)', async () => {
    const gone = path.join(siteDir, 'index.html');
    const iterate = async () => {
      for await (const entry of siteExportEntries({ siteDir, uploadsDir })) {
        if (entry.name === '_astro/site.css') await rm(gone);
      }
    };
    try {
      await assert.rejects(
        iterate,
        (error: Error) =>
          error instanceof SiteChangedError && /^The site was published again several times during the export/.test(error.message),
      );
    } finally {
      await writeFile(gone, '<html><head><link rel="canonical" href="https://author.example.org/"></head><body></body></html>');
    }
  });

  it('fails with SiteNotBuiltError when the live folder has no site', async () => {
    const iterate = async () => {
      for await (const entry of siteExportEntries({ siteDir: path.join(root, 'nothing'), uploadsDir })) void entry;
    };
    await assert.rejects(iterate, SiteNotBuiltError);
  });
});
