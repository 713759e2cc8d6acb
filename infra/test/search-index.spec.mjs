// The site's search index follows every publish: its shards (/search-index/<kind>.json) are routes
// of the site that read their collection, so a targeted publish re-renders exactly the shard of the
// kind an edit touched, and the live tree stays byte-identical to a full export.
// Needs the built API (`npm run build`).
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

import { CONTENT_KINDS } from '@portfolio/contract/kinds';

import { diffTrees, startPublishingStack } from './support/publish-harness.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const skip = !existsSync(path.join(ROOT, 'admin-api/dist/src/main.js')) && !process.env.CI && 'no built API (run npm run build)';

let work;
let p;
before(async () => {
  if (skip) return;
  work = await mkdtemp(path.join(os.tmpdir(), 'search-index-test-'));
  p = await startPublishingStack({ varDir: path.join(work, 'var') });
  await p.published();
});
after(async () => {
  await p?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

const shard = (kind) => JSON.parse(readFileSync(path.join(p.b.config.liveLink, 'search-index', `${kind}.json`), 'utf8'));
const mapOf = (live) => JSON.parse(readFileSync(path.join(p.b.config.buildsDir, `${live.id}.deps.json`), 'utf8'));

describe('the search index in publishes', { skip }, () => {
  it('has one shard per kind, each depending on its collection only', async () => {
    const map = mapOf(await p.published());
    for (const kind of CONTENT_KINDS) {
      const route = map.routes.find((r) => r.path === `/search-index/${kind}.json`);
      assert.ok(route, kind);
      assert.equal(route.file, `search-index/${kind}.json`);
      assert.deepEqual(route.deps, [kind]);
      assert.equal(shard(kind).kind, kind);
    }
    const essays = (await p.stack.call('GET', '/api/essays')).body;
    assert.deepEqual(
      shard('essays').items.map((i) => i.id),
      essays.map((e) => e.id),
    );
  });

  it('an edit is in the index after its targeted publish, and only its kind’s shard is written again', async () => {
    const essay = (await p.stack.call('GET', '/api/essays')).body[0];
    await p.call('PATCH', `/api/essays/${essay.id}`, { content: 'كَتَبَ الشّاعِرُ عن غَزَّةَ.\n\nA quokka crossed the harbour.' });
    const live = await p.published();
    assert.equal(live.mode, 'targeted', JSON.stringify(live));
    assert.ok(live.changed.includes('/search-index/essays.json'), live.changed.join(' '));
    for (const kind of CONTENT_KINDS.filter((k) => k !== 'essays')) assert.ok(!live.changed.includes(`/search-index/${kind}.json`), kind);
    const entry = shard('essays').items.find((i) => i.id === essay.id);
    assert.ok(entry.text.includes('كَتَبَ الشّاعِرُ عن غَزَّةَ. A quokka crossed the harbour.'), JSON.stringify(entry.text));
  });

  it('a new item is added and an unpublished one leaves the index, each by a targeted publish', async () => {
    const news = await p.call('POST', '/api/news', {
      title: 'Index test news',
      excerpt: 'An excerpt.',
      content: 'Opening of the wombat exhibition.',
      category: 'exhibition',
      published: true,
    });
    const added = await p.published();
    assert.equal(added.mode, 'targeted');
    assert.ok(added.changed.includes('/search-index/news.json'));
    assert.deepEqual(
      shard('news').items.find((i) => i.id === news.id),
      {
        id: news.id,
        path: `/news/${news.id}`,
        title: { en: 'Index test news', ar: 'Index test news' },
        image: null,
        text: ['An excerpt.', 'Opening of the wombat exhibition.'],
      },
    );
    await p.call('PATCH', `/api/news/${news.id}`, { published: false });
    const removed = await p.published();
    assert.equal(removed.mode, 'targeted');
    assert.equal(
      shard('news').items.find((i) => i.id === news.id),
      undefined,
    );
  });

  it('after these targeted publishes the live tree is byte-identical to a full export', async () => {
    const out = path.join(work, 'export');
    await p.exportNow(out, path.join(work, 'export-cache'));
    assert.equal(diffTrees(p.b.config.liveLink + path.sep, out), null);
  });
});
