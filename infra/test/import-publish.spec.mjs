// An import seen by a visitor: the real API (no demo content) and the real builder (renderer mode)
// share one VAR_DIR, so the API serves the pages the builder publishes. A real Markdown export (an
// Astro blog, its placeholder images inside the zip) and a small WordPress WXR with a Polylang
// English/Arabic pair are imported through POST /api/imports; each import is one full publish, and
// the published pages, images and search index show what was imported. Importing the same files
// again changes nothing and publishes nothing. Needs the built API (`npm run build`).
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

import { freePort, startStack } from '../e2e/support/stack.mjs';
import { apiEnvFor, startBuilder } from './support/publish-harness.mjs';
import { until } from './support/wait.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SPEC_SUPPORT = path.join(ROOT, 'admin-api/dist/src/import/parse/spec-support.js');
const skip = !existsSync(SPEC_SUPPORT) && !process.env.CI && 'no built API (run npm run build)';
const ASTRO_FIXTURE = path.join(ROOT, 'admin-api/test/fixtures/import/markdown-astro-blog');
const ASTRO_TITLES = ['First post', 'Markdown Style Guide', 'Second post', 'Third post', 'Using MDX'];

// A WordPress export written here, as the WXR parser spec writes one: a Polylang pair (the language
// and post_translations terms) that becomes one English essay with its Arabic translation.
const wxrItem = (id, title, content, terms) => `<item>
<title><![CDATA[${title}]]></title>
<content:encoded><![CDATA[${content}]]></content:encoded>
<excerpt:encoded><![CDATA[]]></excerpt:encoded>
<wp:post_id>${id}</wp:post_id>
<wp:post_date><![CDATA[2024-05-01 12:00:00]]></wp:post_date>
<wp:post_date_gmt><![CDATA[2024-05-01 09:00:00]]></wp:post_date_gmt>
<wp:post_name><![CDATA[post-${id}]]></wp:post_name>
<wp:status><![CDATA[publish]]></wp:status>
<wp:post_type><![CDATA[post]]></wp:post_type>
${terms}
</item>`;
const term = (domain, nicename, name) => `<category domain="${domain}" nicename="${nicename}"><![CDATA[${name}]]></category>`;
const WXR = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:excerpt="http://wordpress.org/export/1.2/excerpt/" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:wp="http://wordpress.org/export/1.2/">
<channel>
<title>Bilingual</title>
<link>https://writer.example</link>
<wp:base_blog_url>https://writer.example</wp:base_blog_url>
${wxrItem(10, 'Olive harvest', '<p>The olive trees of the old terraces.</p>', term('language', 'en', 'English') + term('post_translations', 'pll_1', 'pll_1'))}
${wxrItem(11, 'قطاف الزيتون', '<p>أشجار الزيتون في المدرجات القديمة.</p>', term('language', 'ar', 'العربية') + term('post_translations', 'pll_1', 'pll_1'))}
</channel>
</rss>`;

let work;
let builder;
let stack;
let token;
let astroZip;
before(async () => {
  if (skip) return;
  const { folderEntries, makeZip } = await import(SPEC_SUPPORT);
  astroZip = makeZip(await folderEntries(ASTRO_FIXTURE, 'markdown-astro-blog/'));
  work = await mkdtemp(path.join(os.tmpdir(), 'import-publish-test-'));
  const varDir = path.join(work, 'var');
  const port = await freePort();
  const log = process.env.PUBLISH_TEST_LOG ? (line) => process.stderr.write(`[builder] ${line}\n`) : undefined;
  builder = await startBuilder({ varDir, apiUrl: `http://127.0.0.1:${port}`, log });
  // The same VAR_DIR: the API serves $VAR_DIR/site/live, where the builder publishes.
  stack = await startStack({
    seedDemo: false,
    port,
    varDir,
    env: { ...apiEnvFor(builder), BACKUP_EVERY: 'off' },
  });
  token = await stack.login();
});
after(async () => {
  await builder?.close();
  await stack?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

const contentVersion = async () => (await stack.call('GET', '/api/health')).body.contentVersion;
const page = async (route) => {
  const res = await fetch(stack.url + route);
  return { status: res.status, type: res.headers.get('content-type'), html: await res.text() };
};
const upload = async (data, name) => {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(data)]), name);
  const res = await fetch(`${stack.url}/api/imports`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  const body = await res.json();
  assert.equal(res.status, 201, JSON.stringify(body));
  return body;
};
/** Applies a dry-run job and resolves to the finished job. */
const apply = async (job) => {
  const res = await stack.call('POST', `/api/imports/${job.id}/apply`, { token });
  assert.equal(res.status, 202, JSON.stringify(res.body));
  const done = await until(
    `import ${job.id} to finish`,
    async () => {
      const { body } = await stack.call('GET', `/api/imports/${job.id}`, { token });
      return body.state === 'done' || body.state === 'failed' ? body : null;
    },
    60_000,
    50,
  );
  assert.equal(done.state, 'done', done.error ?? '');
  return done;
};
/**
 * Resolves once every change saved so far is live and the builder has nothing running or waiting,
 * the variants the API makes of the imported pictures included (each a change of kind image-variants).
 */
