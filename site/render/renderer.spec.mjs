// The renderer (render/renderer.mjs) against the real API with its demo content: the code built
// once, routes rendered through one render(), the full export made of those same renders.
// Needs the built API (`npm run build` at the repository root).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';

import { startStack } from '@portfolio/infra/e2e/support/stack.mjs';

import { linkOrCopy } from './files.mjs';
import { buildRenderer, codeFingerprint, exportSite, SITE_DIR, startRenderer } from './renderer.mjs';

const API_ENTRY = path.resolve(SITE_DIR, '../admin-api/dist/src/main.js');
const skip = !existsSync(API_ENTRY) && !process.env.CI && `no built API at ${API_ENTRY} (run npm run build)`;

let stack;
let token;
let work;
let rendererDir;
let cacheDir;
let env;
const cleanups = [];
const quiet = () => {};

before(async () => {
  if (skip) return;
  stack = await startStack();
  token = await stack.login();
  // The demo's pictures: their variants are made by the API as it seeds them.
  await stack.variantsMade();
  work = await mkdtemp(path.join(os.tmpdir(), 'site-renderer-test-'));
  rendererDir = path.join(work, 'renderer');
  cacheDir = path.join(work, 'cache');
  env = { ...process.env, SITE_URL: stack.url };
  await buildRenderer({ outDir: rendererDir, env });
});
after(async () => {
  for (const fn of cleanups.reverse()) await fn();
  await stack?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

async function renderer(options = {}) {
  const r = await startRenderer({ rendererDir, apiUrl: stack.url, cacheDir, env, log: quiet, ...options });
  cleanups.push(() => r.stop());
  return r;
}
const exportTo = (name, options = {}) =>
  exportSite({ rendererDir, outDir: path.join(work, name), apiUrl: stack.url, cacheDir, env, log: quiet, ...options });
const diff = (a, b) => spawnSync('diff', ['-r', path.join(work, a), path.join(work, b)], { encoding: 'utf8' });
let publishes = 0;
const newPublish = () => `test-publish-${++publishes}`;

describe('exportSite and render()', { skip }, () => {
  let exported;

  it('exports every route, the client assets and the image variants; each file is the bytes render() gives for its route', async () => {
    exported = await exportTo('a', { publishId: newPublish() });
    const r = await renderer();
    const routes = await r.routes(newPublish());
    assert.equal(exported.routes, routes.length);
    assert.deepEqual(
      Object.keys(exported.deps),
      routes.map((route) => route.path),
    );
    for (const must of [
      '/',
      '/404',
      '/books',
      '/books/1',
      '/book/1',
      '/gallery',
      '/sitemap.xml',
      '/robots.txt',
      '/rss/essays.xml',
      '/rss/news.xml',
      '/og-image.png',
    ]) {
      assert.ok(
        routes.some((route) => route.path === must),
        `${must} is a route`,
      );
    }
    assert.ok(existsSync(path.join(work, 'a', 'favicon.svg')), 'public files are exported');
    assert.ok(existsSync(path.join(r.clientDir, 'favicon.svg')), 'the client folder holds the public files');

    const publish = newPublish();
    let variants = 0;
    for (const route of routes) {
      const page = await r.render(route.path, publish);
      assert.equal(page.file, route.file);
      assert.equal(page.status, route.file === '404.html' ? 404 : 200, route.path);
      assert.ok(
        page.body.equals(await readFile(path.join(work, 'a', route.file))),
        `${route.path}: render() and the exported ${route.file} differ`,
      );
      assert.deepEqual(page.deps, exported.deps[route.path], route.path);
      for (const extra of page.files) {
        variants++;
        assert.match(extra.file, /^_astro\/.+(\.webp|-1200x630\.[0-9a-f]{10}\.jpg)$/);
        assert.ok((await readFile(extra.source)).equals(await readFile(path.join(work, 'a', extra.file))), extra.file);
      }
    }
    assert.ok(variants > 0, 'pages report their image variants');
  });

  it('records what each route read: collections for lists, home, sitemap and feeds; one item and what shows around it for an item page; one category for an archive; the site settings wherever they show', () => {
    const deps = exported.deps;
    assert.deepEqual(deps['/'], ['artworks', 'books', 'essays', 'settings']);
    assert.deepEqual(deps['/books'], ['books', 'settings']);
    assert.deepEqual(deps['/books/1'], ['books/1', 'near:books/1', 'settings']);
    assert.deepEqual(deps['/news/category/award'], ['category:news/award', 'settings']);
    // A redirect shows nothing of the settings but the site's address.
    assert.deepEqual(deps['/book/1'], ['books/1', 'settings:url']);
    assert.deepEqual(deps['/robots.txt'], ['settings:url']);
    assert.deepEqual(deps['/gallery'], ['artworks', 'settings']);
    assert.deepEqual(deps['/sitemap.xml'], ['books', 'essays', 'news', 'plays', 'settings']);
    assert.deepEqual(deps['/rss/news.xml'], ['news', 'settings']);
    assert.deepEqual(deps['/contact'], ['settings']);
    assert.deepEqual(deps['/og-image.png'], ['settings']);
    assert.deepEqual(deps['/ar/og-image.png'], ['settings']);
    const reviews = Object.keys(deps).find((p) => /^\/book\/\d+\/reviews$/.test(p));
    assert.deepEqual(deps[reviews], [`books/${reviews.split('/')[2]}`, 'settings']);
  });

  it('gives byte-identical sites for the same content: twice with the same image cache, and once with an empty one', async () => {
    await exportTo('b');
    const same = diff('a', 'b');
    assert.equal(same.status, 0, same.stdout + same.stderr);
    await exportTo('c', { cacheDir: path.join(work, 'cold-cache') });
    const cold = diff('a', 'c');
    assert.equal(cold.status, 0, cold.stdout + cold.stderr);
  });

  it('gives the same bytes with two renderer processes sharing the routes', async () => {
    const r = await renderer({ workers: 2 });
    await exportTo('two-workers', { renderer: r });
    const same = diff('a', 'two-workers');
    assert.equal(same.status, 0, same.stdout + same.stderr);
  });

  it('leaves cached image variants alone and links them into the site', async () => {
    const variant = (await readFile(path.join(work, 'a', 'gallery.html'), 'utf8')).match(/\/(_astro\/[^"\s]+\.webp)/)[1];
    const cached = path.join(cacheDir, 'images', path.basename(variant));
    const before = await stat(cached);
    await exportTo('d');
    assert.equal((await stat(cached)).mtimeMs, before.mtimeMs);
    assert.equal((await stat(path.join(work, 'd', variant))).ino, before.ino);
  });
});

describe('startRenderer', { skip }, () => {
  it('reads the API once per publish id: the same id keeps what it read, a new one sees the edit', async () => {
    const r = await renderer();
    const books = (await stack.call('GET', '/api/books')).body;
    const book = books[0];
    const first = newPublish();
    assert.match((await r.render(`/books/${book.id}`, first)).body.toString(), new RegExp(book.title));
    const edited = await stack.call('PATCH', `/api/books/${book.id}`, { token, body: { title: 'A Title Edited While Rendering' } });
    assert.equal(edited.status, 200);
    assert.doesNotMatch((await r.render(`/books/${book.id}`, first)).body.toString(), /A Title Edited While Rendering/);
    const page = await r.render(`/books/${book.id}`, newPublish());
    assert.match(page.body.toString(), /A Title Edited While Rendering/);
    assert.deepEqual(page.deps, [`books/${book.id}`, `near:books/${book.id}`, 'settings']);
  });

  it('a list page keeps the cards of unchanged books between publishes: the same bytes and image variants as a new renderer, and the edit shown', async () => {
    const r = await renderer();
    const first = await r.render('/books', newPublish());
    assert.ok(first.files.length > 0, 'the covers have image variants');
    const again = await r.render('/books', newPublish());
    assert.ok(again.body.equals(first.body), 'a second publish of the same content gives the same bytes');
    assert.deepEqual(again.files, first.files, 'kept cards still report their image variants');
    const book = (await stack.call('GET', '/api/books')).body.find((b) => b.coverImage);
    assert.equal(
      (await stack.call('PATCH', `/api/books/${book.id}`, { token, body: { title: 'A Card Title Edited Between Publishes' } })).status,
      200,
    );
    const edited = await r.render('/books', newPublish());
    assert.match(edited.body.toString(), /A Card Title Edited Between Publishes/);
    assert.ok(!edited.body.toString().includes(`>${book.title}<`), 'the old title is gone');
    const fresh = await (await renderer()).render('/books', newPublish());
    assert.ok(edited.body.equals(fresh.body), 'kept and new cards give the bytes a new renderer gives');
    assert.deepEqual(edited.files, fresh.files);
  });

  it('fetches each variant from the API once into the cache and never again: a later render links the same file, asking nothing', async () => {
    const play = (await stack.call('GET', '/api/plays')).body.find((p) => p.image?.startsWith('/uploads/'));
    assert.ok(play, 'a play with an uploaded image');
    // The API behind a proxy that counts what the renderer asks of it.
    const asked = [];
    const proxy = http.createServer((req, res) => {
      asked.push(req.url);
      req.pipe(
        http.request(new URL(req.url, stack.url), { method: req.method, headers: req.headers }, (up) => {
          res.writeHead(up.statusCode, up.headers);
          up.pipe(res);
        }),
      );
    });
    await new Promise((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => proxy.close(resolve)));
    const r = await renderer({ apiUrl: `http://127.0.0.1:${proxy.address().port}`, cacheDir: path.join(work, 'counted-cache') });
    const variantsAsked = () => asked.filter((u) => u.startsWith('/uploads/'));

    // The play's search entry needs its smallest variant; its page needs that one, wider ones and its share card.
    const shard = await r.render('/search-index/plays.json', newPublish());
    const stem = path.posix
      .basename(play.image)
      .replace(/\.[^.]*$/, '')
      .replace(/[^A-Za-z0-9_-]+/g, '-');
    const thumb = shard.files.find((f) => f.file.startsWith(`_astro/${stem}-`));
    assert.ok(thumb, 'the search entry reports the image variant');
    assert.ok(
      variantsAsked().every((u) => u.startsWith('/uploads/_variants/')),
      `only stored variants are fetched, never an original: ${variantsAsked().join(' ')}`,
    );
    const site = path.join(work, 'counted-site');
    await mkdir(path.join(site, '_astro'), { recursive: true });
    await linkOrCopy(thumb.source, path.join(site, thumb.file));
    asked.length = 0;
    const page = await r.render(`/plays/${play.id}`, newPublish());
    assert.ok(
      page.files.some((f) => f.file === thumb.file && f.source === thumb.source),
      'the page shows the same variant',
    );
    assert.ok(!asked.some((u) => u.endsWith(path.posix.basename(thumb.file))), 'the cached variant is not fetched again');
    assert.ok(variantsAsked().length > 0, 'the wider variants and the card are fetched');
    assert.equal(
      (await stat(thumb.source)).ino,
      (await stat(path.join(site, thumb.file))).ino,
      'the cached variant is still the file in the site',
    );
    asked.length = 0;
    await r.render(`/plays/${play.id}`, newPublish());
    assert.deepEqual(variantsAsked(), [], 'a later publish fetches nothing');
  });

  it('a render whose variant downloads hang fails at its time limit, and the renderer renders again once they answer', async () => {
    // The API behind a gate that holds every download of a variant until the test lets it through.
    const held = [];
    let gated = true;
    let heldChanged = () => {};
    const proxy = http.createServer((req, res) => {
      const forward = () =>
        req.pipe(
          http.request(new URL(req.url, stack.url), { method: req.method, headers: req.headers }, (up) => {
            res.writeHead(up.statusCode, up.headers);
            up.pipe(res);
          }),
        );
      if (!gated || !req.url.startsWith('/uploads/_variants/')) return forward();
      held.push(forward);
      heldChanged();
    });
    await new Promise((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => proxy.close(resolve)));
    const firstHeld = new Promise((resolve) => {
      heldChanged = () => held.length && resolve();
    });
    const stuck = await renderer({
      apiUrl: `http://127.0.0.1:${proxy.address().port}`,
      cacheDir: path.join(work, 'stuck-cache'),
      timeoutMs: 3000,
    });
    const page = stuck.render('/books', newPublish());
    await firstHeld;
    await assert.rejects(page, { message: 'Rendering /books took longer than 3 s.' });
    gated = false;
    for (const forward of held) forward();
    const again = await stuck.render('/books', newPublish());
    assert.equal(again.status, 200);
    assert.ok(
      again.files.some((f) => f.file.endsWith('.webp')),
      'the covers have their variants',
    );
  });

  it('with an output file writes the bytes itself, only when the file it may match holds other bytes (same size or not)', async () => {
    const r = await renderer();
    const publish = newPublish();
    const page = await r.render('/books', publish);
    const out = (name) => path.join(work, `output-${name}`);
    const first = await r.render('/books', publish, { output: { file: out('first') } });
    assert.equal(first.body, null);
    assert.equal(first.written, true);
    assert.ok((await readFile(out('first'))).equals(page.body), 'the file holds the bytes render() gives');

    const same = await r.render('/books', publish, { output: { file: out('same'), sameAs: out('first') } });
    assert.equal(same.written, false);
    assert.ok(!existsSync(out('same')), 'nothing is written when the bytes are there already');

    // One byte changed near the end, the size kept: the file must be read to its end.
    const altered = Buffer.from(page.body);
    altered[altered.length - 10] ^= 1;
    await writeFile(out('altered'), altered);
    const differs = await r.render('/books', publish, { output: { file: out('differs'), sameAs: out('altered') } });
    assert.equal(differs.written, true);
    assert.ok((await readFile(out('differs'))).equals(page.body));
    const missing = await r.render('/books', publish, { output: { file: out('missing'), sameAs: out('no-such-file') } });
    assert.equal(missing.written, true);
  });
  it('a preview render reads the answers it is given instead of the API, and shares nothing with a publish', async () => {
    const r = await renderer();
    const books = (await stack.call('GET', '/api/books')).body;
    const book = books[0];
    const publish = newPublish();
    assert.match((await r.render(`/books/${book.id}`, publish)).body.toString(), new RegExp(book.title));
    const draft = books.map((b) => (b.id === book.id ? { ...b, title: 'A Draft Nobody Saved' } : b));
    const preview = await r.render(`/books/${book.id}`, publish, { overrides: { '/api/books': draft } });
    assert.match(preview.body.toString(), /A Draft Nobody Saved/);
    assert.match((await r.render('/books', null, { overrides: { '/api/books': draft } })).body.toString(), /A Draft Nobody Saved/);
    // The publish's answers are untouched, and the API was never changed.
    assert.doesNotMatch((await r.render(`/books/${book.id}`, publish)).body.toString(), /A Draft Nobody Saved/);
    assert.doesNotMatch((await r.render(`/books/${book.id}`, newPublish())).body.toString(), /A Draft Nobody Saved/);
  });

  it('renders an item whose id is 404 and a category named like a page (Books) at their own addresses, in every language', async () => {
    const r = await renderer();
    const books = (await stack.call('GET', '/api/books')).body;
    const essays = (await stack.call('GET', '/api/essays')).body;
    const overrides = {
      '/api/books': [...books, { ...books[0], id: 404, title: 'The Book Numbered 404' }],
      '/api/essays': [...essays, { ...essays[0], id: 404, title: 'An Essay on Books', category: 'Books', translations: {} }],
    };
    for (const prefix of ['', '/ar']) {
      for (const [route, text] of [
        [`${prefix}/books/404`, /The Book Numbered 404/],
        [`${prefix}/essays/404`, /An Essay on Books/],
        [`${prefix}/essays/category/books-category`, /An Essay on Books/],
      ]) {
        const page = await r.render(route, null, { overrides });
        assert.equal(page.status, 200, route);
        assert.match(page.body.toString(), text, route);
      }
    }
    // The Arabic not-found page is still there, Arabic.
    const notFound = await r.render('/ar/404', null, { overrides });
    assert.equal(notFound.file, 'ar/404.html');
    assert.match(notFound.body.toString(), /<html[^>]* lang="ar"/);
  });

  it('a page whose picture is a web address shares that picture as it is (its size unknown)', async () => {
    const r = await renderer();
    const books = (await stack.call('GET', '/api/books')).body;
    const overrides = { '/api/books': books.map((b, i) => (i === 0 ? { ...b, coverImage: 'https://images.example.org/cover.jpg' } : b)) };
    const html = (await r.render(`/books/${books[0].id}`, null, { overrides })).body.toString();
    assert.match(html, /<meta property="og:image" content="https:\/\/images\.example\.org\/cover\.jpg">/);
    assert.match(html, /<meta name="twitter:image" content="https:\/\/images\.example\.org\/cover\.jpg">/);
    assert.doesNotMatch(html, /og:image:width/);
  });

  it('answers 404 for an item the content no longer has, with the file it leaves behind, and lists it no more', async () => {
    const r = await renderer();
    const created = await stack.call('POST', '/api/essays', {
      token,
      body: { title: 'An Essay To Remove', excerpt: 'Short.', content: 'Body.' },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const route = `/essays/${created.body.id}`;
    assert.equal((await r.render(route, newPublish())).status, 200);
    assert.equal((await stack.call('PATCH', route.replace('/essays', '/api/essays'), { token, body: { isDeleted: true } })).status, 200);
    const publish = newPublish();
    const gone = await r.render(route, publish);
    assert.equal(gone.status, 404);
    assert.equal(gone.file, `essays/${created.body.id}.html`);
    assert.deepEqual(gone.deps, [`essays/${created.body.id}`]);
    assert.ok(!(await r.routes(publish)).some((x) => x.path === route));
    await assert.rejects(r.render('/no-such-page', publish), /Rendering \/no-such-page failed: no page of the site has this address/);
    // One page file serves every language (pages/[...lang]/): a first segment that is no language's is no page.
    await assert.rejects(r.render('/xx/books', publish), /Rendering \/xx\/books failed: no page of the site has this address/);
    await assert.rejects(r.render('/ar/ar/books', publish), /no page of the site has this address/);
  });

  it('fails a render loudly when the API cannot be reached, and keeps rendering afterwards', async () => {
    const r = await renderer({ apiUrl: 'http://127.0.0.1:9' });
    await assert.rejects(
      r.render('/books', newPublish()),
      /Rendering \/books failed: Site build: the API at http:\/\/127\.0\.0\.1:9 is unreachable/,
    );
    await assert.rejects(r.routes(newPublish()), /Listing the routes failed: .*unreachable/);
    // The renderer still answers (every route reads the API, so each says it cannot be reached).
    await assert.rejects(r.render('/og-image.png', newPublish()), /Rendering \/og-image\.png failed: .*unreachable/);
  });

  it('refuses a folder without a renderer, and a stopped renderer says so', async () => {
    await assert.rejects(
      startRenderer({ rendererDir: path.join(work, 'nothing'), apiUrl: stack.url, cacheDir }),
      /No renderer in .*nothing/,
    );
    const r = await renderer();
    await r.stop();
    await assert.rejects(r.render('/', newPublish()), /The renderer process has stopped/);
  });
});

describe('newsletter: the subscribe form and pages', { skip }, () => {
  const PAGES = {
    'check-inbox': ['Check your inbox', 'تحقّق من بريدك'],
    confirmed: ['Subscription confirmed', 'تمّ تأكيد الاشتراك'],
    'already-subscribed': ['You are already subscribed', 'أنت مشترك بالفعل'],
    'link-invalid': ['This link does not work', 'هذا الرابط لا يعمل'],
    unsubscribed: ['You have been unsubscribed.', 'تمّ إلغاء اشتراكك.'],
    error: ['Your subscription could not be made', 'تعذّر إتمام اشتراكك'],
    preferences: ['Newsletter preferences', 'إعدادات النشرة البريدية'],
  };
  const forms = (html) => [...html.matchAll(/<form class="newsletter-form"[^>]*>[\s\S]*?<\/form>/g)].map((m) => m[0]);
  const attr = (markup, selector) => new RegExp(`${selector}[^>]*?value="([^"]*)"`).exec(markup)?.[1];
  const selected = (form) => /<option value="(\w+)" selected>/.exec(form)?.[1];

  it('publishes every newsletter page in both languages: noindex, its texts, a link home, the settings its only read, out of the sitemap', async () => {
    const r = await renderer();
    const publish = newPublish();
    const routes = await r.routes(publish);
    for (const [name, [en, ar]] of Object.entries(PAGES)) {
      for (const lang of ['en', 'ar']) {
        const route = `${lang === 'ar' ? '/ar' : ''}/newsletter/${name}`;
        const listed = routes.find((x) => x.path === route);
        assert.deepEqual(listed, { path: route, file: `${route.slice(1)}.html` });
        const page = await r.render(route, publish);
        const html = page.body.toString();
        assert.equal(page.status, 200, route);
        assert.deepEqual(page.deps, ['settings'], route);
        assert.match(html, /<meta name="robots" content="noindex">/, route);
        assert.ok(html.includes(ar), `${route} has the Arabic title`);
        if (lang === 'en') {
          assert.ok(html.includes(`<span data-lang="en" lang="en">${en}</span>`), `${route} has the English title`);
        } else {
          assert.match(html, /<html lang="ar" dir="rtl"/, route);
          assert.ok(html.includes(`<title>${ar} | `), `${route} has the Arabic title`);
        }
        if (name !== 'preferences') assert.match(html, new RegExp(`<a class="button" href="${lang === 'ar' ? '/ar/' : '/'}">`), route);
      }
    }
    const sitemap = (await r.render('/sitemap.xml', publish)).body.toString();
    assert.ok(!sitemap.includes('/newsletter'), 'the sitemap leaves the newsletter pages out');
  });

  it('the preferences page loads its island, and says without JavaScript that it needs it and that the unsubscribe link of a mail works without', async () => {
    const r = await renderer();
    for (const route of ['/newsletter/preferences', '/ar/newsletter/preferences']) {
      const html = (await r.render(route, newPublish())).body.toString();
      assert.match(html, /<astro-island[^>]*component-url="[^"]*newsletter-preferences[^"]*"[^>]*client="load"/, route);
      const noscript = /<noscript>([\s\S]*?)<\/noscript>/.exec(html)?.[1] ?? '';
      assert.ok(
        noscript.includes(
          'تحتاج هذه الصفحة إلى جافاسكربت، وهي معطّلة في متصفحك. لإلغاء الاشتراك من دونها استخدم رابط إلغاء الاشتراك الذي يعرضه برنامج البريد في أعلى كل رسالة منّا.',
        ),
        route,
      );
      if (route.startsWith('/newsletter'))
        assert.ok(
          noscript.includes(
            'This page needs JavaScript, which is turned off in your browser. To leave the newsletter without it, use the unsubscribe link your e-mail program shows at the top of each of our e-mails.',
          ),
        );
    }
  });

  it('every page has the subscribe form in its footer, and essays and news pages one after the article: per language on the specification’s addresses, Arabic on /ar/, no script inside', async () => {
    const r = await renderer();
    const publish = newPublish();
    const essay = (await stack.call('GET', '/api/essays')).body[0];
    const news = (await stack.call('GET', '/api/news')).body[0];
    const expected = {
      '/': ['en', 'ar'],
      '/ar': ['ar'],
      '/books': ['en', 'ar'],
      '/contact': ['en', 'ar'],
      '/newsletter/confirmed': ['en', 'ar'],
      '/ar/newsletter/preferences': ['ar'],
      [`/essays/${essay.id}`]: ['en', 'ar', 'en', 'ar'],
      [`/ar/essays/${essay.id}`]: ['ar', 'ar'],
      [`/news/${news.id}`]: ['en', 'ar', 'en', 'ar'],
      [`/ar/news/${news.id}`]: ['ar', 'ar'],
    };
    for (const [route, langs] of Object.entries(expected)) {
      const html = (await r.render(route, publish)).body.toString();
      const found = forms(html);
      assert.deepEqual(
        found.map((form) => attr(form, 'name="lang"')),
        langs,
        `${route}: the forms' page language`,
      );
      const footer = html.slice(html.indexOf('<footer'));
      assert.equal(forms(footer).length, route.startsWith('/ar') ? 1 : 2, `${route}: the footer has the form`);
      for (const form of found) {
        const lang = attr(form, 'name="lang"');
        assert.match(form, /method="post" action="\/api\/newsletter\/subscribe"/);
        assert.equal(selected(form), lang, `${route}: the mail language defaults to the form's`);
        assert.equal(/ data-lang="(\w+)"/.exec(form)?.[1], route.startsWith('/ar') ? undefined : lang, route);
        assert.match(form, /<div class="newsletter-website" aria-hidden="true">.*name="website" tabindex="-1" autocomplete="off">/);
        assert.doesNotMatch(form, /<script|astro-island/);
      }
    }
  });
});

describe('buildRenderer and codeFingerprint', { skip }, () => {
  it('rejects with the last lines of the build log', async () => {
    await assert.rejects(buildRenderer({ outDir: path.join(work, 'broken'), env: { ...env, SITE_URL: 'not a url' } }), (error) => {
      assert.match(error.message, /^The renderer build failed \(exit code 1\):\n/);
      assert.ok(error.tail.length > 0);
      return true;
    });
  });

  it('is the same for the same inputs, and changes with what the site shows but not with where things are', async () => {
    const base = { PATH: process.env.PATH, SITE_URL: 'https://example.org', SITE_AUTHOR_NAME: 'A' };
    const fingerprint = await codeFingerprint({ env: base });
    assert.match(fingerprint, /^[0-9a-f]{64}$/);
    assert.equal(await codeFingerprint({ env: { ...base } }), fingerprint);
    assert.equal(
      await codeFingerprint({
        env: { ...base, SITE_OUT_DIR: '/x', SITE_CACHE_DIR: '/y', SITE_API_URL: 'http://z', SITE_RENDERER_DIR: '/r', HOME: '/h' },
      }),
      fingerprint,
    );
    assert.notEqual(await codeFingerprint({ env: { ...base, SITE_AUTHOR_NAME: 'B' } }), fingerprint);
    assert.notEqual(await codeFingerprint({ env: { ...base, SITE_URL: 'https://example.com' } }), fingerprint);
    assert.notEqual(await codeFingerprint({ env: { ...base, SITE_CONTACT_EMAIL: 'a@example.org' } }), fingerprint);
  });
});

describe('feeds', { skip }, () => {
  // A feed reader parses the XML, then reads a description (and, some readers, a title) as HTML.
  const asReader = async (xml) => {
    const { JSDOM } = await import('jsdom');
    const feed = new JSDOM(xml, { contentType: 'text/xml' }).window.document;
    assert.equal(feed.querySelector('parsererror'), null, 'the feed is well-formed XML');
    return [...feed.querySelectorAll('item')].map((item) => {
      const html = (name) => JSDOM.fragment(item.querySelector(name)?.textContent ?? '');
      return { title: html('title'), description: html('description'), link: item.querySelector('link')?.textContent };
    });
  };

  it('stays well-formed XML when a text holds a control character (as an import may bring)', async () => {
    const r = await renderer();
    const essays = (await stack.call('GET', '/api/essays')).body;
    const overrides = {
      '/api/essays': essays.map((e, i) =>
        i === 0 ? { ...e, title: 'Form\ffeed \u0001title', excerpt: 'An\u000bexcerpt', content: 'Body\u0008.' } : e,
      ),
    };
    for (const feed of ['/rss/essays.xml', '/ar/rss/essays.xml']) {
      const items = await asReader((await r.render(feed, null, { overrides })).body.toString());
      assert.ok(
        items.some((item) => item.title.textContent === 'Formfeed title'),
        feed,
      );
    }
  });

  it("keeps an author's markup as text in every feed of every language: a reader finds no element the author did not make", async () => {
    const script = `<script>alert('X')</script> <img src=x onerror=alert(1)> a < b & c`;
    const essay = await stack.call('POST', '/api/essays', {
      token,
      body: {
        title: 'Feed <b>essay</b> & co',
        excerpt: script,
        content: 'Body.',
        translations: { ar: { title: 'مقالة <i>الخلاصة</i>', excerpt: `${script} مقتطف` } },
      },
    });
    assert.equal(essay.status, 201, JSON.stringify(essay.body));
    const news = await stack.call('POST', '/api/news', {
      token,
      body: { title: 'Feed <em>news</em>', excerpt: script, content: 'Body.', category: 'award', publishedDate: '2025-01-02' },
    });
    assert.equal(news.status, 201, JSON.stringify(news.body));
    const r = await renderer();
    const publish = newPublish();
    const checked = [];
    for (const [feed, id] of [
      ['/rss/essays.xml', essay.body.id],
      ['/ar/rss/essays.xml', essay.body.id],
      ['/rss/news.xml', news.body.id],
      ['/ar/rss/news.xml', news.body.id],
    ]) {
      const items = await asReader((await r.render(feed, publish)).body.toString());
      // Linked to the item's page in the feed's language, at the address the site serves (no trailing slash).
      const page = `${feed.startsWith('/ar/') ? '/ar' : ''}/${feed.split('/').at(-1).replace('.xml', '')}/${id}`;
      const item = items.find((i) => i.link && new URL(i.link).pathname === page);
      assert.ok(item, `${feed} links the new item to ${page}: ${items.map((i) => i.link).join(', ')}`);
      for (const part of ['title', 'description']) {
        assert.equal(item[part].querySelectorAll('*').length, 0, `${feed}: the ${part} read as HTML has no element`);
      }
      assert.ok(item.description.textContent.startsWith(`<script>alert('X')</script> <img src=x onerror=alert(1)> a < b & c`), feed);
      checked.push(item.title.textContent);
    }
    assert.deepEqual(checked, ['Feed <b>essay</b> & co', 'مقالة <i>الخلاصة</i>', 'Feed <em>news</em>', 'Feed <em>news</em>']);
  });
});
