// The builder in renderer mode (its default) against the real API and the real site code: targeted
// publishes re-render only what an edit touches and give the same bytes as a full export; unchanged
// files are shared with the previous version; failures fall back to a full publish and never touch
// `live`; a new code version is built and published in full. Needs the built API (`npm run build`).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { link, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

import { variantFile } from '@portfolio/contract/image-variants';
import { sign, statusHeaders } from '@portfolio/contract/webhook';

import { diffTrees as versionDiff, linkTree, syncFiles } from '../builder/site-publish.mjs';
import { startApiProxy } from './support/api-proxy.mjs';
import { diffTrees, randomEditor, SECRET, snapshot, startPublishingStack, storedVariantsPattern } from './support/publish-harness.mjs';
import { startS3Server } from './support/s3.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const API_ENTRY = path.join(ROOT, 'admin-api/dist/src/main.js');
const skip = !existsSync(API_ENTRY) && !process.env.CI && `no built API at ${API_ENTRY} (run npm run build)`;
const SEED = Number(process.env.PUBLISH_TEST_SEED ?? 20260101);
const ROUNDS = Number(process.env.PUBLISH_TEST_ROUNDS ?? 40);

let work;
const cleanups = [];
before(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), 'publish-test-'));
});
after(async () => {
  for (const fn of cleanups.reverse()) await fn();
  if (work) await rm(work, { recursive: true, force: true });
});

async function stackIn(name, options = {}) {
  const log = process.env.PUBLISH_TEST_LOG ? (line) => process.stderr.write(`[builder] ${line}\n`) : undefined;
  const p = await startPublishingStack({ varDir: path.join(work, name), log, ...options });
  cleanups.push(() => p.close());
  return p;
}
let exports = 0;
/**
 * The live tree against a full export of the same content (with its own, cold image cache): null when
 * byte-identical. Once every change is live, the variants of every picture shown included (published()).
 */
async function differsFromFullExport(p) {
  await p.published();
  const out = path.join(work, `export-${++exports}`);
  await p.exportNow(out, path.join(work, `export-cache-${exports}`));
  const result = diffTrees(p.b.config.liveLink + path.sep, out);
  await rm(out, { recursive: true, force: true });
  return result;
}
const liveDir = (p) => path.join(p.b.config.buildsDir, p.b.builder.live.id);
const lastPublish = (p) => p.b.publishes.at(-1);