const published = async () => {
  await stack.variantsMade();
  const version = await contentVersion();
  const b = builder.builder;
  return until(
    `content version ${version} to be live`,
    () => {
      // A failed publish is retried only later: say why now rather than at the time limit.
      if (b.lastBuild && !b.lastBuild.ok) throw new Error(`a publish failed: ${b.lastBuild.error}\n${builder.lines.slice(-20).join('\n')}`);
      return !b.current && !b.pending && b.builtHere.has(b.live?.id) && b.live.upToEventId >= version && b.live;
    },
    150_000,
    50,
  );
};
/** What the builder was asked and did since `before` (its /status counts and its publish records). */
const since = (before) => ({
  // A request the API sent again (its answer lost) is the same request: the builder counts it as a duplicate.
  requests: ((c) => c.requests - c.duplicates - (before.counts.requests - before.counts.duplicates))(builder.builder.status().counts),
  publishes: builder.publishes.slice(before.publishes),
});
const mark = () => ({ counts: builder.builder.status().counts, publishes: builder.publishes.length });
const essaysByTitle = async () => new Map((await stack.call('GET', '/api/essays', { token })).body.map((e) => [e.title, e]));

/**
 * The import is one publish request and one full publish; the variants of its pictures, made by the
 * API after it, are published by targeted publishes of their image-variants changes.
 */
function onceInFull({ requests, publishes }, live) {
  assert.ok(requests >= 1, 'the builder was asked');
  assert.deepEqual([publishes[0]?.ok, publishes[0]?.mode], [true, 'full'], JSON.stringify(publishes));
  for (const later of publishes.slice(1)) assert.deepEqual([later.ok, later.mode], [true, 'targeted'], JSON.stringify(later));
  assert.equal(live.id, publishes.at(-1).id);
}

/** The imported essays by title, once both imports are live. */
let essays;

describe('imports, each published once in full', { skip, timeout: 200_000 }, () => {
  it('the Markdown export: one full publish for the whole import', async () => {
    // Without demo content the API starts with no change to publish (version 0); had it one, it is
    // published first, so what follows is the import's alone.
    if (await contentVersion()) await published();
    assert.equal(builder.builder.status().counts.requests, builder.publishes.length, 'nothing else asked of the builder');
    const before = mark();
    const markdownJob = await upload(astroZip, 'markdown-astro-blog.zip');
    assert.equal(markdownJob.format, 'markdown');
    assert.deepEqual(markdownJob.report.counts, { create: 5, update: 0, unchanged: 0, skip: 0 });
    const done = await apply(markdownJob);
    assert.deepEqual(done.progress.items, { done: 5, total: 5 });
    const live = await published();
    onceInFull(since(before), live);
  });

  it('the WXR with a Polylang pair: one essay with its Arabic translation, one full publish', async () => {
    const before = mark();
    const wxrJob = await upload(Buffer.from(WXR), 'bilingual.xml');
    assert.equal(wxrJob.format, 'wordpress');
    assert.deepEqual(wxrJob.report.counts, { create: 1, update: 0, unchanged: 0, skip: 0 });
    const olive = wxrJob.report.items.find((i) => i.title === 'Olive harvest');
    assert.deepEqual([olive.kind, olive.language, olive.translations], ['essays', 'en', ['ar']]);
    await apply(wxrJob);
    const live = await published();
    onceInFull(since(before), live);
    essays = await essaysByTitle();
    assert.deepEqual([...essays.keys()].sort(), [...ASTRO_TITLES, 'Olive harvest'].sort());
  });
});

