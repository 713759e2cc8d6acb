import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';

import type { LoggerService } from '@nestjs/common';
import { CONTENT_KINDS } from '@portfolio/contract/kinds';
import { SECURITY_HEADERS } from '@portfolio/contract/security-headers';

import { DbProxy } from './support/db-proxy.js';
import { ADMIN, type Api, sampleOf, startApi, TEST_DB } from './support/harness.js';

class RecordingLogger implements LoggerService {
  lines: string[] = [];
  log(message: unknown, context?: string) {
    this.lines.push(`${context ?? ''} ${String(message)}`);
  }
  error(message: unknown, context?: string) {
    this.log(message, context);
  }
  warn(message: unknown, context?: string) {
    this.log(message, context);
  }
}

describe('GET /api/health', () => {
  let api: Api;
  before(async () => (api = await startApi()));
  after(() => api.close());

  it('answers 200 {"status":"ok"} with the content version when the API and database are ready', async () => {
    const res = await api.request('GET', '/api/health');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { status: 'ok', contentVersion: 0 });
    await api.request('POST', '/api/plays', { token: await api.login(), body: { title: 'Demo: versioned' } });
    assert.ok((await api.request('GET', '/api/health')).body.contentVersion > 0, 'a content change moves the version');
  });

  it('answers unknown API routes with a JSON 404 and sets nosniff', async () => {
    const res = await api.request('GET', '/api/nothing-here');
    assert.equal(res.status, 404);
    assert.equal(res.body.statusCode, 404);
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(res.headers.get('x-powered-by'), null);
  });
});

describe('the site served by the API itself (npm start)', () => {
  let api: Api;
  before(async () => {
    api = await startApi();
    await mkdir(path.join(api.config.siteDir, '_astro'), { recursive: true });
    await writeFile(path.join(api.config.siteDir, 'index.html'), '<!doctype html><title>Home</title>');
    await writeFile(path.join(api.config.siteDir, 'books.html'), '<!doctype html><title>Books</title>');
    await writeFile(path.join(api.config.siteDir, '404.html'), '<!doctype html><title>Page Not Found</title>');
    await writeFile(path.join(api.config.siteDir, '_astro', 'page.abcdef12.js'), 'export {};');
  });
  after(() => api.close());

  it('sends every page, asset and the 404 page with the security headers nginx sends (one definition)', async () => {
    for (const [address, status] of [
      ['/', 200],
      ['/books', 200],
      ['/_astro/page.abcdef12.js', 200],
      ['/no-such-page', 404],
    ] as const) {
      const res = await fetch(api.url + address);
      assert.equal(res.status, status, address);
      for (const [name, value] of Object.entries(SECURITY_HEADERS)) assert.equal(res.headers.get(name), value, `${address}: ${name}`);
    }
    assert.match(SECURITY_HEADERS['Content-Security-Policy'], /frame-ancestors 'self'/);
    assert.equal(SECURITY_HEADERS['X-Frame-Options'], 'SAMEORIGIN');
  });

  it('compresses pages and scripts with brotli or gzip as the browser accepts, with the cache headers nginx sends', async () => {
    const words = Array.from({ length: 3000 }, (_, i) => `word ${i} كلمة`).join(' ');
    const files = {
      '/_astro/runtime.0123abcd.js': ['_astro/runtime.0123abcd.js', `export const words = ${JSON.stringify(words)};`],
      '/essays': ['essays.html', `<!doctype html><title>Essays</title><p>${words}</p>`],
      '/ar/': ['ar/index.html', `<!doctype html><html lang="ar" dir="rtl"><p>${words}</p>`],
    };
    for (const [file, text] of Object.values(files)) {
      await mkdir(path.dirname(path.join(api.config.siteDir, file)), { recursive: true });
      await writeFile(path.join(api.config.siteDir, file), text);
    }
    const decode = { br: zlib.brotliDecompressSync, gzip: zlib.gunzipSync, none: (b: Buffer) => b };
    for (const [address, [file, text]] of Object.entries(files)) {
      const cacheControl = file.startsWith('_astro/') ? 'public, max-age=31536000, immutable' : 'no-cache';
      for (const [accept, encoding] of [
        ['br', 'br'],
        ['gzip', 'gzip'],
        ['gzip, deflate, br, zstd', 'br'],
        ['br;q=0, gzip', 'gzip'],
        ['', 'none'],
        ['identity', 'none'],
      ] as const) {
        for (let time = 1; time <= 2; time++) {
          const what = `${address} with Accept-Encoding "${accept}" (${time})`;
          const res = await rawGet(api.url + address, { 'accept-encoding': accept });
          assert.equal(res.status, 200, what);
          assert.equal(res.headers['content-encoding'], encoding === 'none' ? undefined : encoding, what);
          assert.equal(decode[encoding](res.body).toString(), text, what);
          assert.equal(res.headers['vary'], 'Accept-Encoding', what);
          assert.equal(res.headers['cache-control'], cacheControl, what);
          assert.equal(res.headers['content-security-policy'], SECURITY_HEADERS['Content-Security-Policy'], what);
          assert.match(res.headers['content-type'] ?? '', file.endsWith('.js') ? /javascript/ : /^text\/html/, what);
          if (encoding !== 'none') {
            assert.ok(res.body.length < Buffer.byteLength(text) / 3, `${what}: ${res.body.length} bytes`);
            const again = await rawGet(api.url + address, { 'accept-encoding': accept, 'if-none-match': res.headers.etag! });
            assert.equal(again.status, 304, `${what}: revalidated`);
          }
        }
      }
    }
    // The site's not-found page too, with its 404.
    await writeFile(path.join(api.config.siteDir, '404.html'), `<!doctype html><title>Page Not Found</title><p>${words}</p>`);
    const missing = await rawGet(`${api.url}/no-such-page`, { 'accept-encoding': 'gzip' });
    assert.equal(missing.status, 404);
    assert.equal(missing.headers['content-encoding'], 'gzip');
    assert.match(zlib.gunzipSync(missing.body).toString(), /Page Not Found/);
  });
});

