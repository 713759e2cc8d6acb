import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

import { type ImageVariantsState, storedVariantPath, uploadVariantSet, VARIANT_WIDTHS } from '@portfolio/contract/image-variants';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';

import {
  contentFigureHtml,
  imgHtml,
  SHARE_CARD,
  shareCardFile,
  shareCardImage,
  uploadVariants,
  variantFile,
  variantHeight,
  variantWidths,
} from './image-variants';
import { keptMarkup, newRecord, renderContext, type RenderRecord } from './render-context';

describe('variantFile', () => {
  const cover = '/uploads/books/mf3k2a-0123456789abcdef-600x900.jpg';

  it('names a variant from its source path and width alone: the same input, the same name', () => {
    expect(variantFile(cover, 360)).toBe(variantFile(cover, 360));
    expect(variantFile(cover, 360)).toMatch(/^_astro\/mf3k2a-0123456789abcdef-600x900-360w\.[0-9a-f]{10}\.webp$/);
  });

  it('gives a different name when any of them differs', () => {
    const names = [
      variantFile(cover, 360),
      variantFile(cover, 720),
      variantFile('/uploads/books/other-600x900.jpg', 360),
      variantFile(cover.replace('.jpg', '.png'), 360),
    ];
    expect(new Set(names).size).toBe(names.length);
  });

  it('keeps only safe characters of the source name in the file name', () => {
    expect(variantFile('/uploads/a folder/ün bild (1).jpeg', 400)).toMatch(/^_astro\/-n-bild-1--400w\.[0-9a-f]{10}\.webp$/);
    expect(variantFile('/uploads/.jpg', 400)).toMatch(/^_astro\/image-400w\./);
  });
});

describe('variantWidths and variantHeight', () => {
  it('never makes a variant wider than the original, each width once, smallest first', () => {
    expect(variantWidths(1200, [1600, 400, 800])).toEqual([400, 800, 1200]);
    expect(variantWidths(600, [360, 720, 1080])).toEqual([360, 600]);
    expect(variantWidths(300, [360, 720, 1080])).toEqual([300]);
  });
  it('a page asking widths of VARIANT_WIDTHS finds each in the set the API makes, whatever the original’s width', () => {
    for (const width of [1, 100, 160, 359, 360, 900, 1080, 1200, 6000]) {
      const made = new Set(uploadVariantSet('/uploads/x.jpg', { width, height: 100 }).map((v) => v.width));
      for (const asked of VARIANT_WIDTHS)
        for (const w of variantWidths(width, [asked])) expect(made.has(w), `${asked} of ${width}`).toBe(true);
    }
  });
  it('keeps the original shape, at least one pixel high', () => {
    expect(variantHeight(400, { width: 1600, height: 500 })).toBe(125);
    expect(variantHeight(360, { width: 600, height: 900 })).toBe(540);
    expect(variantHeight(10, { width: 10_000, height: 10 })).toBe(1);
  });
});

/**
 * The API as the renderer sees it, over real HTTP: uploads and their stored variants (files), and
 * `GET /api/image-variants?path=` answering each upload's job. Every request is counted.
 */