describe('the published pages', { skip }, () => {
  it('the essays list shows the imported titles, in both languages', async () => {
    // The Arabic list shows the paired item by its Arabic title, the others as they were written.
    for (const [route, olive] of [
      ['/essays', 'Olive harvest'],
      ['/ar/essays', 'قطاف الزيتون'],
    ]) {
      const list = await page(route);
      assert.equal(list.status, 200, route);
      for (const title of [...ASTRO_TITLES, olive]) assert.ok(list.html.includes(title), `${route} lists ${title}`);
    }
  });

  it('an imported essay’s page shows its paragraphs and its inline image as a figure served from /uploads', async () => {
    const guide = essays.get('Markdown Style Guide');
    const essay = await page(`/essays/${guide.id}`);
    assert.equal(essay.status, 200);
    assert.match(essay.type, /^text\/html/);
    assert.ok(essay.html.includes('Markdown Style Guide'));
    assert.ok(
      essay.html.includes('<p>Here is a sample of some basic Markdown syntax that can be used when writing Markdown content in Astro.</p>'),
      'the first paragraph',
    );
    const figure = /<figure class="content-figure"[^>]*>.*?<img src="(\/uploads\/essays\/[^"]+)" alt="([^"]*)"/s.exec(essay.html);
    assert.ok(figure, 'a figure whose image is an upload');
    assert.equal(figure[2], 'blog placeholder');
    assert.ok(guide.content.includes(`![blog placeholder](${figure[1]})`), 'the figure is the essay’s own image paragraph');
    const image = await fetch(stack.url + figure[1]);
    assert.equal(image.status, 200);
    assert.match(image.headers.get('content-type'), /^image\//);
    assert.ok((await image.arrayBuffer()).byteLength > 0);

    const arabic = await page(`/ar/essays/${guide.id}`);
    assert.equal(arabic.status, 200);
    assert.match(arabic.html, /<html[^>]* lang="ar"[^>]* dir="rtl"|<html[^>]* dir="rtl"[^>]* lang="ar"/);
    assert.ok(arabic.html.includes('Markdown Style Guide'), 'an English essay without a translation is shown as written');
    assert.ok(arabic.html.includes(figure[1]));
  });

  it('the paired item: English on /essays/{id}, its Arabic translation on /ar/essays/{id}', async () => {
    const olive = essays.get('Olive harvest');
    assert.equal(olive.translations.ar?.title, 'قطاف الزيتون');
    const english = await page(`/essays/${olive.id}`);
    assert.equal(english.status, 200);
    assert.ok(english.html.includes('Olive harvest'));
    assert.ok(english.html.includes('The olive trees of the old terraces.'));
    const arabic = await page(`/ar/essays/${olive.id}`);
    assert.equal(arabic.status, 200);
    assert.ok(arabic.html.includes('قطاف الزيتون'), 'the Arabic title');
    assert.ok(arabic.html.includes('أشجار الزيتون في المدرجات القديمة.'), 'the Arabic text');
  });

  it('the search index includes the imported titles', async () => {
    const res = await fetch(`${stack.url}/search-index/essays.json`);
    assert.equal(res.status, 200);
    const index = await res.json();
    const ids = new Set(index.items.map((i) => i.id));
    for (const e of essays.values()) assert.ok(ids.has(e.id), e.title);
    assert.ok(JSON.stringify(index).includes('Markdown Style Guide'));
    assert.ok(JSON.stringify(index).includes('قطاف الزيتون'));
  });
});

describe('the same files again', { skip, timeout: 60_000 }, () => {
  it('importing the same files again changes nothing and publishes nothing', async () => {
    const before = mark();
    const version = await contentVersion();
    for (const [data, name, total] of [
      [astroZip, 'markdown-astro-blog.zip', 5],
      [Buffer.from(WXR), 'bilingual.xml', 1],
    ]) {
      const job = await upload(data, name);
      assert.deepEqual(job.report.counts, { create: 0, update: 0, unchanged: total, skip: 0 }, name);
      assert.ok(
        job.report.items.every((i) => i.action === 'unchanged'),
        name,
      );
      const done = await apply(job);
      assert.deepEqual(done.progress.items, { done: 0, total: 0 }, name);
    }
    assert.equal(await contentVersion(), version, 'no content change, so nothing for the builder');
    assert.deepEqual(since(before), { requests: 0, publishes: [] });
    assert.equal((await stack.call('GET', '/api/essays', { token })).body.length, 6);
  });
});
