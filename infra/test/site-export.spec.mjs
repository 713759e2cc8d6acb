// The copy of the site (npm run export-site, GET /api/admin/site-export) against the real product:
// the built API over a fresh SQLite database with the demo content, the site built from it into the
// live folder. The exported pages are crawled (every address resolves to a file of the copy) and
// opened from file:// in headless Chromium, in English and Arabic.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { inflateRawSync } from 'node:zlib';

import { launchBrowser, VIEWPORTS } from '../e2e/support/browser.mjs';
import { ROOT, startStack } from '../e2e/support/stack.mjs';

const CLI = path.join(ROOT, 'infra', 'export-site.mjs');

let stack;
let token;
let work;
let bookId;
let copy;

/** Runs the export command as `npm run export-site --` does (same script, same environment). */
function exportSite(args, { varDir = stack.varDir } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: ROOT,
      env: { ...process.env, VAR_DIR: varDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The entries of a ZIP archive (stored or deflated), read independently of the writer. */
function readZip(bytes) {
  const end = bytes.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  assert.ok(end >= 0, 'a ZIP archive');
  const files = new Map();
  let at = bytes.readUInt32LE(end + 16);
  for (let i = 0; i < bytes.readUInt16LE(end + 10); i++) {
    const nameLength = bytes.readUInt16LE(at + 28);
    const name = bytes.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    const local = bytes.readUInt32LE(at + 42);
    const start = local + 30 + bytes.readUInt16LE(local + 26) + bytes.readUInt16LE(local + 28);
    const raw = bytes.subarray(start, start + bytes.readUInt32LE(at + 20));
    files.set(name, bytes.readUInt16LE(at + 10) === 8 ? inflateRawSync(raw) : Buffer.from(raw));
    at += 46 + nameLength + bytes.readUInt16LE(at + 30) + bytes.readUInt16LE(at + 32);
  }
  return files;
}

async function filesUnder(dir) {
  return (await readdir(dir, { recursive: true, withFileTypes: true }))
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .sort();
}

/** Every address a page or stylesheet names: links, sources, srcsets, island modules, refreshes, island props, CSS url(). */
function references(text, kind) {
  const found = [];
  if (kind === 'css') {
    for (const m of text.matchAll(/url\((['"]?)([^'")]+)\1\)/g)) found.push(m[2]);
    return found;
  }
  for (const m of text.matchAll(/\s(href|src|srcset|component-url|renderer-url|before-hydration-url|content|props)="([^"]*)"/gi)) {
    const [, name, value] = m;
    const attr = name.toLowerCase();
    if (attr === 'srcset') found.push(...value.split(/,\s+/).map((part) => part.split(/\s+/)[0]));
    else if (attr === 'props')
      found.push(...[...value.matchAll(/(?:&quot;|,\s)((?:\.\.\/|[\w-]+\/)[^&\s,"]*\.(?:webp|jpe?g|png|gif|avif|pdf))/g)].map((p) => p[1]));
    else if (attr === 'content') {
      const refresh = /^\d+\s*;\s*url=(.*)$/i.exec(value);
      if (refresh) found.push(refresh[1]);
    } else found.push(value);
  }
  return found;
}

before(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), 'portfolio-site-export-'));
  stack = await startStack();
  await stack.buildSite();
  token = await stack.login();
  bookId = (await stack.call('GET', '/api/books')).body[0].id;
  copy = path.join(work, 'copy');
  const result = await exportSite(['--out', copy]);
  assert.equal(result.code, 0, result.stderr);
});

after(async () => {
  await stack?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('npm run export-site -- --out DIR', () => {
  it('writes every page as a folder with index.html, the image variants, the assets and the uploads the pages show', async () => {
    const files = await filesUnder(copy);
    for (const name of [
      'index.html',
      '404.html',
      'books/index.html',
      `books/${bookId}/index.html`,
      `book/${bookId}/index.html`,
      'gallery/index.html',
      'contact/index.html',
      'sitemap.xml',
      'rss/news.xml',
      'robots.txt',
      'favicon.svg',
    ]) {
      assert.ok(files.includes(name), `${name} is in the copy`);
    }
    assert.ok(!files.some((f) => f.endsWith('.html') && !/(^|\/)(index|404)\.html$/.test(f)), 'no page is left as name.html');
    assert.ok(
      files.some((f) => /^_astro\/.+\.webp$/.test(f)),
      'WebP variants',
    );
    assert.ok(
      files.some((f) => /^_astro\/.+\.css$/.test(f)),
      'stylesheet',
    );
    const uploads = files.filter((f) => f.startsWith('uploads/'));
    // The API's stored variants (uploads/_variants/) are not: the pages name their published copies under _astro/.
    const demoUploads = (await filesUnder(path.join(stack.varDir, 'uploads')))
      .filter((f) => !f.startsWith('_variants/'))
      .map((f) => `uploads/${f}`);
    // The demo's uploads are all shown on some page, so all of them are in the copy, byte for byte.
    assert.deepEqual(uploads, demoUploads);
    for (const name of uploads) assert.deepEqual(await readFile(path.join(copy, name)), await readFile(path.join(stack.varDir, name)));
  });

  it('every internal link and asset reference of every page and stylesheet resolves to a file of the copy', async () => {
    const files = await filesUnder(copy);
    const checked = new Set();
    const broken = [];
    for (const name of files.filter((f) => /\.(html|css)$/.test(f))) {
      const text = await readFile(path.join(copy, name), 'utf8');
      for (const ref of references(text, name.endsWith('.css') ? 'css' : 'html')) {
        if (/^(https?:|mailto:|tel:|data:|#)/.test(ref)) continue;
        // The 404 page's back link to a book is a template its script fills in (books/{id}).
        if (name === '404.html' && ref.includes('{id}')) continue;
        assert.ok(!ref.startsWith('/'), `${name} names ${ref}, an address from the site's root (it would not work from a folder)`);
        // A reference is a URL: an Arabic category's archive is percent-encoded UTF-8, its file named in UTF-8.
        const target = path.resolve(path.dirname(path.join(copy, name)), decodeURIComponent(ref.replace(/[?#].*$/, '')));
        checked.add(target);
        if (!existsSync(target) || !files.includes(path.relative(copy, target).split(path.sep).join('/'))) broken.push(`${name} → ${ref}`);
      }
    }
    assert.deepEqual(broken, []);
    assert.ok(checked.size > 50, `crawled ${checked.size} distinct files`);
  });

  it('leaves out the Admin button and replaces the contact form by a note, in both languages', async () => {
    for (const name of (await filesUnder(copy)).filter((f) => f.endsWith('.html'))) {
      const html = await readFile(path.join(copy, name), 'utf8');
      assert.ok(!html.includes('admin-button'), `${name} has no Admin button`);
      assert.ok(!html.includes('/admin-ui/'), `${name} loads no overlay`);
    }
    const contact = await readFile(path.join(copy, 'contact', 'index.html'), 'utf8');
    assert.ok(!contact.includes('contact-form'), 'no contact form island');
    assert.match(contact, /This is a saved copy of the site: messages cannot be sent from it\./);
    assert.match(contact, /هذه نسخة محفوظة من الموقع: لا يمكن إرسال الرسائل منها\./);
    assert.match(contact, /href="mailto:/, 'the e-mail address is still there');
  });

  it('refuses a folder that is not empty, a bad base URL and a product without a built site, and writes nothing', async () => {
    const full = path.join(work, 'full');
    await mkdir(full);
    await writeFile(path.join(full, 'keep.txt'), 'mine');
    let result = await exportSite(['--out', full]);
    assert.equal(result.code, 1);
    assert.equal(result.stderr.trim(), `${full} is a folder that is not empty: choose a new or empty folder.`);
    assert.deepEqual(await readdir(full), ['keep.txt']);

    const inside = path.join(stack.varDir, 'site', 'live', 'copy.zip');
    result = await exportSite(['--out', inside]);
    assert.equal(result.code, 1);
    assert.equal(
      result.stderr.trim(),
      `${inside} is inside the live site: choose a place outside ${path.join(stack.varDir, 'site', 'live')}.`,
    );
    assert.ok(!existsSync(inside));

    result = await exportSite(['--out', path.join(work, 'x.zip'), '--base-url', 'ftp://mirror.example/']);
    assert.equal(result.code, 1);
    assert.equal(result.stderr.trim(), '--base-url must be an absolute http:// or https:// address (got "ftp://mirror.example/")');

    result = await exportSite([]);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /^--out is required\.\nUsage: npm run export-site -- --out DIR\|FILE\.zip/);

    const empty = path.join(work, 'empty-var');
    await mkdir(empty);
    result = await exportSite(['--out', path.join(work, 'none.zip')], { varDir: empty });
    assert.equal(result.code, 1);
    assert.match(
      result.stderr,
      /^No built site in .*empty-var\/site\/live \(index\.html is missing\): start the product once, or wait for its first build\./,
    );
    assert.ok(!existsSync(path.join(work, 'none.zip')));
    assert.deepEqual(
      (await readdir(work)).filter((f) => f.includes('partial')),
      [],
      'no partial file left behind',
    );
  });
});

describe('npm run export-site -- --out FILE.zip --base-url URL', () => {
  let files;
  before(async () => {
    const zip = path.join(work, 'mirror.zip');
    const result = await exportSite(['--out', zip, '--base-url', 'https://mirror.example/archive']);
    assert.equal(result.code, 0, result.stderr);
    assert.match(
      result.stdout,
      /^Site exported to .*mirror\.zip \(zip\): \d+ pages, \d+ files \(15 uploads\), [\d.]+ MB, in [\d.]+ s\.\nAddresses are absolute under https:\/\/mirror\.example\/archive\/\.\n$/,
    );
    files = readZip(await readFile(zip));
  });

  it('holds the same files as the folder export', async () => {
    assert.deepEqual([...files.keys()].sort(), await filesUnder(copy));
  });

  it('names every page, asset, canonical address, sitemap and feed entry under the base URL', () => {
    const page = files.get(`books/${bookId}/index.html`).toString('utf8');
    assert.match(page, new RegExp(`<link rel="canonical" href="https://mirror\\.example/archive/books/${bookId}/">`));
    assert.match(page, /<link rel="stylesheet" href="https:\/\/mirror\.example\/archive\/_astro\/[^"]+\.css">/);
    assert.match(page, /<a href="https:\/\/mirror\.example\/archive\/books\/" aria-current="page">/);
    assert.match(
      page,
      /<meta property="og:image" content="https:\/\/mirror\.example\/archive\/_astro\/[^"]+-1200x630\.[0-9a-f]{10}\.jpg">/,
    );
    // The subscribe form posts to the live site's API (a copy has none); every other address is the copy's.
    assert.ok(page.includes(`action="${stack.url}/api/newsletter/subscribe"`), 'the form posts to the live API');
    assert.ok(!page.replaceAll(`${stack.url}/api/`, '').includes(stack.url), 'the live address is gone from the page');
    const sitemap = files.get('sitemap.xml').toString('utf8');
    assert.match(sitemap, /<loc>https:\/\/mirror\.example\/archive\/books\/<\/loc>/);
    assert.ok(!sitemap.includes(stack.url));
    assert.match(files.get('robots.txt').toString('utf8'), /Sitemap: https:\/\/mirror\.example\/archive\/sitemap\.xml/);
    assert.match(files.get('rss/news.xml').toString('utf8'), /<link>https:\/\/mirror\.example\/archive\/news\/\d+\/<\/link>/);
  });
});

describe('the copy opened from file:// in headless Chromium', () => {
  let browser;
  before(async () => {
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
  });

  for (const lang of ['en', 'ar']) {
    it(`${lang}: a book page shows its cover and the stylesheet, and its links lead to /books`, async () => {
      const page = await browser.newPage({ lang });
      try {
        await page.goto(pathToFileURL(path.join(copy, 'books', String(bookId), 'index.html')).href, { waitUntil: 'load' });
        const html = await page.evaluate(() => ({ lang: document.documentElement.lang, dir: document.documentElement.dir }));
        assert.deepEqual(html, { lang, dir: lang === 'ar' ? 'rtl' : 'ltr' });
        const cover = page.locator('.detail picture img');
        await cover.waitFor();
        await page.waitForFunction(() => {
          const img = document.querySelector('.detail picture img');
          return img && img.complete && img.naturalWidth > 0;
        });
        const src = await cover.evaluate((img) => img.currentSrc);
        assert.match(src, /^file:\/\/.*\/_astro\/.+\.webp$/, 'the WebP variant from the copy');
        // The stylesheet is applied: the header sticks, the page has its paper colour and the title its serif.
        assert.equal(await page.locator('.site-header').evaluate((el) => getComputedStyle(el).position), 'sticky');
        assert.notEqual(await page.evaluate(() => getComputedStyle(document.body).backgroundColor), 'rgba(0, 0, 0, 0)');
        assert.equal(await page.locator('[data-admin-button]').count(), 0);

        await page.getByRole('link', { name: lang === 'ar' ? 'العودة إلى الكتب' : 'Back to Books' }).click();
        await page.waitForURL(/\/books\/index\.html$/);
        await page.locator('article.card').first().waitFor();
        assert.ok((await page.locator('article.card').count()) >= 4, 'the books list');
        assert.equal(await page.evaluate(() => document.documentElement.lang), lang, 'the language stays');

        // A card leads back to a book page of the copy.
        await page.locator(`article.card a[href$="books/${bookId}/index.html"]`).first().click();
        await page.waitForURL(new RegExp(`/books/${bookId}/index\\.html$`));
      } finally {
        await page.context().close();
      }
    });
  }

  it('the gallery and the home page load every picture they ask for from the copy (no file missing)', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 4000 } });
    const missing = [];
    page.on('requestfailed', (request) => {
      if (request.failure()?.errorText === 'net::ERR_FILE_NOT_FOUND') missing.push(request.url());
    });
    try {
      for (const file of ['gallery/index.html', 'index.html']) {
        await page.goto(pathToFileURL(path.join(copy, file)).href, { waitUntil: 'load' });
        await page.waitForFunction(() => [...document.images].filter((img) => img.loading !== 'lazy').every((img) => img.complete));
        const shown = await page.evaluate(() =>
          [...document.images].filter((img) => img.complete && img.naturalWidth > 0).map((img) => img.currentSrc),
        );
        assert.ok(shown.length >= 3, `${file} shows its pictures (${shown.length})`);
        for (const src of shown) assert.ok(src.startsWith(pathToFileURL(copy).href), `${src} is a file of the copy`);
      }
      assert.deepEqual(missing, []);
    } finally {
      await page.context().close();
    }
  });

  it('from file:// a gallery picture opens its original at full size (the lightbox cannot load there)', async () => {
    const page = await browser.newPage();
    try {
      await page.goto(pathToFileURL(path.join(copy, 'gallery', 'index.html')).href, { waitUntil: 'load' });
      const first = page.locator('.gallery-open').first();
      const original = await first.locator('img').evaluate((img) => img.src);
      assert.match(original, /^file:\/\/.*\/uploads\/.+\.jpg$/);
      await first.click();
      await page.waitForURL(original);
      assert.ok(await page.evaluate(() => document.images[0]?.naturalWidth > 0), 'the picture is shown');
    } finally {
      await page.context().close();
    }
  });

  it('the language switch works from file:// and the choice is kept on the next page', async () => {
    const page = await browser.newPage({ viewport: VIEWPORTS.phone });
    try {
      await page.goto(pathToFileURL(path.join(copy, 'contact', 'index.html')).href, { waitUntil: 'load' });
      const note = page.locator('[data-export-contact-note]');
      assert.match(await note.innerText(), /This is a saved copy of the site: messages cannot be sent from it\./);
      await page.locator('[data-language-switch]').click();
      assert.equal(await page.evaluate(() => document.documentElement.dir), 'rtl');
      assert.match(await note.innerText(), /هذه نسخة محفوظة من الموقع: لا يمكن إرسال الرسائل منها\./);
      // Chromium stores a file:// page's localStorage a moment after the write (at the latest when the
      // page is left): another tab opened right away may not see it yet. So the page that made the
      // choice goes on to another page of the copy first, then a new tab must read it too.
      const deadline = Date.now() + 20_000;
      const readsArabic = async (tab, file) => {
        for (;;) {
          await tab.goto(pathToFileURL(path.join(copy, file)).href, { waitUntil: 'load' });
          if ((await tab.evaluate(() => document.documentElement.lang)) === 'ar') return;
          assert.ok(Date.now() < deadline, `the language choice reaches ${file}`);
        }
      };
      await readsArabic(page, 'index.html');
      await readsArabic(await page.context().newPage(), 'news/index.html');
    } finally {
      await page.context().close();
    }
  });
});

describe('the copy on a static host, under a sub-path', () => {
  let server;
  let base;
  let browser;
  before(async () => {
    // A plain static file server (folders answer their index.html), the copy under /mirror/.
    const types = {
      '.html': 'text/html; charset=utf-8',
      '.css': 'text/css',
      '.js': 'text/javascript',
      '.webp': 'image/webp',
      '.jpg': 'image/jpeg',
      '.svg': 'image/svg+xml',
      '.woff2': 'font/woff2',
      '.woff': 'font/woff',
      '.xml': 'application/xml',
      '.png': 'image/png',
    };
    server = http.createServer(async (req, res) => {
      const pathname = decodeURIComponent(new URL(req.url, 'http://x').pathname);
      if (!pathname.startsWith('/mirror/')) return void res.writeHead(404).end();
      let file = path.join(copy, pathname.slice('/mirror/'.length));
      if (pathname.endsWith('/')) file = path.join(file, 'index.html');
      try {
        const body = await readFile(file);
        res.writeHead(200, { 'content-type': types[path.extname(file)] ?? 'application/octet-stream' }).end(body);
      } catch {
        res.writeHead(404).end();
      }
    });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${server.address().port}/mirror/`;
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve) ?? resolve());
  });

  it('islands load from the relative addresses: the language switch hydrates and the gallery opens its lightbox', async () => {
    const page = await browser.newPage({ lang: 'ar' });
    const missing = [];
    page.on('response', (response) => {
      if (response.status() >= 400) missing.push(response.url());
    });
    try {
      await page.goto(`${base}gallery/`, { waitUntil: 'networkidle' });
      await page.locator('astro-island:not([ssr]) [data-language-switch]').waitFor();
      await page.locator('astro-island:not([ssr]) .gallery-open').first().click();
      const lightbox = page.getByRole('dialog');
      await lightbox.waitFor();
      await page.waitForFunction(() => {
        const img = document.querySelector('[role="dialog"] img');
        return img && img.complete && img.naturalWidth > 0;
      });
      assert.match(page.url(), /\/mirror\/gallery\/$/, 'the page stays (the lightbox, not the file fallback)');
      await page.keyboard.press('Escape');
      await page.locator('astro-island:not([ssr]) [data-language-switch]').click();
      assert.equal(await page.evaluate(() => document.documentElement.lang), 'en');
      assert.deepEqual(missing, []);
    } finally {
      await page.context().close();
    }
  });
});

describe('GET /api/admin/site-export', () => {
  it('answers an admin the copy as a ZIP attachment (the same files as the command line)', async () => {
    const res = await fetch(`${stack.url}/api/admin/site-export`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/zip');
    assert.match(res.headers.get('content-disposition'), /^attachment; filename="site-\d{4}-\d{2}-\d{2}\.zip"$/);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    const files = readZip(Buffer.from(await res.arrayBuffer()));
    assert.deepEqual([...files.keys()].sort(), await filesUnder(copy));
    assert.deepEqual(files.get(`books/${bookId}/index.html`), await readFile(path.join(copy, 'books', String(bookId), 'index.html')));
  });

  it('answers 401 without a session, and with an unknown token', async () => {
    for (const headers of [{}, { authorization: 'Bearer not-a-session' }]) {
      const res = await fetch(`${stack.url}/api/admin/site-export`, { headers });
      assert.equal(res.status, 401);
      const body = await res.json();
      assert.equal(body.message, 'Authentication required. Please sign in again.');
      assert.equal(body.messageKey, 'error.authenticationRequired');
    }
  });

  it('answers 409 while no site is built, and is in the OpenAPI document', async () => {
    const live = path.join(stack.varDir, 'site', 'live');
    await rename(live, `${live}.away`);
    try {
      const res = await fetch(`${stack.url}/api/admin/site-export`, { headers: { authorization: `Bearer ${token}` } });
      assert.equal(res.status, 409);
      const body = await res.json();
      assert.equal(
        body.message,
        'The site has not been built yet, so there is nothing to download. Try again when the first publish is live.',
      );
      assert.equal(body.messageKey, 'error.siteNotBuilt');
    } finally {
      await rename(`${live}.away`, live);
    }
    const docs = await (await fetch(`${stack.url}/api/docs-json`)).json();
    const operation = docs.paths['/api/admin/site-export']?.get;
    assert.ok(operation, 'GET /api/admin/site-export is documented');
    assert.ok(operation.responses['200'].content['application/zip']);
    assert.deepEqual(operation.security, [{ bearer: [] }]);
  });
});

describe("the overlay's 'Download the site' in headless Chromium", () => {
  const SHOTS = process.env.E2E_SCREENSHOTS ?? path.join(os.tmpdir(), 'portfolio-e2e-screenshots', 'site-export');
  let browser;
  before(async () => {
    browser = await launchBrowser();
    await mkdir(SHOTS, { recursive: true });
  });
  after(async () => {
    await browser?.close();
  });

  for (const { lang, viewport, button, done } of [
    { lang: 'en', viewport: VIEWPORTS.desktop, button: 'Download the site', done: 'The site is downloaded' },
    { lang: 'ar', viewport: VIEWPORTS.phone, button: 'تنزيل الموقع', done: 'تم تنزيل الموقع' },
  ]) {
    it(`${lang}, ${viewport.width}px: a signed-in admin downloads the ZIP of the live site from the dashboard`, async () => {
      const page = await browser.newPage({ lang, viewport });
      try {
        await page.context().addInitScript((id) => localStorage.setItem('admin_session', id), token);
        await page.goto(`${stack.url}/`, { waitUntil: 'networkidle' });
        await page.locator('astro-island:not([ssr]) [data-admin-button]').first().click();
        const overlay = page.locator('#admin-overlay-root');
        const action = overlay.getByRole('button', { name: button });
        await action.waitFor();
        await page.screenshot({ path: path.join(SHOTS, `dashboard-${lang}-${viewport.width}.png`) });
        const downloading = page.waitForEvent('download');
        await action.click();
        const download = await downloading;
        assert.match(download.suggestedFilename(), /^site-\d{4}-\d{2}-\d{2}\.zip$/);
        const files = readZip(await readFile(await download.path()));
        assert.deepEqual([...files.keys()].sort(), await filesUnder(copy));
        await overlay.getByText(done, { exact: true }).waitFor();
        await page.screenshot({ path: path.join(SHOTS, `downloaded-${lang}-${viewport.width}.png`) });
        assert.equal(await overlay.getByRole('button', { name: button }).isEnabled(), true);
      } finally {
        await page.context().close();
      }
    });
  }
});
