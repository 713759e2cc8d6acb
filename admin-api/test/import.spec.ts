import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

import { formattedHtml } from '@portfolio/contract/formatted-text';
import type { ImportJob } from '@portfolio/contract/imports';
import type { Essay } from '@portfolio/contract/types';
import type { RebuildRequest } from '@portfolio/contract/webhook';
import sharp from 'sharp';
import { IsNull } from 'typeorm';

import { Essay as EssayRow } from '../src/essays/essay.entity.js';
import { ImageVariantJob } from '../src/image-variants/image-variant-job.entity.js';
import { isPublicAddress, TEST_ALLOWED_ADDRESSES } from '../src/import/image-fetch.js';
import { ImportJobRow } from '../src/import/import-job.entity.js';
import { INTERRUPTED_TWICE } from '../src/import/imports.service.js';
import { OutboxEvent } from '../src/publishing/outbox-event.entity.js';
import { ContentRevision } from '../src/revisions/content-revision.entity.js';
import { zipChunks } from '../src/site-export/zip.js';
import { type Api, startApi } from './support/harness.js';

const SECRET = 'test-webhook-secret-0123456789';
const API_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const ASTRO_FIXTURE = path.join(API_ROOT, 'test/fixtures/import/markdown-astro-blog');

async function until<T>(what: string, check: () => T | Promise<T>, timeoutMs = 20_000): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await delay(20);
  }
}

/** The zip with one entry's uncompressed size, as its central directory declares it, changed (a zip that lies). */
function declareSize(bytes: Buffer, name: string, size: number): Buffer {
  const copy = Buffer.from(bytes);
  const end = copy.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  let at = copy.readUInt32LE(end + 16);
  for (let i = 0; i < copy.readUInt16LE(end + 10); i++) {
    const nameLength = copy.readUInt16LE(at + 28);
    if (copy.subarray(at + 46, at + 46 + nameLength).toString('utf8') === name) {
      copy.writeUInt32LE(size, at + 24);
      return copy;
    }
    at += 46 + nameLength + copy.readUInt16LE(at + 30) + copy.readUInt16LE(at + 32);
  }
  throw new Error(`no entry ${name}`);
}

