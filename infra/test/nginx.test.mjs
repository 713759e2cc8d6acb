// The production nginx config (infra/nginx) checked with the real nginx binary: `nginx -t`, then
// serving a folder the builder built and switched, and proxying to a stand-in API. Skipped where
// nginx is not installed (Debian: apt-get install nginx-light libnginx-mod-http-brotli-filter).
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import { SiteBuilder } from '../builder/builder.mjs';
import { loadBuilderConfig } from '../builder/config.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const CONF_DIR = path.join(HERE, '../nginx');
const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx', '/usr/local/sbin/nginx'].find((p) => existsSync(p));
const HAS_BROTLI = existsSync('/etc/nginx/modules-enabled') && readdirSync('/etc/nginx/modules-enabled').some((f) => f.includes('brotli-filter'));

async function freePort() {
  const server = net.createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A raw GET (no automatic decompression), so Content-Encoding can be checked. */
function get(port, urlPath, headers = {}) {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: urlPath, headers }, (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, raw: Buffer.concat(chunks), text: Buffer.concat(chunks).toString('utf8') }));
      })
      .on('error', reject);
  });
}

/**
 * The shipped config with only the machine-specific parts replaced: the config folder, the site
 * root, the upstream, the port, and where nginx keeps its pid, logs and temp files.
 */
function writeConfig(prefix, { port, apiPort, siteLive }) {
  const portfolio = path.join(prefix, 'portfolio');
  const fix = (text) =>
    text
      .replaceAll('/etc/nginx/portfolio/', `${portfolio}/`)
      .replace('root /srv/site/live;', `root ${siteLive};`)
      .replace('listen 8080 default_server;', `listen 127.0.0.1:${port} default_server;`)
      .replace('server admin-api:3000;', `server 127.0.0.1:${apiPort};`)
      .replace('pid /run/nginx.pid;', `pid ${prefix}/nginx.pid;`)
      .replace('error_log /dev/stderr warn;', `error_log ${prefix}/error.log warn;`)
      .replace('access_log /dev/stdout;', ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `${t === 'body' ? 'client_body' : t}_temp_path ${prefix}/${t};`).join('\n    ') + '\n    access_log off;')
      .split('\n')
      .filter((line) => HAS_BROTLI || !/^\s*brotli/.test(line))
      .join('\n');
  execFileSync('mkdir', ['-p', portfolio]);
  for (const name of ['site.conf', 'security-headers.conf', 'proxy.conf']) writeFileSync(path.join(portfolio, name), fix(readFileSync(path.join(CONF_DIR, name), 'utf8')));
  // Debian's module snippets name `modules/…` relative to the prefix.
  if (existsSync('/usr/lib/nginx/modules')) symlinkSync('/usr/lib/nginx/modules', path.join(prefix, 'modules'));
  const main = path.join(prefix, 'nginx.conf');
  writeFileSync(main, fix(readFileSync(path.join(CONF_DIR, 'nginx.conf'), 'utf8')));
  return main;
}