describe('targeted publishes', { skip }, () => {
  let p;

  it('first start: builds the site code once and publishes everything, with a site map beside the version', async () => {
    // The demo content's changes, sent by the API as it starts, are the first request.
    p = await stackIn('main');
    const live = await p.published();
    // The first publish is the full one; the demo pictures whose variants the API made after it are
    // published by targeted ones (their image-variants changes).
    const [first, ...later] = p.b.publishes;
    assert.equal(first.mode, 'full');
    assert.equal(first.fullReason, 'no live version made by this run of the builder');
    assert.equal(first.ok, true);
    assert.ok(first.rendererBuildMs > 0, 'the renderer was built');
    for (const next of later) assert.equal(next.mode, 'targeted', JSON.stringify(next));
    assert.equal(live.ok, true);
    const fingerprint = await p.b.builder.renderers.fingerprint();
    assert.ok(existsSync(path.join(p.b.config.renderersDir, fingerprint, 'server', 'entry.mjs')));
    const map = JSON.parse(readFileSync(path.join(p.b.config.buildsDir, `${live.id}.deps.json`), 'utf8'));
    assert.equal(map.fingerprint, fingerprint);
    // The list reads the books, and (its header and footer) the site settings.
    assert.deepEqual([...map.routes.find((r) => r.path === '/books').deps].sort(), ['books', 'settings']);
    assert.ok(
      map.routes.some((r) => r.files.length > 0),
      'image variants are recorded per route',
    );
    assert.ok(!existsSync(path.join(liveDir(p), 'deps.json')), 'the map is not served');
    assert.equal(await differsFromFullExport(p), null);
  });

  it('an edit re-renders only the routes that read it; unchanged files are hard links to the previous version, which does not change', async () => {
    const before = p.b.builder.live;
    const previous = await snapshot(liveDir(p));
    const book = (await p.stack.call('GET', '/api/books')).body[0];
    p.proxy.requested.length = 0;
    await p.call('PATCH', `/api/books/${book.id}`, { title: 'A title fixed in the overlay' });
    const live = await p.published();
    assert.equal(live.mode, 'targeted', JSON.stringify(live));
    // It read the edited book, not whole collections again (the site settings are one small answer).
    const read = p.proxy.requested.filter((u) => u.startsWith('/api/') && !u.startsWith('/api/health'));
    assert.deepEqual([...new Set(read)].sort(), [`/api/books/${book.id}`, '/api/settings'], read.join(' '));
    assert.notEqual(live.id, before.id);
    assert.equal(readlinkSync(p.b.config.liveLink), path.join('builds', live.id));
    assert.match(readFileSync(path.join(p.b.config.liveLink, `books/${book.id}.html`), 'utf8'), /A title fixed in the overlay/);

    // Exactly the pages that show the book changed: its page, its redirect page, the lists that show it.
    assert.ok(live.changed.includes(`/books/${book.id}`), live.changed.join(' '));
    assert.ok(live.changed.includes('/books'));
    assert.ok(live.changed.includes('/'));
    assert.deepEqual(live.added, []);
    assert.deepEqual(live.removed, []);
    assert.equal(live.changedCount, live.changed.length);
    assert.ok(!live.changed.includes('/gallery'), 'a page that does not show books is untouched');
    assert.ok(live.rendered < live.routes, `rendered ${live.rendered} of ${live.routes} routes`);
    const full = JSON.parse(readFileSync(path.join(p.b.config.buildsDir, `${live.id}.paths.json`), 'utf8'));
    assert.deepEqual(full.changed, live.changed);
    // GET /status says what went live.
    const status = await (await fetch(`${p.b.url}/status`, { headers: statusHeaders(SECRET) })).json();
    for (const which of ['live', 'lastBuild']) {
      const s = status[which];
      assert.equal(s.id, live.id);
      assert.equal(s.mode, 'targeted');
      assert.deepEqual([s.added, s.changed, s.removed], [[], live.changed, []]);
      assert.deepEqual([s.addedCount, s.changedCount, s.removedCount], [0, live.changed.length, 0]);
      assert.ok(s.durationMs > 0);
      assert.equal(s.upToEventId, await p.contentVersion(), 'the newest outbox event it contains');
    }

    const now = await snapshot(liveDir(p));
    const changedFiles = new Set(
      live.changed.map(
        (route) =>
          JSON.parse(readFileSync(path.join(p.b.config.buildsDir, `${live.id}.deps.json`), 'utf8')).routes.find((r) => r.path === route)
            .file,
      ),
    );
    let linked = 0;
    for (const [file, entry] of now) {
      const old = previous.get(file);
      assert.ok(old, `${file} is new, but nothing was added`);
      if (changedFiles.has(file)) {
        assert.notEqual(entry.ino, old.ino, `${file} changed: a new file, not written through the link`);
        assert.notEqual(entry.sha256, old.sha256);
      } else {
        assert.equal(entry.ino, old.ino, `${file} is unchanged: the same inode as in the previous version`);
        linked++;
      }
    }
    assert.equal(now.size, previous.size);
    assert.ok(linked > 10);
    assert.deepEqual(
      await snapshot(path.join(p.b.config.buildsDir, before.id)),
      previous,
      'the previous version is byte for byte what it was',
    );
    assert.equal(await differsFromFullExport(p), null);
  });

  it("a change of the author's name leaves the redirect pages (they show only the site's address) alone; a change of the address renders them again", async () => {
    const live = () => JSON.parse(readFileSync(path.join(p.b.config.buildsDir, `${p.b.builder.live.id}.deps.json`), 'utf8'));
    const redirects = live().routes.filter((r) => /^(\/ar)?\/book\/\d+$/.test(r.path));
    assert.ok(redirects.length >= 2, 'the demo content has books');
    for (const r of redirects) assert.deepEqual([...r.deps].sort(), [`books/${r.path.split('/').at(-1)}`, 'settings:url'], r.path);
    const settings = await p.call('GET', '/api/admin/settings');

    await p.call('PATCH', '/api/admin/settings', { authorNameEn: 'A name changed in Settings' });
    const named = await p.published();
    assert.equal(named.mode, 'targeted', JSON.stringify(named));
    const showing = live().routes.filter((r) => r.deps.includes('settings')).length;
    assert.ok(showing < named.routes - redirects.length + 10, `${showing} of ${named.routes} routes show the settings`);
    assert.equal(named.rendered, showing, 'the pages that show the settings, not the redirects');
    assert.ok(named.changed.includes('/books'));
    assert.equal(await differsFromFullExport(p), null);

    await p.call('PATCH', '/api/admin/settings', { siteUrl: 'https://another-address.example' });
    const moved = await p.published();
    assert.equal(moved.mode, 'targeted', JSON.stringify(moved));
    for (const r of redirects) assert.ok(moved.changed.includes(r.path), `${r.path} names the new address`);
    const [redirect] = redirects;
    assert.match(
      readFileSync(path.join(p.b.config.liveLink, `${redirect.path.slice(1)}.html`), 'utf8'),
      /https:\/\/another-address\.example\/(ar\/)?books\/\d+"/,
    );
    assert.equal(await differsFromFullExport(p), null);

    await p.call('PATCH', '/api/admin/settings', { authorNameEn: settings.authorNameEn, siteUrl: settings.siteUrl });
    await p.published();
  });

  it(
    `the invariant: after ${ROUNDS} random edits (seed ${SEED}), each published by a targeted publish, live is byte-identical to a full export`,
    { timeout: 600_000 },
    async () => {
      const edit = await randomEditor(p, SEED);
      const done = [];
      const modes = { full: 0, targeted: 0 };
      const trees = new Set();
      for (let round = 1; round <= ROUNDS; round++) {
        done.push(await edit());
        const live = await p.published();
        assert.equal(live.ok, true);
        modes[live.mode]++;
        trees.add(live.tree);
        assert.equal(live.mode, 'targeted', `${done.at(-1)}: ${live.fullReason ?? ''} ${live.fallbackFrom?.error ?? ''}`);
        if (round % 10 === 0 || round === ROUNDS) {
          const difference = await differsFromFullExport(p);
          assert.equal(difference, null, `after ${round} edits (${done.join(', ')}):\n${difference}`);
        }
      }
      assert.equal(modes.targeted, ROUNDS);
      // Publishes start from the oldest kept version brought up to date, not from a new tree of links
      // to every file (the edit → live budget at 20,000 books, infra/bench/README.md).
      assert.ok(trees.has('recycled'), [...trees].join(' '));
      const covered = new Set(
        done.flatMap((d) => [d.split(' ')[0], d.split(' ')[1].split('/')[0], ...(d.split(' ')[2]?.split(',') ?? [])]),
      );
      for (const must of [
        'create',
        'update',
        'delete',
        'restore',
        'publish',
        'hard-delete',
        'books',
        'essays',
        'artworks',
        'news',
        'plays',
        'settings',
        // Moves in the lists' order and changes of category: next/related and the category archives.
        'year',
        'publishedDate',
        'category',
        'genre',
      ]) {
        assert.ok(covered.has(must), `the edits include ${must}: ${done.join(', ')}`);
      }
    },
  );

  it('merges the changes of requests that wait for a running publish into one targeted follow-up', async () => {
    const book = () => p.call('POST', '/api/books', { title: 'A book', description: 'd', year: 2020, publisher: 'p', published: true });
    const [first, second] = [await book(), await book()];
    const essay = await p.call('POST', '/api/essays', { title: 'An essay', excerpt: 'e', content: 'c', published: true });
    await p.published();
    // The publish of the first edit reads the edited book (or the whole list) and is held there.
    const gate = p.proxy.gate(new RegExp(`^/api/books(/${first.id})?(\\?|$)`));
    await p.call('PATCH', `/api/books/${first.id}`, { title: 'Held while a publish runs' });
    await gate.reached();
    const started = p.b.publishes.length;
    await p.call('PATCH', `/api/books/${second.id}`, { title: 'Second edit, queued' });
    await p.call('PATCH', `/api/essays/${essay.id}`, { title: 'Third edit, queued' });
    await p.b.when('the requests to queue', () => p.b.builder.pending?.changes?.length === 2);
    gate.open();
    const live = await p.published();
    assert.equal(p.b.publishes.length - started, 2, 'the running publish and one follow-up');
    assert.equal(live.mode, 'targeted');
    assert.ok(live.changed.includes(`/essays/${essay.id}`), live.changed.join(' '));
    // The second book's page is live with its edit: published by the follow-up, or already by the
    // held publish (the books are neighbours, so it renders the second one's page too, and a renderer
    // process that reads the whole list once the gate opens reads the second edit with it).
    assert.match(readFileSync(path.join(liveDir(p), `books/${second.id}.html`), 'utf8'), /Second edit, queued/);
    assert.equal(await differsFromFullExport(p), null);
  });

  it("a 'Publish now' renders every route again over the live version: only pages that differ are written, the files are a full export's; the next publish builds on it", async () => {
    const before = liveDir(p);
    const pages = (dir) =>
      readdirSync(dir, { recursive: true })
        .filter((f) => f.endsWith('.html'))
        .sort();
    // The live folder (and the next publish's, linked ahead from it) has come to hold a file that is
    // not the site's and lost an image variant.
    const variant = [...p.b.builder.versions.liveMap.variants.keys()][0];
    assert.ok(variant, 'the demo content shows pictures');
    await p.b.builder.versions.ahead?.ready;
    for (const dir of [before, p.b.builder.versions.ahead?.dir].filter(Boolean)) {
      writeFileSync(path.join(dir, 'stray.txt'), 'not part of the site');
      rmSync(path.join(dir, variant));
    }
    await p.call('POST', '/api/admin/publishing', {});
    const live = await p.b.when(
      'a full publish',
      () => !p.b.builder.current && lastPublish(p)?.reasons.includes('publish-now') && lastPublish(p),
    );
    assert.equal(live.mode, 'full');
    assert.equal(live.overLive, true, 'over the live version (this run made it, with this code)');
    assert.equal(live.rendered, live.routes, 'every route rendered');
    assert.deepEqual(
      [live.addedCount, live.changedCount, live.removedCount],
      [1, 0, 1],
      'no page differs from the targeted versions before it',
    );
    assert.deepEqual([live.added, live.removed], [[`/${variant}`], ['/stray.txt']]);
    const fullDir = liveDir(p);
    assert.ok(existsSync(path.join(fullDir, variant)), 'the variant is back');
    assert.notEqual(fullDir, before, 'a new version');
    assert.deepEqual(pages(fullDir), pages(before));
    assert.deepEqual(
      pages(fullDir).filter((f) => statSync(path.join(fullDir, f)).ino !== statSync(path.join(before, f)).ino),
      [],
      "no page was written again: each is the previous version's file",
    );
    assert.equal(await differsFromFullExport(p), null);

    // The next publish builds on the full one: targeted, its unchanged files links to the full
    // publish's, and the result still what a full export gives.
    const book = (await p.stack.call('GET', '/api/books')).body[0];
    await p.call('PATCH', `/api/books/${book.id}`, { title: 'Edited after a full publish' });
    const next = await p.published();
    assert.equal(next.mode, 'targeted');
    assert.equal(
      statSync(path.join(liveDir(p), 'gallery.html')).ino,
      statSync(path.join(fullDir, 'gallery.html')).ino,
      "an unchanged page is a link to the full publish's file",
    );
    assert.equal(await differsFromFullExport(p), null);
  });

  it('a targeted publish that fails leaves live alone and falls back to a full publish', async () => {
    const book = await p.call('POST', '/api/books', { title: 'A book', description: 'd', year: 2020, publisher: 'p', published: true });
    await p.published();
    const before = p.b.builder.live;
    const previous = await snapshot(liveDir(p));
    const linkTargets = new Set([readlinkSync(p.b.config.liveLink)]);
    p.b.builder.on('build-start', () => linkTargets.add(readlinkSync(p.b.config.liveLink)));
    // The targeted publish's one read of the book (or of the collection) fails; the full publish reads again.
    p.proxy.fail(new RegExp(`^/api/books(/${book.id})?(\\?|$)`), 1);
    await p.call('PATCH', `/api/books/${book.id}`, { title: 'Published by the fallback' });
    const live = await p.published();
    assert.equal(live.mode, 'full');
    assert.equal(live.fallbackFrom.mode, 'targeted');
    assert.match(live.fallbackFrom.error, /500/);
    assert.deepEqual(
      live.changed.filter((x) => x.startsWith(`/books/${book.id}`)),
      [`/books/${book.id}`],
    );
    assert.deepEqual([...linkTargets], [path.join('builds', before.id)], 'live pointed at the old version until the new one was complete');
    assert.deepEqual(await snapshot(path.join(p.b.config.buildsDir, before.id)), previous, 'the old version was not touched');
    assert.equal(await differsFromFullExport(p), null);
  });

  // Image variants are made by the API and fetched over HTTP while a page renders: what a page and the
  // search index name must not depend on whether that read happened to work at that moment.
  const artworkIn = (p, id) =>
    JSON.parse(readFileSync(path.join(p.b.config.liveLink, 'search-index', 'artworks.json'), 'utf8')).items.find((i) => i.id === id);

  it('an upload whose variants are missing at its first render (done, yet not in the storage) is named as it is, and by its variant once they are there, in the search index too', async () => {
    const image = await p.upload('artworks', 320, 240, 901);
    assert.equal((await p.variantsMadeOf(image))[0].state, 'done');
    // The first publish that shows it finds none of its variants (a bucket catching up).
    p.proxy.fail(storedVariantsPattern(image), -1, 404);
    const art = await p.call('POST', '/api/artworks', { title: 'Shown before its variants', medium: 'ink', year: 2020, image });
    await p.published();
    assert.equal(artworkIn(p, art.id).image, new URL(image, 'http://x').pathname, 'the original, as the gallery shows it');
    assert.equal(await differsFromFullExport(p), null, 'a full export finding no variant names the same');

    // The variants are there now; an edit of another artwork re-renders the gallery and the index.
    p.proxy.clear();
    const other = (await p.stack.call('GET', '/api/artworks')).body.find((a) => a.id !== art.id);
    await p.call('PATCH', `/api/artworks/${other.id}`, { title: 'Another artwork, edited' });
    const live = await p.published();
    assert.equal(live.mode, 'targeted');
    assert.match(artworkIn(p, art.id).image, /^\/_astro\/.*-320w\.[0-9a-f]{10}\.webp$/);
    assert.equal(await differsFromFullExport(p), null);
  });

  it('a variant the API fails to serve fails the render (never the original in its place); the fallback full publish names its variants', async () => {
    const image = await p.upload('artworks', 330, 240, 902);
    await p.variantsMadeOf(image);
    // The first read of one of its variants fails (an API restarting, a connection dropped); the next ones work.
    p.proxy.fail(storedVariantsPattern(image), 1);
    const art = await p.call('POST', '/api/artworks', { title: 'Its first read fails', medium: 'ink', year: 2021, image });
    const live = await p.published();
    assert.equal(live.mode, 'full');
    assert.match(live.fallbackFrom?.error ?? '', /could not be read.*500/);
    assert.match(artworkIn(p, art.id).image, /^\/_astro\/.*-330w\.[0-9a-f]{10}\.webp$/);
    assert.equal(await differsFromFullExport(p), null);
  });

  it('a publish whose renders hang is stopped (the builder keeps answering), live is untouched, and the next publish is a full one', async () => {
    const item = await p.call('POST', '/api/news', {
      title: 'A news item',
      excerpt: 'e',
      content: 'c',
      category: 'other',
      published: true,
    });
    await p.published();
    const before = p.b.builder.live;
    const previous = await snapshot(liveDir(p));
    p.b.builder.renderers.o.renderTimeoutMs = 1500;
    await p.b.builder.renderers.discard();
    p.proxy.hang(/^\/api\/news/);
    await p.call('PATCH', `/api/news/${item.id}`, { title: 'Never rendered while the API hangs' });
    const failed = await p.b.when('the publish to fail', () => lastPublish(p)?.ok === false && !p.b.builder.current && lastPublish(p));
    assert.match(failed.error, /longer than 2 s|took longer/);
    assert.equal(failed.fallbackFrom?.mode, 'targeted', 'the targeted publish failed first, then the full one');
    const status = await fetch(`${p.b.url}/healthz`);
    assert.equal(status.status, 200);
    assert.equal(p.b.builder.live.id, before.id);
    assert.equal(readlinkSync(p.b.config.liveLink), path.join('builds', before.id));
    assert.deepEqual(await snapshot(liveDir(p)), previous);
    assert.equal(existsSync(path.join(p.b.config.buildsDir, failed.id)), false, 'the failed folder is removed');

    p.proxy.clear();
    p.b.builder.renderers.o.renderTimeoutMs = 60_000;
    await p.b.builder.renderers.discard();
    await p.call('PATCH', `/api/news/${item.id}`, { excerpt: 'The API answers again' });
    const live = await p.published();
    assert.equal(live.mode, 'full');
    assert.equal(live.fullReason, 'the previous publish failed');
    // Every route rendered over the live version: the change the failed publish carried is there
    // too, though this request names only the later one; pages that did not change are not written.
    assert.equal(live.overLive, true);
    assert.equal(live.rendered, live.routes);
    assert.match(readFileSync(path.join(p.b.config.liveLink, `news/${item.id}.html`), 'utf8'), /Never rendered while the API hangs/);
    const ino = (dir, file) => statSync(path.join(dir, file)).ino;
    const beforeDir = path.join(p.b.config.buildsDir, before.id);
    assert.notEqual(ino(liveDir(p), `news/${item.id}.html`), ino(beforeDir, `news/${item.id}.html`));
    assert.equal(ino(liveDir(p), 'gallery.html'), ino(beforeDir, 'gallery.html'), "an unchanged page is the previous version's file");
    assert.ok(live.changed.includes(`/news/${item.id}`), live.changed.join(' '));
    assert.equal(await differsFromFullExport(p), null);
  });

  it('publishes in full a request whose change list is cut short, missing, or names an unknown kind', async () => {
    await p.published();
    const version = await p.contentVersion();
    let upTo = version;
    // Each request announces a newer (made-up) change, so none is skipped as already built.
    const post = async (fields) => {
      const raw = JSON.stringify({
        idempotencyKey: `direct-${++upTo}`,
        reason: 'content-changed',
        sentAt: new Date().toISOString(),
        upToEventId: upTo,
        changeCount: 1,
        ...fields,
      });
      const res = await fetch(`${p.b.url}/hooks/rebuild`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-signature-256': sign(SECRET, raw) },
        body: raw,
      });
      assert.equal(res.status, 202);
      return p.b.when(
        'the publish',
        () => !p.b.builder.current && !p.b.builder.pending && lastPublish(p)?.upToEventId >= upTo && lastPublish(p),
      );
    };
    const cases = [
      [{ changes: [{ kind: 'books', entityId: 1, action: 'update' }], changesTruncated: true }, 'the change list is cut short'],
      [{}, 'the request does not list its changes'],
      [{ changes: [{ kind: 'pages', entityId: 1, action: 'update' }], changesTruncated: false }, 'the request does not list its changes'],
    ];
    for (const [fields, reason] of cases) {
      const live = await post(fields);
      assert.equal(live.mode, 'full');
      assert.equal(live.fullReason, reason);
    }
    const targeted = await post({ changes: [{ kind: 'books', entityId: 1, action: 'update' }], changesTruncated: false });
    assert.equal(targeted.mode, 'targeted');
    // A picture's variants made by the API: a known kind, targeted (no page reads job 999999: nothing to render).
    const variants = await post({ changes: [{ kind: 'image-variants', entityId: 999_999, action: 'update' }], changesTruncated: false });
    assert.deepEqual([variants.mode, variants.rendered], ['targeted', 0]);
  });

  it('keeps KEEP_BUILDS versions; hard links keep the kept ones whole', async () => {
    const folders = (await readdir(p.b.config.buildsDir, { withFileTypes: true })).filter((e) => e.isDirectory());
    assert.ok(folders.length <= p.b.config.keepBuilds);
    for (const f of folders) assert.ok(existsSync(path.join(p.b.config.buildsDir, `${f.name}.deps.json`)), `${f.name} has its site map`);
    const names = new Set(await readdir(p.b.config.buildsDir));
    for (const name of names) {
      const id = name.replace(/\..*$/, '');
      assert.ok(names.has(`${id}.json`), `${name} belongs to a recorded build`);
    }
    assert.ok(statSync(path.join(p.b.config.liveLink, 'index.html')).nlink >= 1);
  });
});