async function zip(files: Record<string, string | Buffer>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const entries = Object.entries(files).map(([name, data]) => ({ name, data: Buffer.from(data) }));
  for await (const chunk of zipChunks(entries)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Serves the export's web images on loopback; `/redirect` sends to another loopback port. */
class ImageServer {
  readonly requests: string[] = [];
  files = new Map<string, Buffer>();
  redirectTo = '';
  private server = http.createServer((req, res) => {
    this.requests.push(req.url!);
    if (req.url === '/redirect') return void res.writeHead(302, { location: this.redirectTo }).end();
    const file = this.files.get(req.url!);
    if (!file) return void res.writeHead(404).end('not found');
    res.writeHead(200, { 'content-type': 'image/jpeg' }).end(file);
  });
  async listen() {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return this;
  }
  get port() {
    return (this.server.address() as AddressInfo).port;
  }
  get url() {
    return `http://127.0.0.1:${this.port}`;
  }
  async close() {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

/** Stands in for the builder: records the rebuild requests. */
class FakeBuilder {
  readonly received: RebuildRequest[] = [];
  private server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      assert.equal(req.headers['x-signature-256'], `sha256=${createHmac('sha256', SECRET).update(raw).digest('hex')}`);
      this.received.push(JSON.parse(raw) as RebuildRequest);
      res.writeHead(202).end('{"accepted":true}');
    });
  });
  async listen() {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return this;
  }
  get url() {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }
  async close() {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

const post = (front: Record<string, unknown>, body: string) =>
  `---\n${Object.entries(front)
    .map(([k, v]) => `${k}: ${JSON.stringify(v)}`)
    .join('\n')}\n---\n\n${body}\n`;

describe('imports (dry run, apply, images, re-import)', () => {
  let api: Api;
  /** Every image's variants made, and every change (theirs too) sent to the builder. */
  const variantsSettled = async () => {
    await until("the images' variants", async () => !(await api.dataSource.manager.countBy(ImageVariantJob, { state: 'pending' })));
    await until('the outbox to be processed', async () => !(await api.dataSource.manager.countBy(OutboxEvent, { processedAt: IsNull() })));
  };
  let token: string;
  let images: ImageServer;
  let other: ImageServer;
  let builder: FakeBuilder;
  let exportZip: Buffer;
  let files: Record<string, string | Buffer>;
  let photo: Buffer;

  const upload = (data: Buffer, name = 'blog-export.zip') => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(data)]), name);
    return api.request('POST', '/api/imports', { token, rawBody: form });
  };
  const waitDone = (id: number) =>
    until(`import ${id} to finish`, async () => {
      const res = await api.request('GET', `/api/imports/${id}`, { token });
      return res.body.state === 'done' || res.body.state === 'failed' ? (res.body as ImportJob) : null;
    });
  const revisions = () => api.dataSource.manager.count(ContentRevision);
  const importFiles = async () => (await readdir(api.config.imports.dir).catch(() => [] as string[])).filter((f) => f !== 'incoming');

  before(async () => {
    images = await new ImageServer().listen();
    other = await new ImageServer().listen();
    builder = await new FakeBuilder().listen();
    // The one way to let the guard fetch from loopback: this process's own test servers, by address and port.
    TEST_ALLOWED_ADDRESSES.add(`127.0.0.1:${images.port}`);
    photo = await sharp({ create: { width: 30, height: 20, channels: 3, background: '#2a6f97' } })
      .withExif({
        IFD0: { Make: 'DemoCam' },
        IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '31/1 30/1 0/1', GPSLongitudeRef: 'E', GPSLongitude: '34/1 28/1 0/1' },
      })
      .jpeg()
      .toBuffer();
    const png = await sharp({ create: { width: 10, height: 10, channels: 3, background: '#c8553d' } })
      .png()
      .toBuffer();
    images.files.set('/cover.jpg', photo);
    images.files.set('/inline.png', png);
    other.files.set('/inline.png', png);
    images.redirectTo = `${other.url}/inline.png`;
    files = {
      'blog/posts/prize.md': post(
        {
          title: 'A prize for the novel',
          date: '2025-03-01T10:00:00Z',
          categories: ['Awards'],
          tags: ['press'],
          image: `${images.url}/cover.jpg`,
        },
        `The jury met in Ramallah.\n\n![A photo](${images.url}/inline.png)\n\n![The cover again](${images.url}/cover.jpg)\n\nThe end.`,
      ),
      'blog/posts/sea.md': post(
        { title: 'The sea at Gaza', date: '2024-05-02T08:00:00Z', description: 'On the sea.', categories: ['Essays'], lang: 'en' },
        'The sea is the first thing.\n\n![Harbour](./harbour.png)\n\nAnd the last.',
      ),
      'blog/posts/sea.ar.md': post(
        { title: 'البحر في غزة', date: '2024-05-02T08:00:00Z', description: 'عن البحر.', lang: 'ar' },
        'البحر هو أول شيء.\n\nوآخره.',
      ),
      'blog/posts/harbour.png': png,
      'blog/posts/later.md': post({ title: 'Coming later', date: '2031-01-01T09:00:00Z' }, 'Not yet.'),
      'blog/posts/draft.md': post({ title: 'A draft', date: '2024-01-01T00:00:00Z', draft: true }, 'Unfinished.'),
      'blog/posts/broken.md': post(
        { title: 'Broken images', date: '2024-02-01T00:00:00Z' },
        `Before.\n\n![Gone](${images.url}/missing.jpg)\n\n![Private](http://10.0.0.1/private.jpg)\n\n![Redirected](${images.url}/redirect)\n\nAfter.`,
      ),
      'blog/about.md': post({ title: 'About me', type: 'page' }, 'Who I am.'),
      'blog/posts/long.md': post({ title: 'T'.repeat(301), date: '2024-03-01T00:00:00Z' }, 'Too long a title.'),
    };
    exportZip = await zip(files);
    api = await startApi({
      REBUILD_WEBHOOK_URL: `${builder.url}/hooks/rebuild`,
      REBUILD_WEBHOOK_SECRET: SECRET,
      PUBLISH_QUIET_MS: '50',
      PUBLISH_POLL_MS: '200',
      IMPORT_MAX_MB: '1',
      BACKUP_EVERY: 'off',
    });
    token = await api.login();
  });

  after(async () => {
    TEST_ALLOWED_ADDRESSES.clear();
    await api?.close();
    await Promise.all([images?.close(), other?.close(), builder?.close()]);
  });

  it('refuses non-public addresses, also written as IPv6', () => {
    for (const address of [
      '10.1.2.3',
      '127.0.0.1',
      '169.254.169.254',
      '172.16.0.1',
      '192.168.1.1',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      'fe80::1',
      'fd00::1',
      '::ffff:127.0.0.1',
      '::ffff:a00:1',
    ])
      assert.equal(isPublicAddress(address), false, address);
    for (const address of ['93.184.216.34', '2606:4700::1111', '8.8.8.8']) assert.equal(isPublicAddress(address), true, address);
  });

  let jobId: number;
  it('reads an export and reports what it would do (a dry run)', async () => {
    const res = await upload(exportZip);
    assert.equal(res.status, 201, res.text);
    const job = res.body as ImportJob;
    jobId = job.id;
    assert.equal(job.state, 'ready');
    assert.equal(job.format, 'markdown');
    assert.equal(job.fileName, 'blog-export.zip');
    assert.deepEqual(job.report.counts, { create: 5, update: 0, unchanged: 0, skip: 2 });
    const byTitle = new Map(job.report.items.map((i) => [i.title, i]));
    assert.deepEqual(
      { action: byTitle.get('About me')!.action, reason: byTitle.get('About me')!.reason },
      { action: 'skip', reason: 'A page, not a post' },
    );
    assert.equal(byTitle.get('T'.repeat(301))!.reason, 'Title: Must be at most 300 characters');
    const sea = byTitle.get('The sea at Gaza')!;
    assert.deepEqual([sea.kind, sea.language, sea.translations, sea.images], ['essays', 'en', ['ar'], 1]);
    assert.equal(byTitle.get('A prize for the novel')!.kind, 'essays', 'every post is an essay until the mapping says news');
    assert.equal(byTitle.get('A prize for the novel')!.images, 2, 'the cover used again inline counts once');
    assert.equal(byTitle.get('Coming later')!.status, 'scheduled');
    assert.deepEqual(job.report.categories, [
      { name: 'Awards', count: 1 },
      { name: 'Essays', count: 1 },
    ]);
    assert.deepEqual(job.progress, { items: { done: 0, total: 0 }, images: { done: 0, total: 0 } });
    assert.equal(await revisions(), 0, 'a dry run saves nothing');
    const list = await api.request('GET', '/api/imports', { token });
    assert.deepEqual(
      list.body.map((j: ImportJob) => j.id),
      [jobId],
    );
  });

  it('plans again with a mapping: a category makes news', async () => {
    const res = await api.request('PUT', `/api/imports/${jobId}/mapping`, { token, body: { newsCategories: ['awards'], newsTags: [] } });
    assert.equal(res.status, 200, res.text);
    const prize = (res.body as ImportJob).report.items.find((i) => i.title === 'A prize for the novel')!;
    assert.equal(prize.kind, 'news');
    assert.deepEqual(res.body.mapping, { newsCategories: ['awards'], newsTags: [] });
  });

  it('applies: items with dates, languages, translations and status, images stored clean, one full publish at the end', async () => {
    await until(
      'the start-up publishing to settle',
      async () => !(await api.dataSource.manager.countBy(OutboxEvent, { processedAt: IsNull() })),
    );
    const requestsBefore = builder.received.length;
    const res = await api.request('POST', `/api/imports/${jobId}/apply`, { token });
    assert.equal(res.status, 202, res.text);
    assert.equal(res.body.state, 'applying');
    const again = await api.request('POST', `/api/imports/${jobId}/apply`, { token });
    assert.equal(again.status, 409);
    const job = await waitDone(jobId);
    assert.equal(job.state, 'done', job.error ?? '');
    assert.deepEqual(job.progress, { items: { done: 5, total: 5 }, images: { done: 6, total: 6 } });
    assert.deepEqual(job.applyWarnings, [
      { title: 'Broken images', message: `The image ${images.url}/missing.jpg could not be imported (HTTP 404); it was left out.` },
      {
        title: 'Broken images',
        message:
          'The image http://10.0.0.1/private.jpg could not be imported (refused: 10.0.0.1 is not a public address); it was left out.',
      },
      {
        title: 'Broken images',
        message: `The image ${images.url}/redirect could not be imported (refused: 127.0.0.1 is not a public address); it was left out.`,
      },
    ]);
    assert.equal(other.requests.length, 0, 'the redirect to a loopback address was never followed');

    const news = (await api.request('GET', '/api/news', { token })).body;
    assert.equal(news.length, 1);
    const [prize] = news;
    assert.equal(prize.category, 'award');
    assert.equal(prize.publishedDate, '2025-03-01T10:00:00.000Z');
    assert.equal(prize.contentLanguage, 'en');
    assert.match(prize.imageUrl, /^\/uploads\/news\/[a-z0-9]+-[0-9a-f]{16}-30x20\.jpg$/);
    const inline = [...prize.content.matchAll(/!\[([^\]]*)\]\(([^)]+)\)/g)].map((m) => [m[1], m[2]]);
    assert.equal(inline.length, 2);
    assert.match(inline[0][1], /^\/uploads\/news\/.+-10x10\.png$/);
    assert.deepEqual(inline[1], ['The cover again', prize.imageUrl], 'the same image is stored once');
    const served = Buffer.from(await (await fetch(api.url + prize.imageUrl)).arrayBuffer());
    assert.equal((await sharp(served).metadata()).exif, undefined, 'no EXIF (GPS) left in the stored file');
    assert.ok(!served.includes('DemoCam'));

    const essays = (await api.request('GET', '/api/essays', { token })).body as Essay[];
    const byTitle = new Map(essays.map((e) => [e.title, e]));
    assert.deepEqual([...byTitle.keys()].sort(), ['A draft', 'Broken images', 'Coming later', 'The sea at Gaza']);
    const sea = byTitle.get('The sea at Gaza')!;
    assert.equal(sea.contentLanguage, 'en');
    assert.equal(sea.excerpt, 'On the sea.');
    assert.equal(sea.category, 'Essays');
    assert.equal(sea.translations.ar?.title, 'البحر في غزة');
    assert.equal(sea.translations.ar?.content, 'البحر هو أول شيء.\n\nوآخره.');
    assert.match(sea.content, /^The sea is the first thing\.\n\n!\[Harbour\]\(\/uploads\/essays\/[^)]+-10x10\.png\)\n\nAnd the last\.$/);
    assert.deepEqual([sea.published, sea.publishAt], [true, null]);
    const later = byTitle.get('Coming later')!;
    assert.deepEqual([later.published, later.publishAt], [true, '2031-01-01T09:00:00.000Z'], 'scheduled stays scheduled');
    assert.equal(byTitle.get('A draft')!.published, false);
    const broken = byTitle.get('Broken images')!;
    assert.equal(broken.content, 'Before.\n\nAfter.', 'no broken image reference is kept');
    assert.equal(broken.imageUrl, null);
    const anonymous = await api.request('GET', '/api/essays');
    assert.ok(!anonymous.body.some((e: { title: string }) => e.title === 'Coming later' || e.title === 'A draft'));

    assert.equal(await revisions(), 5, 'one revision per saved item, as an edit would make');
    const rows = await api.dataSource.manager.find(OutboxEvent);
    assert.equal(rows.filter((r) => r.fullPublish).length, 1, 'one full-publish row for the whole import');
    assert.ok(!rows.some((r) => (r.kind === 'essays' || r.kind === 'news') && !r.fullPublish), 'no row per item');
    await until('the rebuild request', () => builder.received.length > requestsBefore);
    await variantsSettled();
    const sent = builder.received.slice(requestsBefore);
    // The imported images' variants, made meanwhile, are published as they finish (image-variants.spec.ts).
    const content = sent.filter((r) => r.changesTruncated || r.changes.some((c) => c.kind !== 'image-variants'));
    assert.equal(content.length, 1, 'exactly one publish of the content');
    assert.equal(content[0]!.changesTruncated, true, 'a full publish (the builder publishes in full when the list is cut short)');
    assert.deepEqual(
      content[0]!.changes.filter((c) => c.kind !== 'image-variants'),
      [],
    );
  });

  it('says what the apply saved: each created item with its kind and id', async () => {
    const job = (await api.request('GET', `/api/imports/${jobId}`, { token })).body as ImportJob;
    const essays = (await api.request('GET', '/api/essays', { token })).body as Essay[];
    const news = (await api.request('GET', '/api/news', { token })).body as { id: number }[];
    const idOf = (title: string) => essays.find((e) => e.title === title)!.id;
    assert.deepEqual(
      job.results.map(({ title, kind, id, action }) => ({ title, kind, id, action })).sort((a, b) => a.title.localeCompare(b.title)),
      [
        { title: 'A draft', kind: 'essays', id: idOf('A draft'), action: 'create' },
        { title: 'A prize for the novel', kind: 'news', id: news[0]!.id, action: 'create' },
        { title: 'Broken images', kind: 'essays', id: idOf('Broken images'), action: 'create' },
        { title: 'Coming later', kind: 'essays', id: idOf('Coming later'), action: 'create' },
        { title: 'The sea at Gaza', kind: 'essays', id: idOf('The sea at Gaza'), action: 'create' },
      ],
    );
  });

  it('raises no offer to mail what an import brought in (old posts included); a new essay still raises one', async () => {
    const offers = async () =>
      (await api.request('GET', '/api/newsletter/offers', { token })).body as { kind: string; id: number; title: string }[];
    assert.deepEqual(await offers(), [], 'no "is live. Send it to your subscribers?" for imported items');
    const created = await api.request('POST', '/api/essays', { token, body: { title: 'Written here', excerpt: 'Short', content: 'New.' } });
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(
      (await offers()).map((o) => o.title),
      ['Written here'],
    );
    // "Dismiss all": every offer shown goes, nothing is sent.
    const shown = (await offers()).map(({ kind, id }) => ({ kind, id }));
    assert.equal((await api.request('POST', '/api/newsletter/offers/dismiss', { token, body: { offers: shown } })).status, 204);
    assert.deepEqual(await offers(), []);
    assert.equal((await api.request('POST', '/api/newsletter/offers/dismiss')).status, 401);
    const docs = (await api.request('GET', '/api/docs-json')).body;
    assert.ok(docs.paths['/api/newsletter/offers/dismiss']?.post, 'dismiss all is in the OpenAPI document');
    assert.ok(docs.components.schemas.ImportJob.properties.results, 'the results are in the OpenAPI document');
    await until('the outbox to be processed', async () => !(await api.dataSource.manager.countBy(OutboxEvent, { processedAt: IsNull() })));
  });

  it('re-importing the same file duplicates nothing and changes nothing', async () => {
    await variantsSettled();
    const requestsBefore = builder.received.length;
    const before = await revisions();
    const res = await upload(exportZip);
    assert.equal(res.status, 201, res.text);
    assert.deepEqual(res.body.report.counts, { create: 0, update: 0, unchanged: 5, skip: 2 });
    assert.equal(
      res.body.report.items.find((i: { title: string }) => i.title === 'A prize for the novel').kind,
      'news',
      'it stays what it was imported as',
    );
    const applied = await api.request('POST', `/api/imports/${res.body.id}/apply`, { token });
    assert.equal(applied.status, 202);
    const job = await waitDone(res.body.id);
    assert.deepEqual(job.progress, { items: { done: 0, total: 0 }, images: { done: 0, total: 0 } });
    assert.equal(await revisions(), before, 'no new revision');
    assert.equal((await api.request('GET', '/api/essays', { token })).body.length, 5, 'the four imported and the one written here');
    assert.equal((await api.request('GET', '/api/news', { token })).body.length, 1);
    assert.equal(await api.dataSource.manager.countBy(OutboxEvent, { processedAt: IsNull() }), 0, 'nothing to publish');
    assert.equal(builder.received.length, requestsBefore);
  });

  it('an edited source item is updated (one new revision), the rest left alone', async () => {
    const before = await revisions();
    const edited = await zip({
      ...files,
      'blog/posts/sea.md': String(files['blog/posts/sea.md']).replace('And the last.', 'And the very last.'),
    });
    const res = await upload(edited);
    assert.deepEqual(res.body.report.counts, { create: 0, update: 1, unchanged: 4, skip: 2 });
    await api.request('POST', `/api/imports/${res.body.id}/apply`, { token });
    const job = await waitDone(res.body.id);
    assert.deepEqual(job.progress.items, { done: 1, total: 1 });
    assert.equal(await revisions(), before + 1);
    const essays = (await api.request('GET', '/api/essays', { token })).body as { title: string; content: string }[];
    assert.equal(essays.length, 5);
    assert.match(essays.find((e) => e.title === 'The sea at Gaza')!.content, /And the very last\.$/);
    assert.deepEqual(
      job.results.map(({ title, action }) => ({ title, action })),
      [{ title: 'The sea at Gaza', action: 'update' }],
    );
    assert.deepEqual((await api.request('GET', '/api/newsletter/offers', { token })).body, [], 'an update by an import offers nothing');
  });

  it('refuses a file that is not an export with one message, keeping nothing', async () => {
    const jobs = (await api.request('GET', '/api/imports', { token })).body.length;
    const filesBefore = await importFiles();
    const res = await upload(Buffer.from('just some text'), 'notes.txt');
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, {
      statusCode: 400,
      message: 'This file is not an export this site can read (WordPress, Ghost, Substack or Markdown).',
      messageKey: 'error.importRefused',
      messageParams: { reason: 'This file is not an export this site can read (WordPress, Ghost, Substack or Markdown).' },
    });
    assert.equal((await api.request('GET', '/api/imports', { token })).body.length, jobs);
    assert.deepEqual(await importFiles(), filesBefore);
    assert.deepEqual(await readdir(path.join(api.config.imports.dir, 'incoming')), []);
  });

  it('refuses a file over IMPORT_MAX_MB with one message, keeping nothing', async () => {
    // Far over: refused by its declared length, unread. Just over: refused by multer while it streams, the part written removed.
    for (const size of [2 * 1024 * 1024, 1024 * 1024 + 10_000]) {
      const res = await upload(Buffer.alloc(size, 1), 'huge.zip');
      assert.equal(res.status, 413, String(size));
      assert.deepEqual(res.body, {
        statusCode: 413,
        message: 'This file is too large to import. The limit is 1 MB.',
        messageKey: 'error.importTooLarge',
        messageParams: { mb: 1 },
      });
      assert.deepEqual(await readdir(path.join(api.config.imports.dir, 'incoming')), []);
    }
  });

  it('deletes an import and its file, not what it imported', async () => {
    const filesBefore = await importFiles();
    const res = await api.request('DELETE', `/api/imports/${jobId}`, { token });
    assert.equal(res.status, 204);
    assert.equal((await api.request('GET', `/api/imports/${jobId}`, { token })).status, 404);
    assert.equal((await importFiles()).length, filesBefore.length - 1);
    assert.equal((await api.request('GET', '/api/news', { token })).body.length, 1);
  });

  it('plans the real exports: WordPress theme unit test data, a Ghost export', async () => {
    const wxr = await readFile(path.join(API_ROOT, 'test/fixtures/import/wordpress-theme-unit-test.xml'));
    const wp = await upload(wxr, 'themeunittestdata.wordpress.xml');
    assert.equal(wp.status, 201, wp.text);
    const report = (wp.body as ImportJob).report;
    assert.equal(report.format, 'wordpress');
    assert.deepEqual(report.counts, { create: 47, update: 0, unchanged: 0, skip: 25 });
    const reasons = new Map(report.items.map((i) => [i.title, i.reason]));
    assert.equal(reasons.get('About The Tests'), 'A page, not a post');
    assert.equal(reasons.get('Edge Case: No Content'), 'Excerpt is required');
    assert.equal(report.items.filter((i) => i.reason === 'A page, not a post').length, 21);
    assert.deepEqual(report.categories.slice(0, 2), [
      { name: 'Classic', count: 39 },
      { name: 'Post Formats', count: 15 },
    ]);
    const mapped = await api.request('PUT', `/api/imports/${wp.body.id}/mapping`, {
      token,
      body: { newsCategories: ['Post Formats'], newsTags: [] },
    });
    assert.equal(
      mapped.body.report.items.filter((i: { kind: string; action: string }) => i.kind === 'news' && i.action === 'create').length,
      13,
    );
    assert.equal(mapped.body.report.items.find((i: { title: string }) => i.title === 'Post Format: Image').reason, 'Excerpt: Required');

    const ghost = await upload(await readFile(path.join(API_ROOT, 'test/fixtures/import/ghost-migrate-export.json')), 'ghost.json');
    assert.equal(ghost.status, 201, ghost.text);
    assert.equal(ghost.body.report.format, 'ghost');
    assert.deepEqual(ghost.body.report.counts, { create: 2, update: 0, unchanged: 0, skip: 1 });
    assert.deepEqual(ghost.body.report.tags, [
      { name: 'News', count: 1 },
      { name: 'Technology', count: 1 },
    ]);
    for (const id of [wp.body.id, ghost.body.id]) assert.equal((await api.request('DELETE', `/api/imports/${id}`, { token })).status, 204);
  });

  it('keeps the text of a WordPress title written as markup, never image syntax; the posts raise no offer', async () => {
    const wxrItem = (id: number, title: string) => `
    <item>
      <title>${title}</title>
      <content:encoded><![CDATA[<p>Body of post ${id}.</p>]]></content:encoded>
      <excerpt:encoded><![CDATA[]]></excerpt:encoded>
      <wp:post_id>${id}</wp:post_id>
      <wp:post_date_gmt>2024-0${id}-01 10:00:00</wp:post_date_gmt>
      <wp:post_name>post-${id}</wp:post_name>
      <wp:status>publish</wp:status>
      <wp:post_type>post</wp:post_type>
    </item>`;
    const wxr = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:excerpt="http://wordpress.org/export/1.2/excerpt/" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:wp="http://wordpress.org/export/1.2/">
  <channel>
    <title>Markup titles</title>
    <link>https://titles.example</link>
    <wp:base_blog_url>https://titles.example</wp:base_blog_url>
    ${wxrItem(1, '&lt;svg onload=alert(1)&gt; SVG title')}
    ${wxrItem(2, '<![CDATA["><img src=x onerror=alert(2)> Quote title]]>')}
    ${wxrItem(3, '<![CDATA[<script>alert(3)</script>Script title &amp; more]]>')}
  </channel>
</rss>`;
    const res = await upload(Buffer.from(wxr), 'titles.wordpress.xml');
    assert.equal(res.status, 201, res.text);
    const report = (res.body as ImportJob).report;
    assert.deepEqual(
      report.items.map((i) => [i.title, i.action, i.reason]),
      [
        ['SVG title', 'create', null],
        ['"> Quote title', 'create', null],
        ['Script title & more', 'create', null],
      ],
    );
    assert.equal((await api.request('POST', `/api/imports/${res.body.id}/apply`, { token })).status, 202);
    const job = await waitDone(res.body.id);
    assert.equal(job.state, 'done', job.error ?? '');
    const essays = (await api.request('GET', '/api/essays', { token })).body as Essay[];
    const titles = essays.filter((e) => job.results.some((r) => r.id === e.id)).map((e) => e.title);
    assert.deepEqual(titles.sort(), ['"> Quote title', 'SVG title', 'Script title & more']);
    assert.ok(!titles.some((t) => t.includes('![')), 'no image syntax in a title');
    assert.deepEqual(
      (await api.request('GET', '/api/newsletter/offers', { token })).body,
      [],
      'posts from 2024, imported: nothing to mail',
    );
    assert.equal((await api.request('DELETE', `/api/imports/${res.body.id}`, { token })).status, 204);
  });

  it('needs an admin', async () => {
    assert.equal((await api.request('GET', '/api/imports')).status, 401);
  });
});

// One post in each platform's own markup: a heading, emphasis, a link, a quote, a list, a footnote and a picture.
const formattedExports = (imageUrl: string): Record<string, { name: string; data: () => Promise<Buffer> }> => ({
  WordPress: {
    name: 'harbour.wordpress.xml',
    data: async () =>
      Buffer.from(`<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:excerpt="http://wordpress.org/export/1.2/excerpt/" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:wp="http://wordpress.org/export/1.2/">
<channel><link>https://harbour.example</link>
  <item>
    <title>The harbour (WordPress)</title>
    <content:encoded><![CDATA[<!-- wp:heading --><h2 class="wp-block-heading">The harbour</h2><!-- /wp:heading -->

<!-- wp:paragraph --><p>The <em>old</em> boats and the <strong>new</strong><sup data-fn="f-1" class="fn"><a href="#f-1" id="f-1-link">1</a></sup>, see <a href="https://maps.example/gaza">the map</a>.</p><!-- /wp:paragraph -->

<!-- wp:quote --><blockquote class="wp-block-quote"><!-- wp:paragraph --><p>The sea is the first thing.</p><!-- /wp:paragraph --></blockquote><!-- /wp:quote -->

<!-- wp:list --><ul class="wp-block-list"><!-- wp:list-item --><li>Nets</li><!-- /wp:list-item --><!-- wp:list-item --><li>Oars</li><!-- /wp:list-item --></ul><!-- /wp:list -->

<!-- wp:image --><figure class="wp-block-image"><img src="${imageUrl}" alt="Boats at dawn"/></figure><!-- /wp:image -->

<!-- wp:footnotes /-->]]></content:encoded>
    <wp:post_id>7</wp:post_id><wp:post_date_gmt>2024-05-01 10:00:00</wp:post_date_gmt><wp:post_name>harbour</wp:post_name>
    <wp:status>publish</wp:status><wp:post_type>post</wp:post_type>
    <wp:postmeta><wp:meta_key>footnotes</wp:meta_key><wp:meta_value><![CDATA[[{"content":"Built in <em>2010</em>.","id":"f-1"}]]]></wp:meta_value></wp:postmeta>
  </item>
</channel>
</rss>`),
  },
  Ghost: {
    name: 'harbour.ghost.json',
    data: async () =>
      Buffer.from(
        JSON.stringify({
          db: [
            {
              meta: { version: '5.0.0' },
              data: {
                posts: [
                  {
                    id: 'harbour',
                    title: 'The harbour (Ghost)',
                    slug: 'harbour',
                    status: 'published',
                    published_at: '2024-05-01T10:00:00.000Z',
                    html:
                      '<h2 id="the-harbour">The harbour</h2><p>The <em>old</em> boats and the <strong>new</strong><sup class="footnote-ref"><a href="#fn1" id="fnref1">[1]</a></sup>, see <a href="https://maps.example/gaza">the map</a>.</p>' +
                      '<blockquote>The sea is the first thing.</blockquote><ul><li>Nets</li><li>Oars</li></ul>' +
                      `<figure class="kg-card kg-image-card"><img src="${imageUrl}" class="kg-image" alt="Boats at dawn" loading="lazy"></figure>` +
                      '<hr class="footnotes-sep"><section class="footnotes"><ol class="footnotes-list"><li id="fn1" class="footnote-item"><p>Built in <em>2010</em>. <a href="#fnref1" class="footnote-backref">↩︎</a></p></li></ol></section>',
                  },
                ],
              },
            },
          ],
        }),
      ),
  },
  Substack: {
    name: 'harbour.substack.zip',
    data: () =>
      zip({
        'posts.csv':
          'post_id,post_date,is_published,type,title,subtitle\n9001.harbour,2024-05-01T10:00:00.000Z,true,newsletter,The harbour (Substack),\n',
        'posts/9001.harbour.html':
          '<h2 class="header-anchor-post">The harbour</h2><p>The <em>old</em> boats and the <strong>new</strong><a class="footnote-anchor" data-component-name="FootnoteAnchorToDOM" id="footnote-anchor-1" href="#footnote-1" target="_self">1</a>, see <a href="https://maps.example/gaza" rel="">the map</a>.</p>' +
          '<blockquote><p>The sea is the first thing.</p></blockquote><ul><li><p>Nets</p></li><li><p>Oars</p></li></ul>' +
          `<div class="captioned-image-container"><figure><a class="image-link image2" href="${imageUrl}"><picture><img src="${imageUrl}" alt="Boats at dawn"></picture></a></figure></div>` +
          '<p class="button-wrapper"><a class="button primary" href="https://harbour.substack.com/subscribe"><span>Subscribe now</span></a></p>' +
          '<div class="footnote" data-component-name="FootnoteToDOM"><a id="footnote-1" href="#footnote-anchor-1" class="footnote-number" contenteditable="false" target="_self">1</a><div class="footnote-content"><p>Built in <em>2010</em>.</p></div></div>',
      }),
  },
});

describe('formatted posts from WordPress, Ghost and Substack', () => {
  let api: Api;
  let token: string;
  let images: ImageServer;

  before(async () => {
    images = await new ImageServer().listen();
    TEST_ALLOWED_ADDRESSES.add(`127.0.0.1:${images.port}`);
    images.files.set(
      '/boats.png',
      await sharp({ create: { width: 12, height: 8, channels: 3, background: '#2a6f97' } })
        .png()
        .toBuffer(),
    );
    api = await startApi({ BACKUP_EVERY: 'off' });
    token = await api.login();
  });

  after(async () => {
    TEST_ALLOWED_ADDRESSES.clear();
    await api?.close();
    await images?.close();
  });

  const upload = (data: Buffer, name: string) => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(data)]), name);
    return api.request('POST', '/api/imports', { token, rawBody: form });
  };

  const apply = async (id: number) => {
    assert.equal((await api.request('POST', `/api/imports/${id}/apply`, { token })).status, 202);
    const job = await until('the import to finish', async () => {
      const polled = (await api.request('GET', `/api/imports/${id}`, { token })).body as ImportJob;
      return polled.state === 'done' || polled.state === 'failed' ? polled : null;
    });
    assert.equal(job.state, 'done', job.error ?? '');
    assert.deepEqual(job.applyWarnings, []);
  };
  const essayTitled = async (title: string) =>
    ((await api.request('GET', '/api/essays', { token })).body as Essay[]).find((e) => e.title === title)!;

  for (const platform of ['WordPress', 'Ghost', 'Substack']) {
    it(`${platform}: the essay keeps its Markdown, the picture from /uploads/; a second import is unchanged`, async () => {
      const source = formattedExports(`${images.url}/boats.png`)[platform]!;
      const data = await source.data();
      const res = await upload(data, source.name);
      assert.equal(res.status, 201, res.text);
      assert.deepEqual(res.body.report.counts, { create: 1, update: 0, unchanged: 0, skip: 0 });
      await apply(res.body.id);
      const essay = await essayTitled(`The harbour (${platform})`);
      assert.equal(essay.textFormat, 'markdown', 'an imported text is shown as Markdown');
      const html = formattedHtml(essay.content, { format: essay.textFormat, layout: 'blank-lines' });
      assert.match(html, /<a href="https:\/\/maps\.example\/gaza" class="external" rel="noopener">the map<\/a>/);
      assert.match(html, /<strong>new<\/strong>/);
      const picture = /!\[Boats at dawn\]\((\/uploads\/essays\/[^)\s]+\.png)\)/.exec(essay.content)?.[1];
      assert.ok(picture, essay.content);
      assert.equal(
        essay.content,
        '## The harbour\n\nThe *old* boats and the **new**[^1], see [the map](https://maps.example/gaza).\n\n' +
          `> The sea is the first thing.\n\n- Nets\n- Oars\n\n![Boats at dawn](${picture})\n\n[^1]: Built in *2010*.`,
      );
      assert.equal(essay.excerpt, 'The harbour', 'the excerpt is plain text');
      assert.equal((await fetch(api.url + picture)).status, 200);

      const again = await upload(data, source.name);
      assert.deepEqual(again.body.report.counts, { create: 0, update: 0, unchanged: 1, skip: 0 }, 'the same post gives the same digest');
    });
  }

  it("an essay an earlier import saved as plain text keeps the admin's edits when its source is unchanged, and becomes Markdown when it changed", async () => {
    const source = formattedExports(`${images.url}/boats.png`).WordPress!;
    const data = await source.data();
    await apply((await upload(data, source.name)).body.id);
    const essay = await essayTitled('The harbour (WordPress)');
    // What an import before imports set the format left behind: plain text, links as "text (url)".
    await api.dataSource.manager.update(
      EssayRow,
      { id: essay.id },
      { textFormat: 'plain', content: 'The old boats, see the mapp (https://maps.example/gaza).' },
    );
    // The admin fixes a typo in the overlay since.
    const edited = 'The old boats, see the map (https://maps.example/gaza).';
    const patched = await api.request('PATCH', `/api/essays/${essay.id}`, { token, body: { content: edited } });
    assert.equal(patched.status, 200, patched.text);

    const again = await upload(data, source.name);
    assert.deepEqual(again.body.report.counts, { create: 0, update: 0, unchanged: 1, skip: 0 });
    await apply(again.body.id);
    const kept = await essayTitled('The harbour (WordPress)');
    assert.equal(kept.content, edited, "the admin's edit is kept");
    assert.equal(kept.textFormat, 'plain', 'it renders as before');

    const changed = Buffer.from(data.toString().replace('The sea is the first thing.', 'The sea is the first and last thing.'));
    const third = await upload(changed, source.name);
    assert.deepEqual(third.body.report.counts, { create: 0, update: 1, unchanged: 0, skip: 0 });
    await apply(third.body.id);
    const updated = await essayTitled('The harbour (WordPress)');
    assert.equal(updated.textFormat, 'markdown');
    assert.match(updated.content, /> The sea is the first and last thing\./);
    assert.match(updated.content, /\[the map\]\(https:\/\/maps\.example\/gaza\)/);
  });
});

describe('an import applying when the API stops', () => {
  it('goes on at the next start, saving each item once', async () => {
    const first = await startApi({ BACKUP_EVERY: 'off' });
    const varDir = first.config.varDir;
    let second: Api | null = null;
    try {
      const token = await first.login();
      const form = new FormData();
      const data = await zip({
        'posts/one.md': post({ title: 'One', date: '2024-01-01T00:00:00Z' }, 'First.'),
        'posts/two.md': post({ title: 'Two', date: '2024-01-02T00:00:00Z' }, 'Second.'),
      });
      form.append('file', new Blob([new Uint8Array(data)]), 'two-posts.zip');
      const created = await first.request('POST', '/api/imports', { token, rawBody: form });
      assert.equal(created.status, 201, created.text);
      // The state an apply request leaves behind when the process dies before its work starts.
      await first.dataSource.manager.update(ImportJobRow, { id: created.body.id }, { state: 'applying' });
      await first.close({ keepData: true });
      second = await startApi({ BACKUP_EVERY: 'off' }, { varDir, keepData: true });
      const secondApi = second;
      const secondToken = await secondApi.login();
      const job = await until('the resumed import to finish', async () => {
        const res = await secondApi.request('GET', `/api/imports/${created.body.id}`, { token: secondToken });
        return res.body.state === 'done' ? (res.body as ImportJob) : null;
      });
      assert.deepEqual(job.progress.items, { done: 2, total: 2 });
      const essays = (await secondApi.request('GET', '/api/essays', { token: secondToken })).body as Essay[];
      assert.deepEqual(essays.map((e) => e.title).sort(), ['One', 'Two']);
    } finally {
      await (second ?? first).close();
    }
  });
});

describe('an import applying when the API stops', () => {
  it('a job whose runs ended twice without finishing fails with its reason instead of resuming at every start', async () => {
    const first = await startApi({ BACKUP_EVERY: 'off' });
    const varDir = first.config.varDir;
    let second: Api | null = null;
    try {
      const token = await first.login();
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(await zip({ 'posts/one.md': post({ title: 'One' }, 'First.') }))]), 'one.zip');
      const created = await first.request('POST', '/api/imports', { token, rawBody: form });
      assert.equal(created.status, 201, created.text);
      // What two starts that died while applying (out of memory, killed) leave behind: each run counted, none ended.
      await first.dataSource.manager.update(ImportJobRow, { id: created.body.id }, { state: 'applying', attempts: 2 });
      await first.close({ keepData: true });
      second = await startApi({ BACKUP_EVERY: 'off' }, { varDir, keepData: true });
      const secondApi = second;
      const secondToken = await secondApi.login();
      const job = await until('the job to be settled', async () => {
        const res = await secondApi.request('GET', `/api/imports/${created.body.id}`, { token: secondToken });
        return res.body.state !== 'applying' ? (res.body as ImportJob) : null;
      });
      assert.equal(job.state, 'failed');
      assert.equal(job.error, INTERRUPTED_TWICE);
      assert.match(job.error!, /^The import stopped twice before it finished/);
      assert.deepEqual((await secondApi.request('GET', '/api/essays', { token: secondToken })).body, [], 'not run a third time');
      // Applied again by the author: it runs afresh.
      assert.equal((await secondApi.request('POST', `/api/imports/${created.body.id}/apply`, { token: secondToken })).status, 202);
      const again = await until('the new apply to finish', async () => {
        const res = await secondApi.request('GET', `/api/imports/${created.body.id}`, { token: secondToken });
        return res.body.state === 'done' || res.body.state === 'failed' ? (res.body as ImportJob) : null;
      });
      assert.deepEqual([again.state, again.error, again.results.map((r) => r.title)], ['done', null, ['One']]);
    } finally {
      await (second ?? first).close();
    }
  });
});

describe('an image in an import zip that inflates past the image limit', () => {
  it('is refused by the size it declares before it inflates; one declaring less is stopped as damaged at the first byte past that; the rest is imported', async () => {
    const api = await startApi({ BACKUP_EVERY: 'off', IMPORT_MAX_MB: '1', IMPORT_IMAGE_MAX_MB: '1' });
    try {
      const token = await api.login();
      const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#000' } })
        .png()
        .toBuffer();
      // 64 MB of zeros each: about 64 KB once deflated, so the zip is far under the 1 MB upload limit.
      const huge = Buffer.alloc(64 * 1024 * 1024);
      const chunks: Buffer[] = [];
      const entries = [
        {
          name: 'blog/post.md',
          data: Buffer.from(
            post({ title: 'Bombs', date: '2024-01-01T00:00:00Z' }, 'Text.\n\n![A](./bomb.png)\n\n![B](./liar.png)\n\n![C](./fine.png)'),
          ),
        },
        { name: 'blog/bomb.png', data: huge, compress: true },
        { name: 'blog/liar.png', data: huge, compress: true },
        { name: 'blog/fine.png', data: png },
      ];
      for await (const chunk of zipChunks(entries)) chunks.push(chunk as Buffer);
      const data = declareSize(Buffer.concat(chunks), 'blog/liar.png', 1000);
      assert.ok(data.length < 1024 * 1024, `a small zip (${data.length} bytes)`);
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(data)]), 'bombs.zip');
      const created = await api.request('POST', '/api/imports', { token, rawBody: form });
      assert.equal(created.status, 201, created.text);
      assert.equal((await api.request('POST', `/api/imports/${created.body.id}/apply`, { token })).status, 202);
      const job = await until('the import to finish', async () => {
        const res = await api.request('GET', `/api/imports/${created.body.id}`, { token });
        return res.body.state === 'done' || res.body.state === 'failed' ? (res.body as ImportJob) : null;
      });
      assert.equal(job.state, 'done', job.error ?? '');
      assert.deepEqual(job.applyWarnings, [
        // Refused by the size it declares, before a byte is inflated.
        {
          title: 'Bombs',
          message: 'The image blog/bomb.png could not be imported (it declares 64 MB unpacked, more than the 1 MB limit); it was left out.',
        },
        // Declares 1000 bytes: stopped as soon as it inflates past them, not read whole.
        {
          title: 'Bombs',
          message:
            'The image blog/liar.png could not be imported (The zip file is damaged or unpacks to more than it declares (blog/liar.png).); it was left out.',
        },
      ]);
      const [essay] = (await api.request('GET', '/api/essays', { token })).body as Essay[];
      assert.match(essay!.content, /^Text\.\n\n!\[C\]\(\/uploads\/essays\/[^)]+\.png\)$/);
    } finally {
      await api.close();
    }
  });
});

describe('a text file in an import zip that unpacks past IMPORT_TEXT_MAX_MB', () => {
  it('refuses the import by the size the file declares, before inflating it, naming the file and the limit; one declaring less is stopped as damaged', async () => {
    const api = await startApi({ BACKUP_EVERY: 'off', IMPORT_MAX_MB: '1', IMPORT_TEXT_MAX_MB: '1' });
    try {
      const token = await api.login();
      // 2 MB of spaces: about 2 KB once deflated, so each zip is far under the 1 MB upload limit.
      const padding = Buffer.alloc(2 * 1024 * 1024, 32);
      const wxr = Buffer.concat([
        Buffer.from('<?xml version="1.0"?><rss version="2.0" xmlns:wp="http://wordpress.org/export/1.2/"><channel>'),
        padding,
        Buffer.from('</channel></rss>'),
      ]);
      const ghost = Buffer.concat([Buffer.from('{"db":[{"meta":{"version":"5.0.0"},"data":{"posts":[]}}]'), padding, Buffer.from('}')]);
      const markdown = Buffer.concat([Buffer.from(post({ title: 'Long' }, 'Text.')), padding]);
      const refused = async (data: Buffer, file: string) => {
        assert.ok(data.length < 64 * 1024, `a small zip (${data.length} bytes)`);
        const form = new FormData();
        form.append('file', new Blob([new Uint8Array(data)]), 'export.zip');
        return api.request('POST', '/api/imports', { token, rawBody: form }).then((res) => ({ file, res }));
      };
      const jobs = (await api.request('GET', '/api/imports', { token })).body.length;
      for (const { file, res } of [
        await refused(await zip({ 'export/site.wordpress.xml': wxr }), 'export/site.wordpress.xml'),
        await refused(await zip({ 'site.ghost.json': ghost }), 'site.ghost.json'),
        await refused(await zip({ 'blog/a.md': post({ title: 'A' }, 'Short.'), 'blog/long.md': markdown }), 'blog/long.md'),
      ]) {
        assert.equal(res.status, 400, file);
        assert.deepEqual(res.body, {
          statusCode: 400,
          message: `The file ${file} in this export is larger than 1 MB unpacked, the most an import reads of one file.`,
          messageKey: 'error.importTextTooLarge',
          messageParams: { file, mb: 1 },
        });
      }
      const liar = await refused(declareSize(await zip({ 'export/site.wordpress.xml': wxr }), 'export/site.wordpress.xml', 1000), '');
      assert.equal(liar.res.status, 400);
      assert.equal(liar.res.body.message, 'The zip file is damaged or unpacks to more than it declares (export/site.wordpress.xml).');
      assert.equal((await api.request('GET', '/api/imports', { token })).body.length, jobs);
    } finally {
      await api.close();
    }
  });
});

describe('npm run import', () => {
  it('prints the dry run of a real export and saves nothing', async () => {
    const api = await startApi({ BACKUP_EVERY: 'off' });
    try {
      const run = spawnSync(process.execPath, ['dist/src/import/cli.js', ASTRO_FIXTURE, '--dry-run'], {
        cwd: API_ROOT,
        env: {
          PATH: process.env.PATH ?? '',
          VAR_DIR: api.config.varDir,
          SEED_DEMO: 'false',
          ...(process.env.TEST_DB === 'mysql' ? { DATABASE_URL: process.env.TEST_MYSQL_URL! } : {}),
        },
        encoding: 'utf8',
      });
      assert.equal(run.status, 0, run.stderr);
      assert.equal(
        run.stdout,
        [
          'markdown-astro-blog: a markdown export of 5 item(s).',
          '  5 to create, 0 to update, 0 unchanged, 0 skipped',
          '  To import:',
          '    create essay: First post (1 image(s))',
          '    create essay: Markdown Style Guide (2 image(s))',
          '    create essay: Second post (1 image(s))',
          '    create essay: Third post (1 image(s))',
          '    create essay: Using MDX (1 image(s))',
          '  Categories: none',
          '  Tags: none',
          'Dry run: nothing was saved.',
          '',
        ].join('\n'),
      );
      assert.deepEqual((await api.request('GET', '/api/imports', { token: await api.login() })).body, []);
      assert.equal((await api.request('GET', '/api/essays')).body.length, 0);
    } finally {
      await api.close();
    }
  });
});
