import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import {
  contentFigureHtml,
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
  it('keeps the original shape, at least one pixel high', () => {
    expect(variantHeight(400, { width: 1600, height: 500 })).toBe(125);
    expect(variantHeight(360, { width: 600, height: 900 })).toBe(540);
    expect(variantHeight(10, { width: 10_000, height: 10 })).toBe(1);
  });
});

describe('uploadVariants', () => {
  let cacheDir: string;
  let fetchMock: ReturnType<typeof vi.fn>;
  let png: Buffer;
  let publishes = 0;

  beforeEach(async () => {
    cacheDir = await mkdtemp(path.join(os.tmpdir(), 'site-variants-'));
    process.env.SITE_CACHE_DIR = cacheDir;
    process.env.SITE_API_URL = 'http://api.test';
    png = await sharp({ create: { width: 900, height: 600, channels: 3, background: { r: 200, g: 80, b: 40 } } })
      .png()
      .toBuffer();
    fetchMock = vi.fn(async (url: string) =>
      url.includes('missing') ? new Response('not found', { status: 404 }) : new Response(new Uint8Array(png)),
    );
    vi.stubGlobal('fetch', fetchMock);
    vi.spyOn(console, 'warn').mockImplementation(() => {});
  });
  afterEach(async () => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
    await rm(cacheDir, { recursive: true, force: true });
  });

  async function render(work: () => Promise<unknown>): Promise<{ record: RenderRecord; result: unknown }> {
    const record = newRecord(`publish-${++publishes}`);
    const result = await renderContext.run(record, work);
    return { record, result };
  }

  it('makes the missing variants once into the cache folder and reports them as the render’s extra files', async () => {
    const source = '/uploads/artworks/x-900x600.png';
    const { record, result } = await render(() => uploadVariants(source, [400, 800, 1600]));
    const files = [400, 800, 900].map((w) => variantFile(source, w));
    expect(result).toEqual({
      width: 900,
      height: 600,
      type: 'image/webp',
      srcset: files.map((f, i) => `/${f} ${[400, 800, 900][i]}w`).join(', '),
      largest: `/${files[2]}`,
    });
    expect([...record.files.keys()]).toEqual(files);
    for (const [file, source] of record.files) {
      expect(source).toBe(path.join(cacheDir, 'images', path.basename(file)));
      const meta = await sharp(await readFile(source)).metadata();
      expect(meta.format).toBe('webp');
      expect(meta.width! / meta.height!).toBeCloseTo(1.5, 1);
    }
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect((await readdir(path.join(cacheDir, 'images'))).sort()).toEqual(files.map((f) => path.basename(f)).sort());
  });

  it('asks nothing of the network for an image named with its size whose variants are cached, and leaves them as they are', async () => {
    const source = '/uploads/artworks/y-900x600.png';
    await render(() => uploadVariants(source, [400, 800]));
    const cached = path.join(cacheDir, 'images', path.basename(variantFile(source, 400)));
    const before = await stat(cached);
    fetchMock.mockClear();
    const { record } = await render(() => uploadVariants(source, [400, 800]));
    expect(fetchMock).not.toHaveBeenCalled();
    expect(record.files.size).toBe(2);
    expect((await stat(cached)).mtimeMs).toBe(before.mtimeMs);
  });

  it('makes the same bytes again when the cache is gone', async () => {
    const source = '/uploads/artworks/z-900x600.png';
    const { record } = await render(() => uploadVariants(source, [400]));
    const [file] = [...record.files.values()];
    const first = await readFile(file);
    await rm(path.join(cacheDir, 'images'), { recursive: true });
    await render(() => uploadVariants(source, [400]));
    expect((await readFile(file)).equals(first)).toBe(true);
  });

  it('reads the size of an image whose name does not carry it, once per publish', async () => {
    const source = '/uploads/cover.png';
    const { result } = await render(async () => {
      await uploadVariants(source, [400]);
      return uploadVariants(source, [400]);
    });
    expect(result).toMatchObject({ width: 900, height: 600 });
    // one read for the size, one for making the variant
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('an image inside a text: a figure with its WebP variants, the original size and lazy loading; the upload as it is when unreadable', async () => {
    const source = '/uploads/essays/olive-900x600.png';
    const { result } = await render(() => contentFigureHtml(source, 'Olive trees at "dawn" & dusk'));
    const [w360, w720, w900] = [360, 720, 900].map((w) => variantFile(source, w));
    expect(result).toBe(
      '<figure class="content-figure" data-image-box style="margin:1.5rem 0"><picture>' +
        `<source type="image/webp" srcset="/${w360} 360w, /${w720} 720w, /${w900} 900w" sizes="(max-width: 760px) 100vw, 70ch">` +
        `<img src="${source}" alt="Olive trees at &quot;dawn&quot; &amp; dusk" width="900" height="600" loading="lazy" decoding="async" style="block-size:auto;border-radius:var(--radius)">` +
        '</picture></figure>',
    );
    const missing = await render(() => contentFigureHtml('/uploads/essays/missing-640x480.jpg', ''));
    expect(missing.result).toBe(
      '<figure class="content-figure" data-image-box style="margin:1.5rem 0">' +
        '<img src="/uploads/essays/missing-640x480.jpg" alt="" loading="lazy" decoding="async" style="block-size:auto;border-radius:var(--radius)">' +
        '</figure>',
    );
  });

  it('gives null for a missing upload (the page shows the original path) and records no file', async () => {
    const { record, result } = await render(() => uploadVariants('/uploads/artworks/missing-640x480.jpg', [400]));
    expect(result).toBeNull();
    expect(record.files.size).toBe(0);
    expect(console.warn).toHaveBeenCalledWith(expect.stringContaining('missing-640x480.jpg'));
  });

  it('fails the render when the upload cannot be read for now (an error answer, no answer): never the original in place of its variants', async () => {
    const source = '/uploads/artworks/flaky-900x600.png';
    fetchMock.mockImplementationOnce(async () => new Response('busy', { status: 503 }));
    await expect(render(() => uploadVariants(source, [400]))).rejects.toThrow(`the image ${source} could not be read (GET`);
    fetchMock.mockImplementationOnce(async () => {
      throw new TypeError('fetch failed');
    });
    await expect(render(() => uploadVariants('/uploads/cover.png', [400]))).rejects.toThrow('fetch failed');
    // The next publish reads it again.
    const { result } = await render(() => uploadVariants(source, [400]));
    expect(result).toMatchObject({ largest: `/${variantFile(source, 400)}` });
  });

  it('markup kept between publishes that shows an upload as it is (not there yet) is made again by the next publish', async () => {
    const source = '/uploads/artworks/later-900x600.png';
    const entry = () =>
      render(async () => {
        const bytes = await keptMarkup('test-entry', 'same content', async () => (await uploadVariants(source, [360]))?.largest ?? source);
        return Buffer.from(bytes).toString('utf8');
      });
    fetchMock.mockImplementationOnce(async () => new Response('not found', { status: 404 }));
    expect((await entry()).result).toBe(source);
    const { result, record } = await entry();
    expect(result).toBe(`/${variantFile(source, 360)}`);
    expect(record.files.size).toBe(1);
  });

  it('cuts a share card of 1200 × 630 (JPEG) once into the cache: a later publish reports it without a download; a missing upload has none', async () => {
    const source = '/uploads/books/cover-600x900.png';
    const { record, result } = await render(() => shareCardImage(source));
    const file = shareCardFile(source);
    expect(file).toMatch(/^_astro\/cover-600x900-1200x630\.[0-9a-f]{10}\.jpg$/);
    expect(result).toBe(`/${file}`);
    const cached = record.files.get(file)!;
    expect(cached).toBe(path.join(cacheDir, 'images', path.basename(file)));
    const meta = await sharp(await readFile(cached)).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', SHARE_CARD.width, SHARE_CARD.height]);
    const before = await stat(cached);
    fetchMock.mockClear();
    const again = await render(() => shareCardImage(source));
    expect(fetchMock).not.toHaveBeenCalled();
    expect([...again.record.files]).toEqual([[file, cached]]);
    expect((await stat(cached)).mtimeMs).toBe(before.mtimeMs);

    const missing = await render(() => shareCardImage('/uploads/books/missing-600x900.png'));
    expect(missing.result).toBeNull();
    expect(missing.record.unkept).toBe(true);
    expect(shareCardFile(source)).not.toBe(shareCardFile('/uploads/books/other-600x900.png'));
  });
});