// Pictures whose variants the API makes after the pages showing them first rendered: the uploads
// live in an S3 server behind a gate, so a test holds the API's maker at its read of an original and
// the job is really pending while pages render; released, the job finishes and the API's own
// `image-variants` change publishes the rest.
describe('pictures whose variants arrive after their pages first rendered', { skip }, () => {
  const BUCKET = 'portfolio-uploads';
  const LATE_ROUNDS = Number(process.env.PUBLISH_TEST_LATE_ROUNDS ?? 12);
  let p;
  let storage;

  before(async () => {
    if (skip) return;
    const s3 = await startS3Server({ buckets: [BUCKET] });
    cleanups.push(() => s3.stop());
    storage = await startApiProxy(s3.endpoint, { keepHost: true });
    cleanups.push(() => storage.close());
    p = await stackIn('late', {
      apiEnv: {
        STORAGE_URL: `s3://${BUCKET}/site?region=${s3.region}&endpoint=${encodeURIComponent(storage.url)}`,
        S3_ACCESS_KEY_ID: s3.accessKeyId,
        S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
      },
    });
    await p.published();
  });
  /** Holds the API's maker at its next read of an original (variants are read under `_variants/`, never held). */
  const holdOriginals = () => storage.gate(new RegExp(`^/${BUCKET}/site/(?!_variants/)[^?]+\\.(png|jpe?g|webp|gif)(\\?|$)`));
  const readersOf = (p, dep) =>
    JSON.parse(readFileSync(path.join(p.b.config.buildsDir, `${p.b.builder.live.id}.deps.json`), 'utf8'))
      .routes.filter((r) => r.deps.includes(dep))
      .map((r) => r.path)
      .sort();

  it('a picture shown while its job is pending is the original, and its image-variants change re-renders exactly the pages that showed it so', async () => {
    const gate = holdOriginals();
    const image = await p.upload('artworks', 500, 400, 903);
    await gate.reached();
    const [job] = await p.stack.call('GET', `/api/image-variants?path=${encodeURIComponent(image)}`).then((r) => [r.body]);
    assert.equal(job.state, 'pending');
    const art = await p.call('POST', '/api/artworks', { title: 'Shown while its variants are made', medium: 'ink', year: 2022, image });
    await p.published({ pendingVariants: true });
    const shown = JSON.parse(readFileSync(path.join(p.b.config.liveLink, 'search-index', 'artworks.json'), 'utf8')).items.find(
      (i) => i.id === art.id,
    );
    assert.equal(shown.image, image, 'the original while its variants are made');
    assert.ok(
      !readFileSync(path.join(p.b.config.liveLink, 'gallery.html'), 'utf8').includes(variantFile(image, 400)),
      'no variant in the gallery',
    );
    const readers = readersOf(p, `image-variants/${job.id}`);
    for (const must of ['/gallery', '/ar/gallery', '/search-index/artworks.json'])
      assert.ok(readers.includes(must), `${must} read it: ${readers.join(' ')}`);

    gate.open();
    assert.equal((await p.variantsMadeOf(image))[0].state, 'done');
    const live = await p.published();
    assert.equal(live.mode, 'targeted', JSON.stringify(live));
    assert.equal(live.rendered, readers.length, 'exactly the pages that showed it pending');
    assert.ok(live.changed.includes('/gallery'), live.changed.join(' '));
    assert.ok(
      live.added.some((a) => a.startsWith('/_astro/') && a.endsWith('.webp')),
      'its variants are published',
    );
    assert.deepEqual(readersOf(p, `image-variants/${job.id}`), [], 'no page shows it pending any more');
    assert.match(
      JSON.parse(readFileSync(path.join(p.b.config.liveLink, 'search-index', 'artworks.json'), 'utf8')).items.find((i) => i.id === art.id)
        .image,
      /^\/_astro\/.*-360w\.[0-9a-f]{10}\.webp$/,
    );
    assert.equal(await differsFromFullExport(p), null);
  });

  it(
    `the invariant with pictures made late: ${LATE_ROUNDS} random edits (seed ${SEED}), each published while its new pictures' jobs are held, then their variants published: live is byte-identical to a full export`,
    { timeout: 600_000 },
    async () => {
      const edit = await randomEditor(p, SEED + 7);
      const done = [];
      let late = 0;
      for (let round = 1; round <= LATE_ROUNDS; round++) {
        const gate = holdOriginals();
        done.push(await edit());
        const first = await p.published({ pendingVariants: true });
        assert.equal(first.mode, 'targeted', `${done.at(-1)}: ${first.fullReason ?? ''} ${first.fallbackFrom?.error ?? ''}`);
        const pending = JSON.parse(readFileSync(path.join(p.b.config.buildsDir, `${first.id}.deps.json`), 'utf8')).routes.some((r) =>
          r.deps.some((d) => d.startsWith('image-variants/')),
        );
        if (pending) late++;
        gate.open();
        const live = await p.published();
        assert.equal(live.mode, 'targeted', `${done.at(-1)}, variants: ${live.fullReason ?? ''} ${live.fallbackFrom?.error ?? ''}`);
        if (round % 4 === 0 || round === LATE_ROUNDS) {
          const difference = await differsFromFullExport(p);
          assert.equal(difference, null, `after ${round} edits (${done.join(', ')}):\n${difference}`);
        }
      }
      assert.ok(late > 0, `some edit showed a picture whose variants were still being made: ${done.join(', ')}`);
    },
  );
});