describe('the address /book/{id} served by the API itself', () => {
  let api: Api;
  before(async () => (api = await startApi()));
  after(() => api.close());

  it("sends /book/{id} to /books/{id} in the address's language (301), and leaves other addresses alone", async () => {
    for (const [address, location] of [
      ['/book/7', '/books/7'],
      ['/book/7/', '/books/7'],
      ['/ar/book/7', '/ar/books/7'],
      ['/ar/book/7/', '/ar/books/7'],
      ['/arts/book/7', null],
      ['/book/7/reviews', null],
      ['/books/ar/book/7', null],
    ] as const) {
      const res = await fetch(api.url + address, { redirect: 'manual' });
      if (location) {
        assert.equal(res.status, 301, address);
        assert.equal(new URL(res.headers.get('location')!, api.url).pathname, location, address);
      } else assert.notEqual(res.status, 301, address);
    }
  });
});

/** A GET whose body is returned as sent (fetch would decompress it). */
function rawGet(url: string, headers: Record<string, string>) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on('error', reject);
  });
}

describe('GET /api/docs', () => {
  let api: Api;
  before(async () => (api = await startApi()));
  after(() => api.close());

  it('serves an OpenAPI document generated from the code, with request schemas', async () => {
    const res = await api.request('GET', '/api/docs-json');
    assert.equal(res.status, 200);
    assert.match(res.body.openapi, /^3\./);
    for (const route of [
      '/api/books',
      '/api/books/{id}',
      '/api/books/{id}/download',
      '/api/admin/login',
      '/api/upload',
      '/api/contacts/{id}/read',
      '/api/image-variants',
    ]) {
      assert.ok(res.body.paths[route], `documents ${route}`);
    }
    const book = res.body.components.schemas.CreateBookDto;
    assert.ok(book.properties.title && book.properties.year);
    assert.ok(book.required.includes('publisher'));
    const error = res.body.components.schemas.ErrorBody;
    assert.deepEqual(Object.keys(error.properties), ['statusCode', 'message', 'errors', 'messageKey', 'messageParams', 'errorKeys']);
    assert.ok(res.body.components.schemas.MessageKey.enum.includes('validation.titleRequired'));
    assert.deepEqual(res.body.paths['/api/books'].post.responses.default.content['application/json'].schema, {
      $ref: '#/components/schemas/ErrorBody',
    });
    const publishing = res.body.paths['/api/admin/publishing'];
    assert.deepEqual(publishing.get.responses['200'].content['application/json'].schema, { $ref: '#/components/schemas/PublishingStatus' });
    assert.deepEqual(publishing.post.responses['202'].content['application/json'].schema, {
      $ref: '#/components/schemas/PublishingStatus',
    });
    assert.deepEqual(res.body.components.schemas.LastPublish.required, ['mode', 'pagesUpdated', 'liveAfterSaveMs']);
    const variants = res.body.paths['/api/image-variants'].get;
    assert.deepEqual(variants.responses['200'].content['application/json'].schema, { $ref: '#/components/schemas/ImageVariantsState' });
    assert.deepEqual(res.body.components.schemas.ImageVariantsState.properties.state.enum, ['pending', 'done', 'failed']);
    assert.equal(variants.security, undefined, 'anonymous');
  });

  it('says null and references the OpenAPI 3.0 way everywhere, so client generators read the document', async () => {
    const doc = (await api.request('GET', '/api/docs-json')).body;
    assert.match(doc.openapi, /^3\.0\./);
    const wrong: string[] = [];
    const walk = (node: unknown, at: string) => {
      if (Array.isArray(node)) node.forEach((child, i) => walk(child, `${at}/${i}`));
      else if (node && typeof node === 'object') {
        const schema = node as Record<string, unknown>;
        // 3.0 has no null type, and a $ref ignores what stands beside it.
        if (schema.type === 'null' || (Array.isArray(schema.type) && schema.type.includes('null'))) wrong.push(`${at}: type null`);
        if ('$ref' in schema && Object.keys(schema).length > 1 && !at.endsWith('/properties')) wrong.push(`${at}: $ref with siblings`);
        if (typeof schema.$ref === 'string' && !doc.components.schemas[schema.$ref.replace('#/components/schemas/', '')])
          wrong.push(`${at}: ${schema.$ref} does not exist`);
        for (const [key, child] of Object.entries(schema)) walk(child, `${at}/${key}`);
      }
    };
    walk(doc.components.schemas, '#/components/schemas');
    walk(doc.paths, '#/paths');
    assert.deepEqual(wrong, []);
    assert.deepEqual(doc.components.schemas.PublishingStatus.properties.lastLiveAt, {
      type: 'string',
      format: 'date-time',
      nullable: true,
    });
    assert.deepEqual(doc.components.schemas.CreateBookDto.properties.goodreadsUrl, { type: 'string', maxLength: 2000 });
    assert.deepEqual(doc.components.schemas.PublishingStatus.properties.lastPublish, {
      allOf: [{ $ref: '#/components/schemas/LastPublish' }],
      nullable: true,
    });
  });

  it('serves the interactive page, with the security headers of the site (it cannot be framed elsewhere)', async () => {
    const res = await fetch(`${api.url}/api/docs`);
    assert.equal(res.status, 200);
    const html = await res.text();
    assert.match(html, /swagger/i);
    const assets = [...html.matchAll(/(?:src|href)=["']([^"']+\.(?:js|css))["']/g)].map((m) => new URL(m[1], `${api.url}/api/docs/`).href);
    assert.ok(assets.length >= 3, assets.join(' '));
    for (const address of [`${api.url}/api/docs`, ...assets]) {
      const page = await fetch(address);
      assert.equal(page.status, 200, address);
      for (const [name, value] of Object.entries(SECURITY_HEADERS)) assert.equal(page.headers.get(name), value, `${address}: ${name}`);
    }
  });
});