describe('nginx (infra/nginx)', { skip: !NGINX && !process.env.CI && 'nginx is not installed' }, () => {
  let tmp;
  let port;
  let nginx;
  let api;
  let apiRequests;
  let builder;
  let control;

  const publish = async (content) => {
    writeFileSync(path.join(control, 'content'), content);
    builder.request({ reason: 'test' });
    await builder.whenIdle();
    assert.equal(builder.lastBuild.ok, true);
  };

  before(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'nginx-test-'));
    chmodSync(tmp, 0o755); // nginx's workers run as www-data when the test runs as root
    control = path.join(tmp, 'control');
    await mkdir(control);
    process.env.FAKE_SITE_CONTROL = control;
    const config = loadBuilderConfig({
      REBUILD_WEBHOOK_SECRET: 'nginx-test-secret-0123456789',
      VAR_DIR: path.join(tmp, 'var'),
      BUILD_COMMAND: `"${process.execPath}" "${path.join(HERE, 'fixtures/fake-site-build.mjs')}"`,
      BUILD_API_WAIT_MS: '0',
    });
    builder = await new SiteBuilder(config, { log: () => {} }).init();
    chmodSync(path.join(tmp, 'var'), 0o755);
    await publish(`version one ${'long enough to be worth compressing. '.repeat(40)}`);

    apiRequests = [];
    api = http.createServer((req, res) => {
      apiRequests.push({ url: req.url, headers: req.headers });
      res.writeHead(200, { 'content-type': 'application/json', 'x-content-type-options': 'nosniff' });
      res.end(JSON.stringify({ status: 'ok', padding: 'x'.repeat(1000) }));
    });
    await new Promise((resolve) => api.listen(0, '127.0.0.1', resolve));

    port = await freePort();
    const conf = writeConfig(tmp, { port, apiPort: api.address().port, siteLive: config.liveLink });
    const check = spawnSync(NGINX, ['-t', '-c', conf, '-p', `${tmp}/`], { encoding: 'utf8' });
    assert.equal(check.status, 0, `nginx -t failed:\n${check.stderr}`);
    assert.match(check.stderr, /syntax is ok/);

    nginx = spawn(NGINX, ['-c', conf, '-p', `${tmp}/`, '-g', 'daemon off;'], { stdio: ['ignore', 'ignore', 'pipe'] });
    const deadline = Date.now() + 10_000;
    for (;;) {
      try {
        await get(port, '/');
        break;
      } catch (error) {
        if (Date.now() > deadline || nginx.exitCode !== null) throw new Error(`nginx did not start: ${error.message}\n${readFileSync(path.join(tmp, 'error.log'), 'utf8')}`);
        await delay(20);
      }
    }
  });

  after(async () => {
    if (nginx && nginx.exitCode === null) {
      const exited = new Promise((resolve) => nginx.once('exit', resolve));
      nginx.kill('SIGQUIT');
      await exited;
    }
    await builder?.close();
    await new Promise((resolve) => (api ? api.close(resolve) : resolve()));
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  it('serves pages revalidated on each visit, with the security headers', async () => {
    const res = await get(port, '/');
    assert.equal(res.status, 200);
    assert.equal(res.headers['content-type'], 'text/html; charset=utf-8');
    assert.equal(res.headers['cache-control'], 'no-cache');
    assert.ok(res.headers.etag || res.headers['last-modified']);
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
    assert.equal(res.headers['x-frame-options'], 'SAMEORIGIN');
    assert.equal(res.headers['referrer-policy'], 'strict-origin-when-cross-origin');
    assert.match(res.headers['content-security-policy'], /default-src 'self'/);
    assert.equal(res.headers.server, 'nginx', 'no version in the Server header');
    assert.match(res.text, /version one/);
  });

  it('sends /book/{id} to /books/{id} with a permanent redirect', async () => {
    const res = await get(port, '/book/42');
    assert.equal(res.status, 301);
    assert.equal(res.headers.location, '/books/42');
  });

  it('caches hashed /_astro/ assets for a year', async () => {
    const res = await get(port, '/_astro/app.3f9a1c2b.js');
    assert.equal(res.status, 200);
    assert.equal(res.headers['cache-control'], 'public, max-age=31536000, immutable');
    assert.match(res.headers['content-type'], /javascript/);
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
  });

  it("answers unknown paths with the site's 404 page and a real 404 status", async () => {
    for (const p of ['/no-such-page', '/404.html', '/.git/config']) {
      const res = await get(port, p);
      assert.equal(res.status, 404, p);
      if (p !== '/.git/config') assert.match(res.text, /Page Not Found/, p);
    }
    assert.equal((await get(port, '/no-such-page')).headers['cache-control'], 'no-cache');
  });

  it('compresses with gzip, and with brotli where the module is installed', async () => {
    const gz = await get(port, '/', { 'accept-encoding': 'gzip' });
    assert.equal(gz.headers['content-encoding'], 'gzip');
    assert.match(zlib.gunzipSync(gz.raw).toString(), /version one/);
    assert.match(gz.headers.vary ?? '', /Accept-Encoding/i);
    if (HAS_BROTLI) {
      const br = await get(port, '/', { 'accept-encoding': 'br' });
      assert.equal(br.headers['content-encoding'], 'br');
      assert.match(zlib.brotliDecompressSync(br.raw).toString(), /version one/);
    }
  });

  it('proxies /api, /uploads and /admin-ui to admin-api with the client address', async () => {
    for (const p of ['/api/health', '/uploads/books/cover.png', '/admin-ui/overlay.js']) {
      apiRequests.length = 0;
      const res = await get(port, p, { 'accept-encoding': 'gzip' });
      assert.equal(res.status, 200, p);
      assert.equal(apiRequests.length, 1, `${p} reached the API`);
      assert.equal(apiRequests[0].url, p);
      assert.equal(apiRequests[0].headers['x-forwarded-for'], '127.0.0.1');
      assert.equal(apiRequests[0].headers['x-forwarded-proto'], 'http');
      assert.equal(res.headers['x-content-type-options'], 'nosniff', 'once, not repeated');
    }
    const json = await get(port, '/api/health', { 'accept-encoding': 'gzip' });
    assert.equal(json.headers['content-encoding'], 'gzip');
  });

  it('serves a new build as soon as the builder switches the link, without a reload', async () => {
    await publish('version two');
    const res = await get(port, '/');
    assert.match(res.text, /version two/);
  });
});