describe('a new code version', { skip }, () => {
  it('is built (the previous renderer kept) and published in full', async () => {
    const first = await stackIn('code', { seedDemo: true });
    await first.published();
    assert.equal(first.b.publishes[0].mode, 'full');
    const fp1 = await first.b.builder.renderers.fingerprint();
    await first.close();

    // The same builder folder, started again with another configuration of the site's code (Astro's `site`).
    // (The author's details are not code: they are the site settings, read from the API.)
    const again = await stackIn('code', { seedDemo: false, builderEnv: { SITE_URL: 'http://renamed.example' } });
    const fp2 = await again.b.builder.renderers.fingerprint();
    assert.notEqual(fp2, fp1);
    // What is on disk the moment the full publish is live (an edit may follow at once).
    const ahead = new Map();
    again.b.builder.on('build-end', (meta) => {
      if (!meta.ok) return;
      const next = path.join(again.b.config.siteRoot, `.next-${meta.id}`);
      const files = (dir) => readdirSync(dir, { recursive: true }).sort();
      const liveNow = liveDir(again);
      ahead.set(
        meta.id,
        existsSync(next)
          ? {
              same: JSON.stringify(files(next)) === JSON.stringify(files(liveNow)),
              linked: statSync(path.join(next, 'index.html')).ino === statSync(path.join(liveNow, 'index.html')).ino,
            }
          : 'missing',
      );
    });
    // The earlier API's database is gone with it: a fresh (empty) content set, announced by an edit.
    await again.call('POST', '/api/books', { title: 'After the code change', description: 'd', year: 2024, publisher: 'p' });
    const v2 = await again.published();
    assert.equal(v2.mode, 'full');
    assert.equal(v2.fullReason, "the site's code or configuration changed");
    assert.equal(v2.overLive, undefined, 'into an empty folder');
    assert.deepEqual(
      ahead.get(v2.id),
      { same: true, linked: true },
      "every file of the new version is already linked into the next publish's folder",
    );
    assert.ok(v2.rendererBuildMs > 0, 'the new code version was built');
    assert.match(readFileSync(path.join(again.b.config.liveLink, 'index.html'), 'utf8'), /After the code change/);
    const renderers = (await readdir(again.b.config.renderersDir, { withFileTypes: true }))
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
    assert.deepEqual(renderers, [fp1, fp2].sort(), 'the last two code versions are kept');
    assert.equal(await differsFromFullExport(again), null);

    // And the edit after it is targeted again.
    const [book] = (await again.stack.call('GET', '/api/books')).body;
    await again.call('PATCH', `/api/books/${book.id}`, { title: 'Targeted again' });
    assert.equal((await again.published()).mode, 'targeted');
  });
});