describe('request log', () => {
  const logger = new RecordingLogger();
  let api: Api;
  before(async () => (api = await startApi({ LOG_REQUESTS: 'true' }, { logger })));
  after(() => api.close());

  it('writes one line per request with method, path, status and time, and no secrets', async () => {
    const token = await api.login();
    await api.request('GET', '/api/books?includeDeleted=true', { token });
    await api.request('POST', '/api/admin/login', { body: { username: ADMIN.username, password: 'wrong-password-here' } });
    const http = logger.lines.filter((l) => l.startsWith('HTTP '));
    assert.ok(
      http.some((l) => /^HTTP GET \/api\/books 200 \d+\.\dms$/.test(l)),
      http.join('\n'),
    );
    assert.ok(http.some((l) => /^HTTP POST \/api\/admin\/login 401 /.test(l)));
    assert.equal(http.filter((l) => l.includes('/api/books')).length, 1);
    const all = logger.lines.join('\n');
    assert.ok(!all.includes(token));
    assert.ok(!all.includes('includeDeleted'), 'query strings are not logged');
    assert.ok(!all.includes(ADMIN.password));
    assert.ok(!all.includes('wrong-password-here'));
  });
});

/** Runs the built API as an operator would (`node dist/src/main.js`) until it exits. */
function runMain(env: Record<string, string>) {
  const main = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src/main.js');
  const child = spawn(process.execPath, [main], {
    env: { PATH: process.env.PATH ?? '', LOG_REQUESTS: 'false', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => (stdout += c));
  child.stderr.on('data', (c) => (stderr += c));
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.once('close', (code) => resolve({ code, stdout, stderr })),
  );
}

describe('operator messages on a failed start', () => {
  it('says in one line that MySQL cannot be reached, without stack traces', async () => {
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as net.AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const varDir = await mkdtemp(path.join(os.tmpdir(), 'no-db-'));
    const run = await runMain({
      VAR_DIR: varDir,
      PORT: '0',
      DATABASE_HOST: '127.0.0.1',
      DATABASE_PORT: String(port),
      DATABASE_USER: 'u',
      DATABASE_NAME: 'db',
      DATABASE_WAIT_SECONDS: '1',
    });
    await rm(varDir, { recursive: true, force: true });
    assert.equal(run.code, 1);
    assert.equal(
      run.stderr.trim(),
      `Cannot reach the MySQL database at 127.0.0.1:${port} (ECONNREFUSED) after 1 s: start it, or check DATABASE_HOST and DATABASE_PORT (or DATABASE_URL)`,
    );
    assert.doesNotMatch(run.stdout + run.stderr, /^\s+at /m, 'no stack trace');
  });

  it('says in one line that the port is taken', async () => {
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as net.AddressInfo).port;
    const varDir = await mkdtemp(path.join(os.tmpdir(), 'port-taken-'));
    try {
      const run = await runMain({ VAR_DIR: varDir, PORT: String(port), ADMIN_PASSWORD: 'secret-123', SEED_DEMO: 'false' });
      assert.equal(run.code, 1);
      assert.equal(
        run.stderr.trim(),
        `Port ${port} is already in use on 127.0.0.1 (is the product already running?): stop the other program or set PORT to a free port`,
      );
      assert.doesNotMatch(run.stdout + run.stderr, /^\s+at /m, 'no stack trace');
    } finally {
      await new Promise((resolve) => taken.close(resolve));
      await rm(varDir, { recursive: true, force: true });
    }
  });
});

