// Preview and scheduled publishing against the real API, the real builder (renderer mode) and the
// site's own templates: a preview of an unpublished book shows its content to an admin only and
// leaves the live site as it was; a news item scheduled two seconds ahead goes live by itself, not
// before. Needs the built API (`npm run build`).
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

import { sign, SIGNATURE_HEADER } from '@portfolio/contract/webhook';

import { SECRET, snapshot, startBuilder, startPublishingStack } from './support/publish-harness.mjs';
import { until } from './support/wait.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const API_ENTRY = path.join(ROOT, 'admin-api/dist/src/main.js');
const skip = !existsSync(API_ENTRY) && !process.env.CI && `no built API at ${API_ENTRY} (run npm run build)`;

/** Polls a condition (never a fixed sleep standing in for readiness). */

describe('preview and scheduled publishing on the real stack', { skip }, () => {
  let work;
  let p;
  before(async () => {
    work = await mkdtemp(path.join(os.tmpdir(), 'preview-test-'));
    p = await startPublishingStack({ varDir: path.join(work, 'var') });
    await p.published();
  });
  after(async () => {
    await p?.close();
    if (work) await rm(work, { recursive: true, force: true });
  });

  const preview = (body, token) =>
    fetch(`${p.stack.url}/api/admin/preview`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });

  it('a preview of an unpublished book shows its content to an admin, in English and Arabic, and 401 to everyone else; the live site does not change', async () => {
    const book = await p.call('POST', '/api/books', {
      title: 'Saved draft',
      description: 'Saved words',
      year: 2026,
      publisher: 'House',
      published: false,
    });
    await p.published();
    const live = p.b.builder.live.id;
    const before = await snapshot(p.b.config.liveLink + path.sep);
    const publishes = p.b.publishes.length;
    assert.ok(!existsSync(path.join(p.b.config.liveLink, `books/${book.id}.html`)), 'an unpublished book has no page');

    const body = {
      kind: 'books',
      id: book.id,
      item: {
        title: 'Unsaved preview title',
        description: 'Words only the preview shows',
        year: 2026,
        publisher: 'House',
        published: false,
      },
    };
    const started = Date.now();
    const res = await preview(body, p.token);
    const tookMs = Date.now() - started;
    assert.equal(res.status, 200, await res.clone().text());
    assert.equal(res.headers.get('cache-control'), 'private, no-store');
    assert.equal(res.headers.get('x-robots-tag'), 'noindex, nofollow');
    const answer = await res.json();
    const page = (route) => answer.pages.find((pg) => pg.path === route);
    for (const route of [`/books/${book.id}`, `/ar/books/${book.id}`]) {
      assert.equal(page(route)?.status, 200, route);
      assert.match(page(route).html, /Unsaved preview title/, route);
      assert.match(page(route).html, /Words only the preview shows/, route);
      assert.match(page(route).html, /<meta name="robots" content="noindex, nofollow">/, route);
    }
    assert.match(page(`/ar/books/${book.id}`).html, /<html[^>]*lang="ar"/);
    assert.match(page('/books').html, /Unsaved preview title/, 'in the list it will appear on');
    assert.match(page('/ar/books').html, /Unsaved preview title/);
    assert.deepEqual(
      answer.pages.filter((pg) => pg.status !== 200).map((pg) => pg.path),
      [],
      'every page listed exists',
    );
    assert.equal(page(`/book/${book.id}/reviews`), undefined, 'no reviews page for a book without reviews');
    process.stdout.write(`# preview of 6 addresses (detail, list, home × 2 languages): ${tookMs} ms\n`);
    // With a review in the form, its reviews page is previewed too.
    const reviewed = await (
      await preview(
        { ...body, item: { ...body.item, reviews: ['{"title":"Preview review","url":"https://reviews.example/preview"}'] } },
        p.token,
      )
    ).json();
    for (const route of [`/book/${book.id}/reviews`, `/ar/book/${book.id}/reviews`]) {
      const pg = reviewed.pages.find((x) => x.path === route);
      assert.equal(pg?.status, 200, route);
      assert.match(pg.html, /Preview review/, route);
    }

    for (const token of [undefined, 'not-a-session']) {
      const refused = await preview(body, token);
      assert.equal(refused.status, 401);
      assert.deepEqual(await refused.json(), {
        statusCode: 401,
        message: 'Authentication required. Please sign in again.',
        messageKey: 'error.authenticationRequired',
      });
    }
    assert.equal((await p.stack.call('GET', `/api/books/${book.id}`)).status, 404, 'the API still hides it from visitors');
    assert.equal((await p.stack.call('GET', `/api/books/${book.id}`, { token: p.token })).body.title, 'Saved draft', 'nothing saved');

    // Nothing was published or written into the live version.
    assert.equal(p.b.publishes.length, publishes);
    assert.equal(p.b.builder.live.id, live);
    assert.deepEqual(await snapshot(p.b.config.liveLink + path.sep), before);
    assert.ok(!existsSync(path.join(p.b.config.liveLink, `books/${book.id}.html`)));
  });

  it('a news item scheduled two seconds ahead appears on the live site by itself, and not before', async () => {
    const due = Date.now() + 2000;
    const news = await p.call('POST', '/api/news', {
      title: 'Announced on the hour',
      excerpt: 'Soon',
      content: 'It is time.',
      category: 'award',
      publishAt: new Date(due).toISOString(),
    });
    const file = path.join(p.b.config.liveLink, `news/${news.id}.html`);
    // Before its time: anonymous readers of the API do not get it, and the publish of the save itself
    // (live well before the time on any machine this runs on) leaves it off the site.
    assert.equal((await p.stack.call('GET', `/api/news/${news.id}`)).status, 404);
    assert.ok(!(await p.stack.call('GET', '/api/news')).body.some((n) => n.id === news.id), 'not in the public list yet');
    await p.published();
    assert.ok(Date.now() < due, `the save's own publish took until ${Date.now() - due} ms after the time: cannot tell "not before"`);
    assert.ok(!existsSync(file), 'no page before its time');
    assert.doesNotMatch(readFileSync(path.join(p.b.config.liveLink, 'news.html'), 'utf8'), /Announced on the hour/);
    const appearedAt = await until('the scheduled news page on the live site', () => {
      if (!existsSync(file)) return false;
      return Date.now();
    });
    assert.ok(appearedAt >= due, `appeared ${due - appearedAt} ms before its time`);
    assert.match(readFileSync(file, 'utf8'), /Announced on the hour/);
    assert.match(readFileSync(path.join(p.b.config.liveLink, 'news.html'), 'utf8'), /Announced on the hour/);
    assert.equal((await p.stack.call('GET', `/api/news/${news.id}`)).status, 200);
    process.stdout.write(`# scheduled news live ${appearedAt - due} ms after its time\n`);
  });
});