class TestApi {
  files = new Map<string, Buffer>();
  jobs = new Map<string, ImageVariantsState>();
  /** Paths answered with this status instead (a server error, say). */
  failing = new Map<string, number>();
  requests: string[] = [];
  /** Called before each answer, with the path asked. */
  onRequest: (path: string) => void = () => {};
  private server = http.createServer((req, res) => this.answer(req, res));
  private nextJob = 1;

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }
  stop(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
  reset(): void {
    this.files.clear();
    this.jobs.clear();
    this.failing.clear();
    this.requests = [];
    this.onRequest = () => {};
  }

  /** An upload: its original, and a job in `state`; `done` stores every variant of its set, as the API does. */
  upload(source: string, original: Buffer, size: { width: number; height: number }, state: ImageVariantsState['state'] = 'done') {
    this.files.set(source, original);
    const job: ImageVariantsState = { id: this.nextJob++, path: source, state: 'pending' };
    this.jobs.set(source, job);
    if (state === 'done') this.finish(source, size);
    else job.state = state;
    return job;
  }
  /** The job is done: every variant stored (distinct bytes each), then the state says so. */
  finish(source: string, size: { width: number; height: number }) {
    for (const v of uploadVariantSet(source, size)) this.files.set(v.stored, Buffer.from(`${v.kind} ${v.width}x${v.height} of ${source}`));
    this.jobs.get(source)!.state = 'done';
  }
  count(pathPrefix: string): number {
    return this.requests.filter((r) => r.startsWith(pathPrefix)).length;
  }

  private answer(req: http.IncomingMessage, res: http.ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://api');
    this.requests.push(url.pathname + url.search);
    this.onRequest(url.pathname);
    const failing = this.failing.get(url.pathname);
    if (failing) return res.writeHead(failing).end('busy');
    if (url.pathname === '/api/image-variants') {
      const job = this.jobs.get(url.searchParams.get('path') ?? '');
      res.writeHead(job ? 200 : 404, { 'content-type': 'application/json' });
      return res.end(JSON.stringify(job ?? { statusCode: 404, message: 'Not found' }));
    }
    const bytes = this.files.get(decodeURIComponent(url.pathname));
    if (!bytes) return res.writeHead(404).end('not found');
    res.writeHead(200, { 'content-length': bytes.length }).end(bytes);
  }
}