describe('first start', () => {
  it('creates the superadmin and demo content once, and keeps data across a restart', async () => {
    const first = await startApi({ SEED_DEMO: 'true' });
    let count: number;
    try {
      const books = await first.request('GET', '/api/books');
      assert.ok(books.body.length >= 3);
      assert.ok(
        books.body.every((b: { title: string }) => /^(Demo:|تجريبي:)/.test(b.title)),
        'demo content is marked as demo',
      );
      for (const route of CONTENT_KINDS) {
        assert.ok((await first.request('GET', `/api/${route}`)).body.length >= 1, route);
      }
      const cover = await fetch(first.url + books.body[0].coverImage);
      assert.equal(cover.headers.get('content-type'), 'image/jpeg');

      const token = await first.login();
      await first.request('POST', '/api/books', { token, body: { title: 'Kept', description: 'd', year: 2020, publisher: 'p' } });
      count = (await first.request('GET', '/api/books')).body.length;
    } catch (error) {
      await first.close();
      throw error;
    }
    await first.close({ keepData: true });

    const again = await startApi({ SEED_DEMO: 'true' }, { varDir: first.config.varDir, keepData: true });
    try {
      assert.equal((await again.request('GET', '/api/books')).body.length, count, 'no second round of demo content');
      await again.login();
    } finally {
      await again.close();
    }
  });
});