describe('syncFiles (an old version made into a copy of the live one)', () => {
  it('links the listed files, deletes the ones the source lacks, removes emptied folders, and leaves no temporary file where both already share a file', async () => {
    const live = path.join(work, 'sync-live');
    const old = path.join(work, 'sync-old');
    for (const dir of [live, old]) await mkdir(path.join(dir, 'books'), { recursive: true });
    await mkdir(path.join(old, 'gone'), { recursive: true });
    await writeFile(path.join(live, 'books', '1.html'), 'new');
    await writeFile(path.join(old, 'books', '1.html'), 'old');
    await writeFile(path.join(old, 'gone', '2.html'), 'removed since');
    await writeFile(path.join(live, 'shared.webp'), 'the same file in both');
    await link(path.join(live, 'shared.webp'), path.join(old, 'shared.webp'));
    await mkdir(path.join(live, 'added'), { recursive: true });
    await writeFile(path.join(live, 'added', '3.html'), 'added since');
    await syncFiles(live, old, ['books/1.html', 'gone/2.html', 'shared.webp', 'added/3.html']);
    const files = (await readdir(old, { recursive: true, withFileTypes: true }))
      .filter((e) => e.isFile())
      .map((e) => path.relative(old, path.join(e.parentPath, e.name)))
      .sort();
    assert.deepEqual(files, ['added/3.html', 'books/1.html', 'shared.webp']);
    assert.equal(existsSync(path.join(old, 'gone')), false, 'the emptied folder is removed');
    assert.equal(await readFile(path.join(old, 'books', '1.html'), 'utf8'), 'new');
    assert.equal(statSync(path.join(old, 'books', '1.html')).ino, statSync(path.join(live, 'books', '1.html')).ino, 'a link, not a copy');
    assert.equal(await readFile(path.join(live, 'books', '1.html'), 'utf8'), 'new', 'the live version is not touched');
  });
});