describe('uploadVariants and shareCardImage: fetched from the API, never made', () => {
  const testApi = new TestApi();
  let cacheDir: string;
  let png: Buffer;
  let publishes = 0;
  const size = { width: 900, height: 600 };

  beforeAll(async () => {
    process.env.SITE_API_URL = await testApi.start();
    png = await sharp({ create: { ...size, channels: 3, background: { r: 200, g: 80, b: 40 } } })
      .png()
      .toBuffer();
  });
  afterAll(() => testApi.stop());
  beforeEach(async () => {
    testApi.reset();
    cacheDir = await mkdtemp(path.join(os.tmpdir(), 'site-variants-'));
    process.env.SITE_CACHE_DIR = cacheDir;
    vi.spyOn(console, 'warn').mockImplementation(() => {});
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await rm(cacheDir, { recursive: true, force: true });
  });

  async function render<T>(work: () => Promise<T>): Promise<{ record: RenderRecord; result: T }> {
    const record = newRecord(`publish-${++publishes}`);
    const result = await renderContext.run(record, work);
    return { record, result };
  }
  const cachePath = (file: string) => path.join(cacheDir, 'images', path.basename(file));

  it('fetches each missing variant once from the uploads storage into the cache and reports them as the render’s extra files', async () => {
    const source = '/uploads/artworks/x-900x600.png';
    testApi.upload(source, png, size);
    const { record, result } = await render(async () => {
      await uploadVariants(source, [400, 800, 1080]);
      return uploadVariants(source, [400, 800, 1080]);
    });
    const files = [400, 800, 900].map((w) => variantFile(source, w));
    expect(result).toEqual({
      width: 900,
      height: 600,
      webp: {
        type: 'image/webp',
        srcset: files.map((f, i) => `/${f} ${[400, 800, 900][i]}w`).join(', '),
        largest: `/${files[2]}`,
      },
    });
    expect([...record.files]).toEqual(files.map((f) => [f, cachePath(f)]));
    for (const f of files) expect((await readFile(cachePath(f))).equals(testApi.files.get(storedVariantPath(source, f))!)).toBe(true);
    // Each variant once, the original never (its size is in its name), no state asked.
    expect(testApi.requests.sort()).toEqual(files.map((f) => storedVariantPath(source, f)).sort());
    expect((await readdir(path.join(cacheDir, 'images'))).sort()).toEqual(files.map((f) => path.basename(f)).sort());
  });

  it('never fetches a cached variant again: a later publish asks the network nothing and leaves the file as it is', async () => {
    const source = '/uploads/artworks/y-900x600.png';
    testApi.upload(source, png, size);
    await render(() => uploadVariants(source, [400, 800]));
    const before = await stat(cachePath(variantFile(source, 400)));
    testApi.requests = [];
    const { record } = await render(() => uploadVariants(source, [400, 800]));
    expect(testApi.requests).toEqual([]);
    expect(record.files.size).toBe(2);
    expect((await stat(cachePath(variantFile(source, 400)))).mtimeMs).toBe(before.mtimeMs);
  });

  it('reads the size of an upload whose name does not carry it from the original, once per publish', async () => {
    const source = '/uploads/cover.png';
    testApi.upload(source, png, size);
    const { result } = await render(async () => {
      await uploadVariants(source, [400]);
      return uploadVariants(source, [400, 720]);
    });
    expect(result).toMatchObject({ width: 900, height: 600, webp: { largest: `/${variantFile(source, 720)}` } });
    expect(testApi.count(source)).toBe(1);
    expect(testApi.count('/uploads/_variants/')).toBe(2);
  });

  it('while the API is still making them: the original at its size, no <source>, the site’s share card, the read image-variants/<id> recorded, the markup not kept; the state asked once per publish', async () => {
    const source = '/uploads/essays/olive-900x600.png';
    const job = testApi.upload(source, png, size, 'pending');
    const { record, result } = await render(async () => [
      await uploadVariants(source, [360]),
      await imgHtml({ src: source, alt: 'Olive', width: 600, height: 400, sizes: '50vw' }),
      await contentFigureHtml(source, 'Olive'),
      await shareCardImage(source),
    ]);
    expect(result).toEqual([
      { width: 900, height: 600, webp: null },
      `<picture><img src="${source}" alt="Olive" width="600" height="400" loading="lazy" decoding="async"></picture>`,
      '<figure class="content-figure" data-image-box style="margin:1.5rem 0">' +
        `<img src="${source}" alt="Olive" width="900" height="600" loading="lazy" decoding="async" style="block-size:auto;border-radius:var(--radius)">` +
        '</figure>',
      null,
    ]);
    expect([...record.deps]).toEqual([`image-variants/${job.id}`]);
    expect(record.files.size).toBe(0);
    expect(record.unkept).toBe(true);
    // One variant asked per picture (the smallest webp, the card), then the state, once.
    expect(testApi.count('/uploads/_variants/')).toBe(2);
    expect(testApi.count('/api/image-variants')).toBe(1);
    expect(console.warn).not.toHaveBeenCalled();
  });

  it('pending, then done: the next publish fetches the variants, and markup kept meanwhile is made again with them', async () => {
    const source = '/uploads/artworks/later-900x600.png';
    testApi.upload(source, png, size, 'pending');
    const entry = () =>
      render(async () => {
        const bytes = await keptMarkup(
          'test-entry',
          'same content',
          async () => (await uploadVariants(source, [360]))?.webp?.largest ?? source,
        );
        return Buffer.from(bytes).toString('utf8');
      });
    expect((await entry()).result).toBe(source);
    testApi.finish(source, size);
    const { result, record } = await entry();
    expect(result).toBe(`/${variantFile(source, 360)}`);
    expect([...record.files.keys()]).toEqual([variantFile(source, 360)]);
    expect([...record.deps]).toEqual([]);
  });

  it('a job done between the first answer and the state read: the variants are fetched again and shown', async () => {
    const source = '/uploads/artworks/racing-900x600.png';
    testApi.upload(source, png, size, 'pending');
    // The job finishes as its state is asked.
    testApi.onRequest = (asked) => asked === '/api/image-variants' && testApi.finish(source, size);
    const stored = storedVariantPath(source, variantFile(source, 360));
    const { result, record } = await render(() => uploadVariants(source, [360]));
    expect(result?.webp?.largest).toBe(`/${variantFile(source, 360)}`);
    expect(record.unkept).toBeFalsy();
    expect(testApi.count(stored)).toBe(2);
  });

  it('failed, no job, or done with a variant still missing: the original as it is, the markup not kept, a warning', async () => {
    const failed = '/uploads/artworks/broken-900x600.png';
    testApi.upload(failed, Buffer.from('not an image'), size, 'failed');
    const nothing = '/uploads/artworks/missing-640x480.jpg';
    const partial = '/uploads/artworks/partial-900x600.png';
    const partialJob = testApi.upload(partial, png, size);
    testApi.files.delete(storedVariantPath(partial, variantFile(partial, 900)));
    const unqueued = '/uploads/artworks/unqueued-900x600.png';
    testApi.files.set(unqueued, png);
    const waitsFor = new Map([
      // Never to have variants: nothing to wait for.
      [failed, []],
      [nothing, []],
      // Made by another recipe or widths: the API queues it again, and its end re-renders the page.
      [partial, [`image-variants/${partialJob.id}`]],
      // Stored but not queued yet (the API's backfill after an upgrade): any job's end re-renders the page.
      [unqueued, ['image-variants']],
    ]);
    for (const [source, deps] of waitsFor) {
      const { record, result } = await render(async () => [await uploadVariants(source, [400, 1080]), await contentFigureHtml(source, '')]);
      expect(result).toEqual([
        null,
        '<figure class="content-figure" data-image-box style="margin:1.5rem 0">' +
          `<img src="${source}" alt="" loading="lazy" decoding="async" style="block-size:auto;border-radius:var(--radius)">` +
          '</figure>',
      ]);
      expect(record.files.size).toBe(0);
      expect([...record.deps]).toEqual(deps);
      expect(record.unkept).toBe(true);
      expect(console.warn).toHaveBeenCalledWith(expect.stringContaining(source));
    }
    expect((await render(() => shareCardImage(nothing))).result).toBeNull();
  });

  it('fails the render when a variant or the state cannot be read for now (an error answer, no answer): never the original in place of its variants', async () => {
    const source = '/uploads/artworks/flaky-900x600.png';
    testApi.upload(source, png, size);
    const stored = storedVariantPath(source, variantFile(source, 400));
    testApi.failing.set(stored, 503);
    await expect(render(() => uploadVariants(source, [400]))).rejects.toThrow(`the image ${source} could not be read (GET`);
    const pending = '/uploads/artworks/pending-900x600.png';
    testApi.upload(pending, png, size, 'pending');
    testApi.failing.set('/api/image-variants', 500);
    await expect(render(() => uploadVariants(pending, [400]))).rejects.toThrow(
      '/api/image-variants?path=%2Fuploads%2Fartworks%2Fpending-900x600.png answered 500',
    );
    const api = process.env.SITE_API_URL;
    process.env.SITE_API_URL = 'http://127.0.0.1:9';
    try {
      await expect(render(() => uploadVariants('/uploads/cover.png', [400]))).rejects.toThrow('fetch failed');
    } finally {
      process.env.SITE_API_URL = api;
    }
    // The next publish reads them again.
    testApi.failing.clear();
    expect((await render(() => uploadVariants(source, [400]))).result?.webp?.largest).toBe(`/${variantFile(source, 400)}`);
  });

  it('fetches an upload’s share card (1200 × 630 JPEG) once into the cache: a later publish reports it without a request', async () => {
    const source = '/uploads/books/cover-600x900.png';
    testApi.upload(source, png, { width: 600, height: 900 });
    const { record, result } = await render(() => shareCardImage(source));
    const file = shareCardFile(source);
    expect(file).toMatch(/^_astro\/cover-600x900-1200x630\.[0-9a-f]{10}\.jpg$/);
    expect(SHARE_CARD).toEqual({ width: 1200, height: 630 });
    expect(result).toBe(`/${file}`);
    expect([...record.files]).toEqual([[file, cachePath(file)]]);
    expect((await readFile(cachePath(file))).equals(testApi.files.get(storedVariantPath(source, file))!)).toBe(true);
    testApi.requests = [];
    const again = await render(() => shareCardImage(source));
    expect(testApi.requests).toEqual([]);
    expect([...again.record.files]).toEqual([[file, cachePath(file)]]);
  });

  it('an image inside a text: a figure with its WebP variants, the original size and lazy loading', async () => {
    const source = '/uploads/essays/dawn-900x600.png';
    testApi.upload(source, png, size);
    const { result } = await render(() => contentFigureHtml(source, 'Olive trees at "dawn" & dusk'));
    const [w360, w720, w900] = [360, 720, 900].map((w) => variantFile(source, w));
    expect(result).toBe(
      '<figure class="content-figure" data-image-box style="margin:1.5rem 0"><picture>' +
        `<source type="image/webp" srcset="/${w360} 360w, /${w720} 720w, /${w900} 900w" sizes="(max-width: 760px) 100vw, 70ch">` +
        `<img src="${source}" alt="Olive trees at &quot;dawn&quot; &amp; dusk" width="900" height="600" loading="lazy" decoding="async" style="block-size:auto;border-radius:var(--radius)">` +
        '</picture></figure>',
    );
  });
});