if (TEST_DB === 'mysql') {
  describe('database given by separate variables (MySQL)', () => {
    it('connects with DATABASE_HOST/USER/NAME and the password from DATABASE_PASSWORD_FILE, characters and all', async () => {
      const target = new URL(process.env.TEST_MYSQL_URL!);
      const password = decodeURIComponent(target.password);
      const dir = await mkdtemp(path.join(os.tmpdir(), 'db-secret-'));
      await writeFile(path.join(dir, 'password'), `${password}\n`);
      const api = await startApi(
        {
          DATABASE_HOST: target.hostname,
          DATABASE_PORT: target.port || '3306',
          DATABASE_USER: decodeURIComponent(target.username),
          DATABASE_PASSWORD_FILE: path.join(dir, 'password'),
          DATABASE_NAME: target.pathname.slice(1),
        },
        { databaseUrl: '' },
      );
      try {
        assert.equal((await api.request('GET', '/api/health')).status, 200);
        assert.equal((await api.request('POST', '/api/books', { token: await api.login(), body: sampleOf.books() })).status, 201);
      } finally {
        await api.close();
        await rm(dir, { recursive: true, force: true });
      }
    });
  });

  describe('database outage (MySQL)', () => {
    let api: Api;
    const proxy = new DbProxy(new URL(process.env.TEST_MYSQL_URL!));
    before(async () => {
      await proxy.open();
      api = await startApi({}, { databaseUrl: proxy.url() });
    });
    after(async () => {
      await api.close();
      await proxy.cut();
    });

    it('answers 503 quickly while the database is gone, saves nothing, and recovers by itself', async () => {
      const token = await api.login();
      await proxy.cut();

      const started = Date.now();
      const read = await api.request('GET', '/api/books');
      assert.equal(read.status, 503);
      assert.equal(read.body.message, 'The database is unavailable right now. Please try again in a moment.');
      assert.equal((await api.request('GET', '/api/health')).status, 503);
      const write = await api.request('POST', '/api/contacts', { body: { name: 'n', email: 'a@b.co', subject: 's', message: 'm' } });
      assert.equal(write.status, 503);
      assert.ok(Date.now() - started < 10_000, 'no hanging');

      await proxy.open();
      let health = 0;
      for (const deadline = Date.now() + 15_000; health !== 200 && Date.now() < deadline;) {
        health = (await api.request('GET', '/api/health')).status;
      }
      assert.equal(health, 200);
      assert.equal((await api.request('GET', '/api/books')).status, 200);
      const contacts = await api.request('GET', '/api/contacts', { token });
      assert.deepEqual(contacts.body, [], 'the failed write left nothing behind');
    });
  });
}