describe("the builder's POST /hooks/preview", { skip }, () => {
  let work;
  let p;
  before(async () => {
    work = await mkdtemp(path.join(os.tmpdir(), 'preview-hook-test-'));
    p = await startPublishingStack({ varDir: path.join(work, 'var') });
    await p.published();
  });
  after(async () => {
    await p?.close();
    if (work) await rm(work, { recursive: true, force: true });
  });
  const post = (url, raw, signature = sign(SECRET, raw)) =>
    fetch(`${url}/hooks/preview`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: signature },
      body: raw,
    });

  it('refuses a bad signature, an old request and addresses that are not site paths', async () => {
    const body = (over = {}) => JSON.stringify({ sentAt: new Date().toISOString(), paths: ['/books'], overrides: {}, ...over });
    assert.equal((await post(p.b.url, body(), 'sha256=00')).status, 401);
    assert.equal((await post(p.b.url, body({ sentAt: new Date(Date.now() - 3_600_000).toISOString() }))).status, 401);
    assert.equal((await post(p.b.url, body({ paths: ['https://example.com/'] }))).status, 400);
    assert.equal((await post(p.b.url, body({ paths: [] }))).status, 400);
  });

  it("renders with the given answers in place of the API's, and answers 404 for an address the site has no page for", async () => {
    const books = (await p.stack.call('GET', '/api/books')).body;
    const changed = books.map((b, i) => (i === 0 ? { ...b, title: 'Only in this preview' } : b));
    const res = await post(
      p.b.url,
      JSON.stringify({
        sentAt: new Date().toISOString(),
        paths: [`/books/${books[0].id}`, '/no-such-page'],
        overrides: { '/api/books': changed },
      }),
    );
    assert.equal(res.status, 200);
    const { pages } = await res.json();
    assert.match(pages[0].html, /Only in this preview/);
    assert.equal(pages[1].status, 404);
    assert.doesNotMatch(readFileSync(path.join(p.b.config.liveLink, `books/${books[0].id}.html`), 'utf8'), /Only in this preview/);
  });

  it('the image variants of a new upload, which the live site does not have yet, travel inside the preview page', async () => {
    const image = await p.upload('artworks', 900, 600, 7);
    // Made by the API as it arrives (not yet shown anywhere, so no publish waits for them).
    await p.variantsMadeOf(image);
    const body = { kind: 'artworks', item: { title: 'A painting not yet saved', medium: 'Oil', year: 2026, image } };
    const res = await fetch(`${p.stack.url}/api/admin/preview`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${p.token}` },
      body: JSON.stringify(body),
    });
    assert.equal(res.status, 200);
    const gallery = (await res.json()).pages.find((pg) => pg.path === '/gallery').html;
    assert.match(gallery, /A painting not yet saved/);
    assert.match(gallery, /data:image\/webp;base64,/);
    for (const [, file] of gallery.matchAll(/\/(_astro\/[^"\s,)]+\.webp)/g))
      assert.ok(existsSync(path.join(p.b.config.liveLink, file)), `${file} is served by the live site`);
  });

  it('answers 409 in command mode (no renderer to preview with)', async () => {
    const b = await startBuilder({ varDir: path.join(work, 'command'), apiUrl: p.stack.url, env: { BUILD_COMMAND: 'true' } });
    try {
      const res = await post(b.url, JSON.stringify({ sentAt: new Date().toISOString(), paths: ['/'], overrides: {} }));
      assert.equal(res.status, 409);
      assert.match((await res.json()).error, /command mode/);
    } finally {
      await b.close();
    }
  });
});