describe('linkTree (a version as hard links to another)', () => {
  it('links every file, nested folders included', async () => {
    const source = path.join(work, 'tree-source');
    const layout = [
      'index.html',
      'sitemap.xml',
      'books/1.html',
      'books/2.html',
      'book/1.html',
      'book/1/reviews.html',
      'ar/index.html',
      'ar/books/1.html',
      'ar/book/1/reviews.html',
      '_astro/a.webp',
    ];
    for (const rel of layout) {
      await mkdir(path.dirname(path.join(source, rel)), { recursive: true });
      await writeFile(path.join(source, rel), `bytes of ${rel}`);
    }
    const dest = path.join(work, 'tree-linked');
    await linkTree(source, dest);
    const files = (await readdir(dest, { recursive: true, withFileTypes: true }))
      .filter((e) => e.isFile())
      .map((e) => path.relative(dest, path.join(e.parentPath, e.name)))
      .sort();
    assert.deepEqual(files, [...layout].sort());
    for (const rel of layout) assert.equal(statSync(path.join(dest, rel)).ino, statSync(path.join(source, rel)).ino, `${rel} is a link`);
  });
});

describe('diffTrees (what a full publish changed against the version before it)', () => {
  it('finds files added, removed and changed, a difference past the first block of a large page and whole folders included; links and copies of the same bytes are unchanged', async () => {
    const [oldDir, newDir] = [path.join(work, 'diff-old'), path.join(work, 'diff-new')];
    const large = Buffer.alloc(200_000, 'a');
    const largeChanged = Buffer.from(large);
    largeChanged[150_000] = 'b'.charCodeAt(0);
    const write = async (dir, rel, bytes) => {
      await mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
      await writeFile(path.join(dir, rel), bytes);
    };
    await write(oldDir, 'linked.html', 'same file');
    await mkdir(newDir, { recursive: true });
    await link(path.join(oldDir, 'linked.html'), path.join(newDir, 'linked.html'));
    await write(oldDir, 'books/1.html', large);
    await write(newDir, 'books/1.html', large);
    await write(oldDir, 'books.html', large);
    await write(newDir, 'books.html', largeChanged);
    await write(oldDir, 'sitemap.xml', 'short');
    await write(newDir, 'sitemap.xml', 'longer now');
    await write(oldDir, 'books/2.html', 'gone');
    await write(newDir, 'books/3.html', 'new');
    // Whole folders gone and new, and a file that became a folder.
    await write(oldDir, 'essays/1/index.html', 'gone with its folder');
    await write(newDir, 'news/1/index.html', 'new with its folder');
    await write(oldDir, 'rss', 'a file');
    await write(newDir, 'rss/feed.xml', 'now a folder');
    const diff = await versionDiff(oldDir, newDir, (rel) => `/${rel}`);
    assert.deepEqual(diff, {
      added: ['/books/3.html', '/news/1/index.html', '/rss/feed.xml'],
      changed: ['/books.html', '/sitemap.xml'],
      removed: ['/books/2.html', '/essays/1/index.html', '/rss'],
    });
  });

  it(
    "compares two versions of 30,000 files within a 16 MB heap (the builder's memory budget at 20,000 books)",
    { timeout: 300_000 },
    async () => {
      const [oldDir, newDir] = [path.join(work, 'diff-many-old'), path.join(work, 'diff-many-new')];
      await mkdir(path.join(oldDir, 'f0'), { recursive: true });
      for (let i = 0; i < 1000; i++) await writeFile(path.join(oldDir, 'f0', `${i}.html`), `page ${i}`);
      for (let f = 1; f < 30; f++) await linkTree(path.join(oldDir, 'f0'), path.join(oldDir, `f${f}`));
      await linkTree(oldDir, newDir);
      await rm(path.join(newDir, 'f7', '7.html'));
      await writeFile(path.join(newDir, 'f7', '7.html'), 'page 7, edited');
      const script = `import { diffTrees } from ${JSON.stringify(new URL('../builder/site-publish.mjs', import.meta.url).href)};
      console.log(JSON.stringify(await diffTrees(${JSON.stringify(oldDir)}, ${JSON.stringify(newDir)}, (rel) => '/' + rel)));`;
      const run = spawnSync(process.execPath, ['--max-old-space-size=16', '--input-type=module', '-e', script], { encoding: 'utf8' });
      assert.equal(run.status, 0, run.stderr.slice(0, 500));
      assert.deepEqual(JSON.parse(run.stdout), { added: [], changed: ['/f7/7.html'], removed: [] });
    },
  );
});
