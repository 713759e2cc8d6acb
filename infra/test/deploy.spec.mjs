// Deploying the site to an S3-compatible bucket after each publish (infra/builder/deploy.mjs): the
// real builder in renderer mode, the real API (SQLite, demo content), a real S3 server (s3rver on
// loopback, through the real AWS SDK), a real purge hook. Needs the built API (`npm run build`).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

import { DeleteObjectsCommand, GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { statusHeaders, verify } from '@portfolio/contract/webhook';

import { BuilderConfigError, loadBuilderConfig } from '../builder/config.mjs';
import {
  addressOfKey,
  CACHE_IMMUTABLE,
  CACHE_REVALIDATE,
  Deployer,
  deployTree,
  isManifestKey,
  keyOfFile,
  MANIFEST_KEY,
  MANIFEST_SHARD_PREFIX,
  purge,
} from '../builder/deploy.mjs';
import { S3Target } from '../builder/s3-target.mjs';
import { SECRET, startPublishingStack } from './support/publish-harness.mjs';
import { startS3Server } from './support/s3.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const skip = !existsSync(path.join(ROOT, 'admin-api/dist/src/main.js')) && !process.env.CI && 'no built API (run npm run build)';
const BUCKET = 'site';
const PREFIX = 'www/';

let work;
const cleanups = [];
before(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), 'deploy-test-'));
});
after(async () => {
  for (const fn of cleanups.reverse()) await fn();
  if (work) await rm(work, { recursive: true, force: true });
});

/** An HTTP server that records what it is sent and answers with `answer(req, body)`. */
async function recorder(answer = () => ({ status: 200, body: '{}' })) {
  const requests = [];
  const server = http.createServer(async (req, res) => {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const body = Buffer.concat(chunks).toString('utf8');
    requests.push({ method: req.method, url: req.url, headers: req.headers, body });
    const a = answer(req, body);
    res.writeHead(a.status, { 'content-type': a.type ?? 'application/json' });
    res.end(a.body);
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  cleanups.push(() => new Promise((r) => server.close(r)));
  return { url: `http://127.0.0.1:${server.address().port}`, requests };
}

/**
 * A pass-through proxy to the S3 server that keeps the Host header (the SDK's signature covers it),
 * records every PUT's and GET's key, and after `breakAfter(n)` lets n more PUTs through, then answers 503 to
 * everything until `heal()`. `hold()` keeps every request waiting until the function it returns is called.
 */
async function s3Proxy(target) {
  const upstream = new URL(target);
  const puts = [];
  const gets = [];
  let allowed = Infinity;
  let held = null;
  const server = http.createServer(async (req, res) => {
    if (held) await held.promise;
    if (allowed <= 0) {
      req.resume();
      res.writeHead(503, { 'content-type': 'application/xml' });
      return res.end('<?xml version="1.0"?><Error><Code>ServiceUnavailable</Code><Message>Cut by the test</Message></Error>');
    }
    const key = decodeURIComponent(new URL(req.url, 'http://x').pathname.replace(`/${BUCKET}/${PREFIX}`, ''));
    if (req.method === 'PUT') {
      allowed--;
      puts.push(key);
    }
    if (req.method === 'GET') gets.push(key);
    const out = http.request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    out.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(out);
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  cleanups.push(() => new Promise((r) => (server.closeAllConnections(), server.close(r))));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    puts,
    gets,
    breakAfter: (n) => (allowed = n),
    heal: () => (allowed = Infinity),
    hold() {
      const h = Promise.withResolvers();
      held = h;
      return () => {
        held = null;
        h.resolve();
      };
    },
  };
}

/** The key of an address as the publish records it (`/books/3` → `books/3`, `/` → `index.html`, the route `/ar` → `ar/index.html`) among `keys`. */
const keyOfAddress = (keys) => (a) =>
  a === '/' ? 'index.html' : keys.has(`${a.slice(1)}/index.html`) ? `${a.slice(1)}/index.html` : a.slice(1);
const md5 = (buf) => createHash('md5').update(buf).digest('hex');
/** The manifest shard that holds `key` (deploy.mjs: by the first byte of the key's MD5). */
const shardOfKey = (key) => `${MANIFEST_SHARD_PREFIX}${md5(key).slice(0, 2)}.json`;

describe('deploy after each publish (DEPLOY_S3_URL)', { skip }, () => {
  let s3, proxy, hook, p, client;
  /** Resolves with the next finished deploy attempt that `check` accepts. */
  const nextDeploy = (check = () => true, timeoutMs = 120_000) =>
    new Promise((resolve, reject) => {
      const d = p.b.builder.deployer;
      const timer = setTimeout(
        () => (d.off('deploy-end', look), reject(new Error(`no deploy in ${timeoutMs} ms:\n${p.b.lines.slice(-20).join('\n')}`))),
        timeoutMs,
      );
      const look = (e) => {
        if (!check(e)) return;
        clearTimeout(timer);
        d.off('deploy-end', look);
        resolve(e);
      };
      d.on('deploy-end', look);
    });
  /** Every object under the prefix: key → { type, cacheControl, body }. */
  /** The site's objects in the bucket: key → { type, cacheControl, body }; `.manifest`: the deploy's manifest, its shards merged. */
  async function bucket() {
    const out = new Map();
    const manifest = { root: null, files: {}, shards: 0 };
    let token;
    do {
      const page = await client.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: PREFIX, ContinuationToken: token }));
      for (const o of page.Contents ?? []) {
        const got = await client.send(new GetObjectCommand({ Bucket: BUCKET, Key: o.Key }));
        const key = o.Key.slice(PREFIX.length);
        if (isManifestKey(key)) {
          const data = JSON.parse(await got.Body.transformToString());
          if (key === MANIFEST_KEY) manifest.root = data;
          else {
            Object.assign(manifest.files, data.files);
            manifest.shards++;
          }
          continue;
        }
        out.set(key, {
          type: got.ContentType,
          cacheControl: got.CacheControl,
          body: Buffer.from(await got.Body.transformToByteArray()),
        });
      }
      token = page.NextContinuationToken;
    } while (token);
    out.manifest = manifest;
    return out;
  }
  /** Every local file of the live version: key → bytes. */
  async function liveTree(id = p.b.builder.live.id) {
    const dir = path.join(p.b.config.buildsDir, id);
    const out = new Map();
    for (const e of await readdir(dir, { withFileTypes: true, recursive: true })) {
      if (!e.isFile()) continue;
      const file = path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join('/');
      out.set(keyOfFile(file), await readFile(path.join(e.parentPath, e.name)));
    }
    return out;
  }
  /** Pages in the bucket that name an /_astro/ file the bucket does not hold. */
  function missingAssets(objects) {
    const missing = [];
    for (const [key, o] of objects) {
      if (!o.type?.startsWith('text/html')) continue;
      for (const [, asset] of o.body.toString('utf8').matchAll(/\/(_astro\/[^"'\s,)?#&]+)/g))
        if (!objects.has(asset)) missing.push(`${key} → ${asset}`);
    }
    return missing;
  }

  before(async () => {
    s3 = await startS3Server({ buckets: [BUCKET] });
    cleanups.push(() => s3.stop());
    proxy = await s3Proxy(s3.endpoint);
    hook = await recorder();
    client = new S3Client({
      region: s3.region,
      endpoint: s3.endpoint,
      forcePathStyle: true,
      credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
    });
    cleanups.push(() => client.destroy());
    p = await startPublishingStack({
      varDir: path.join(work, 'main'),
      builderEnv: {
        DEPLOY_S3_URL: `s3://${BUCKET}/${PREFIX}?region=${s3.region}&endpoint=${encodeURIComponent(proxy.url)}`,
        AWS_ACCESS_KEY_ID: s3.accessKeyId,
        AWS_SECRET_ACCESS_KEY: s3.secretAccessKey,
        PURGE_URL: `${hook.url}/purge`,
        DEPLOY_RETRIES: '50',
        DEPLOY_RETRY_DELAY_MS: '100',
        // Every version kept while the tests look at them: on a busy machine the demo pictures' variants
        // arrive one by one, each a publish, and the first version would be recycled meanwhile.
        KEEP_BUILDS: '100',
      },
      log: process.env.DEPLOY_TEST_LOG ? (line) => process.stderr.write(`[builder] ${line}\n`) : undefined,
    });
    cleanups.push(() => p.close());
  });

  it('the first publish deploys every file, pages under their addresses, with the right Content-Type and Cache-Control, and purges every address', async () => {
    const deployed = nextDeploy((e) => e.ok);
    const firstId = await p.b.when('the first publish', () => p.b.publishes[0]?.id);
    const first = await deployed;
    assert.equal(first.buildId, firstId);
    assert.equal(first.uploaded, (await liveTree(firstId)).size, 'the first deploy uploads every file of its version');
    // The demo pictures whose variants the API made after the first publish go live (and deploy) with later ones.
    const live = await p.published();
    const d =
      p.b.builder.deployer.lastDeployed?.buildId === live.id
        ? p.b.builder.deployer.lastDeployed
        : await nextDeploy((e) => e.ok && e.buildId === live.id);
    assert.equal(d.buildId, live.id);
    const local = await liveTree();
    const objects = await bucket();
    assert.deepEqual([...objects.keys()].sort(), [...local.keys()].sort(), 'the bucket holds exactly the version (and its manifest)');
    assert.equal(objects.manifest.root.buildId, live.id);
    assert.deepEqual(Object.keys(objects.manifest.files).sort(), [...local.keys()].sort(), 'the manifest names every object');
    for (const [key, bytes] of local) assert.ok(objects.get(key).body.equals(bytes), `${key} has the version's bytes`);
    const book = (await p.stack.call('GET', '/api/books')).body[0];
    const page = objects.get(`books/${book.id}`);
    assert.equal(page.type, 'text/html; charset=utf-8');
    assert.equal(page.cacheControl, CACHE_REVALIDATE);
    assert.equal(objects.get('index.html').type, 'text/html; charset=utf-8');
    assert.equal(objects.get('ar/index.html').cacheControl, CACHE_REVALIDATE);
    const css = [...objects.keys()].find((k) => k.startsWith('_astro/') && k.endsWith('.css'));
    assert.equal(objects.get(css).type, 'text/css; charset=utf-8');
    assert.equal(objects.get(css).cacheControl, CACHE_IMMUTABLE);
    const webp = [...objects.keys()].find((k) => k.startsWith('_astro/') && k.endsWith('.webp'));
    assert.equal(objects.get(webp).type, 'image/webp');
    assert.equal(objects.get(webp).cacheControl, CACHE_IMMUTABLE);
    assert.equal(objects.get('rss/news.xml').type, 'application/rss+xml; charset=utf-8');
    assert.equal(objects.get('rss/news.xml').cacheControl, CACHE_REVALIDATE);
    assert.equal(objects.get('sitemap.xml').type, 'application/xml; charset=utf-8');
    assert.deepEqual(missingAssets(objects), []);

    // The purge hook: one signed POST per deploy (a version may be deployed with the next), the first naming every address of its version (everything is new).
    assert.ok(hook.requests.length >= 1 && hook.requests.length <= p.b.publishes.length, `${hook.requests.length} purges`);
    const [call] = hook.requests;
    assert.equal(call.method, 'POST');
    assert.equal(call.url, '/purge');
    assert.ok(verify(SECRET, call.body, call.headers['x-signature-256']), 'signed like the rebuild webhook');
    const body = JSON.parse(call.body);
    assert.equal(body.buildId, firstId);
    assert.deepEqual(body.paths, [...(await liveTree(firstId)).keys()].map(addressOfKey).sort());
    assert.equal(JSON.parse(hook.requests.at(-1).body).buildId, live.id);

    // GET /status says so.
    const status = await (await fetch(`${p.b.url}/status`, { headers: statusHeaders(SECRET) })).json();
    assert.equal(status.deploy.state, 'deployed');
    assert.equal(status.deploy.target, `s3://${BUCKET}/${PREFIX}`);
    assert.equal(status.deploy.lastDeployed.buildId, live.id);
    assert.equal(status.deploy.lastError, null);
  });

  it('a one-book edit uploads only the objects that changed and purges exactly the changed addresses', async () => {
    const book = (await p.stack.call('GET', '/api/books')).body[0];
    const putsBefore = proxy.puts.length;
    const getsBefore = proxy.gets.length;
    const hooksBefore = hook.requests.length;
    const deployed = nextDeploy((e) => e.ok);
    await p.call('PATCH', `/api/books/${book.id}`, { title: 'A title fixed for the CDN' });
    const live = await p.published();
    const d = await deployed;
    assert.equal(d.buildId, live.id);
    assert.equal(live.mode, 'targeted');
    const keyOf = keyOfAddress(new Set((await liveTree()).keys()));
    // The publish names a folder index by its route (`/ar`); the purge by the address visitors ask for (`/ar/`).
    const addresses = [...live.added, ...live.changed, ...live.removed].map((a) => addressOfKey(keyOf(a))).sort();
    assert.ok(addresses.includes(`/books/${book.id}`));
    const puts = proxy.puts.slice(putsBefore);
    assert.deepEqual(
      puts.filter((k) => !isManifestKey(k)).sort(),
      [...live.added, ...live.changed].map(keyOf).sort(),
      'exactly the changed objects are uploaded',
    );
    assert.equal(d.uploaded, live.added.length + live.changed.length);
    assert.ok(d.unchanged > 50, `${d.unchanged} objects left alone`);
    // Pages after the assets they reference: the manifest is written last, its root after its shards.
    assert.equal(puts.at(-1), MANIFEST_KEY);
    // The manifest is updated by the changed entries: only the shards holding a changed key are
    // written, and only its root is read again (the builder keeps the rest between deploys).
    const shardPuts = puts.filter((k) => k.startsWith(MANIFEST_SHARD_PREFIX));
    assert.deepEqual(
      [...new Set(shardPuts)].sort(),
      [...new Set(puts.filter((k) => !isManifestKey(k)).map(shardOfKey))].sort(),
      'exactly the shards of the changed keys are written',
    );
    // The deploy builds on the version the bucket holds: it looks only at the files the publish changed.
    assert.equal(d.scanned, d.uploaded + d.deleted, `${d.scanned} files looked at`);
    assert.deepEqual(
      proxy.gets.slice(getsBefore).filter((k) => isManifestKey(k)),
      [MANIFEST_KEY],
      'only the manifest root is read',
    );
    assert.deepEqual((await bucket()).manifest.files[`books/${book.id}`]?.md5, md5((await liveTree()).get(`books/${book.id}`)));
    assert.equal(hook.requests.length, hooksBefore + 1);
    assert.deepEqual(JSON.parse(hook.requests.at(-1).body).paths, addresses, 'the purge names exactly the addresses of the publish');
    const page = await client.send(new GetObjectCommand({ Bucket: BUCKET, Key: `${PREFIX}books/${book.id}` }));
    assert.match(await page.Body.transformToString(), /A title fixed for the CDN/);
  });

  it('a deploy cut off halfway leaves no page pointing at a missing asset, is shown as retrying, and the next try completes it', async () => {
    const before = await bucket();
    const oldGallery = before.get('gallery').body.toString('utf8');
    const image = await p.upload('artworks', 1200, 800, 11);
    // Made by the API as it arrives (not yet shown anywhere, so no publish waits for them).
    await p.variantsMadeOf(image);
    // One object gets through (an asset: they go first), then the bucket answers 503 to everything.
    proxy.breakAfter(1);
    const failed = nextDeploy((e) => !e.ok);
    await p.call('POST', '/api/artworks', { title: 'A painting for the CDN test', medium: 'Oil', year: 2026, image });
    const live = await p.published();
    const f = await failed;
    assert.equal(f.buildId, live.id);
    assert.ok(
      live.added.some((a) => a.startsWith('/_astro/') && a.endsWith('.webp')),
      'the publish adds image variants',
    );
    assert.ok(live.changed.includes('/gallery'));

    const cut = await bucket();
    assert.deepEqual(missingAssets(cut), [], 'every page in the bucket finds its assets');
    assert.equal(cut.get('gallery').body.toString('utf8'), oldGallery, 'the old gallery page is still served');
    const status = await (await fetch(`${p.b.url}/status`, { headers: statusHeaders(SECRET) })).json();
    assert.ok(['retrying', 'deploying'].includes(status.deploy.state), status.deploy.state);
    assert.match(status.deploy.lastError.message, /ServiceUnavailable|503/);
    assert.equal(status.deploy.lastError.buildId, live.id);

    const done = nextDeploy((e) => e.ok);
    proxy.heal();
    const d = await done;
    assert.equal(d.buildId, live.id);
    const objects = await bucket();
    const local = await liveTree();
    assert.deepEqual([...objects.keys()].sort(), [...local.keys()].sort());
    for (const [key, bytes] of local) assert.equal(md5(objects.get(key).body), md5(bytes), key);
    assert.deepEqual(missingAssets(objects), []);
    assert.match(objects.get('gallery').body.toString('utf8'), /A painting for the CDN test/);
    // The purge carries every address of the publish (none was lost with the failed try).
    const purged = JSON.parse(hook.requests.at(-1).body).paths;
    const keyOf = keyOfAddress(new Set(local.keys()));
    for (const a of [...live.added, ...live.changed]) assert.ok(purged.includes(addressOfKey(keyOf(a))), a);
    const after = await (await fetch(`${p.b.url}/status`, { headers: statusHeaders(SECRET) })).json();
    assert.equal(after.deploy.state, 'deployed');
    assert.equal(after.deploy.lastError, null);
  });

  it('pages the new version removed are deleted from the bucket (after the pages that linked to them changed) and purged', async () => {
    const book = (await p.stack.call('GET', '/api/books')).body.at(-1);
    assert.ok((await client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: `${PREFIX}books/${book.id}` }))).ContentType);
    const deployed = nextDeploy((e) => e.ok);
    await p.call('PATCH', `/api/books/${book.id}`, { published: false });
    const live = await p.published();
    const d = await deployed;
    assert.equal(d.buildId, live.id);
    assert.ok(live.removed.includes(`/books/${book.id}`), live.removed.join(' '));
    assert.ok(d.deleted >= 1);
    await assert.rejects(
      client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: `${PREFIX}books/${book.id}` })),
      (e) => e.$metadata?.httpStatusCode === 404,
    );
    const objects = await bucket();
    assert.deepEqual([...objects.keys()].sort(), [...(await liveTree()).keys()].sort());
    assert.ok(JSON.parse(hook.requests.at(-1).body).paths.includes(`/books/${book.id}`));
    assert.equal(objects.manifest.root.buildId, live.id);
    assert.equal(objects.manifest.files[`books/${book.id}`], undefined);
  });

  /** The bucket holds exactly the live version, and its manifest says so. */
  async function assertBucketIsLive() {
    const objects = await bucket();
    const local = await liveTree();
    assert.deepEqual([...objects.keys()].sort(), [...local.keys()].sort(), 'the bucket holds exactly the version');
    for (const [key, bytes] of local) assert.equal(md5(objects.get(key).body), md5(bytes), key);
    assert.deepEqual(Object.keys(objects.manifest.files).sort(), [...local.keys()].sort(), 'the manifest names every object');
    for (const [key, bytes] of local) assert.equal(objects.manifest.files[key].md5, md5(bytes), `the manifest's ${key}`);
    assert.equal(objects.manifest.root.buildId, p.b.builder.live.id);
    return local;
  }

  it('versions published during a deploy: the next deploy looks only at the files of every publish since the deployed one', async () => {
    const books = (await p.stack.call('GET', '/api/books')).body;
    const deploys = [];
    const seen = (e) => deploys.push(e);
    p.b.builder.deployer.on('deploy-end', seen);
    // The bucket answers nothing for now: the first of these versions stays in its deploy while the others go live.
    const release = proxy.hold();
    await p.call('PATCH', `/api/books/${books[0].id}`, { title: 'Held in the first deploy' });
    const first = await p.published();
    await p.call('PATCH', `/api/books/${books[1].id}`, { title: 'Published while it deployed' });
    const skipped = await p.published();
    await p.call('PATCH', `/api/books/${books[2].id}`, { title: 'The newest version' });
    const newest = await p.published();
    assert.ok(first.id !== skipped.id && skipped.id !== newest.id);
    const deployed = nextDeploy((e) => e.buildId === newest.id);
    release();
    const d = await deployed;
    p.b.builder.deployer.off('deploy-end', seen);
    assert.ok(d.ok, d.error);
    assert.deepEqual(
      deploys.map((e) => [e.buildId, e.ok]),
      [
        [first.id, true],
        [newest.id, true],
      ],
      'the version in between is deployed with the newest',
    );
    const changedSinceFirst = p.b.builder.versions.filesBetween(first.id, newest.id);
    assert.ok(changedSinceFirst.length > 0);
    assert.equal(d.scanned, changedSinceFirst.length, 'only the files the two publishes changed are looked at');
    const local = await assertBucketIsLive();
    assert.ok(d.scanned < local.size / 4, `${d.scanned} of ${local.size} files`);
    assert.match((await bucket()).get(`books/${books[1].id}`).body.toString('utf8'), /Published while it deployed/);
    const purged = JSON.parse(hook.requests.at(-1).body).paths;
    for (const id of [books[1].id, books[2].id]) assert.ok(purged.includes(`/books/${id}`), `/books/${id} purged`);
  });

  it("after a failed deploy, and after a 'Publish now', the whole version is compared again and the bucket converges", async () => {
    const book = (await p.stack.call('GET', '/api/books')).body[0];
    proxy.breakAfter(0);
    const failed = nextDeploy((e) => !e.ok);
    await p.call('PATCH', `/api/books/${book.id}`, { title: 'Edited while the bucket fails' });
    const live = await p.published();
    assert.equal((await failed).buildId, live.id);
    const done = nextDeploy((e) => e.ok && e.buildId === live.id);
    proxy.heal();
    const d = await done;
    const local = await assertBucketIsLive();
    // What the failed try left in the bucket is not known: every file of the version is looked at.
    assert.equal(d.scanned, local.size);
    assert.match((await bucket()).get(`books/${book.id}`).body.toString('utf8'), /Edited while the bucket fails/);

    // 'Publish now' checks everything: the whole version again.
    const full = nextDeploy((e) => e.ok && e.buildId !== live.id);
    p.b.builder.request({ reason: 'publish-now' });
    const f = await full;
    await p.b.builder.whenIdle();
    assert.equal(p.b.builder.live.mode, 'full');
    assert.equal(f.buildId, p.b.builder.live.id);
    assert.equal(f.scanned, (await assertBucketIsLive()).size);

    // And the next edit is back to its own files.
    const next = nextDeploy((e) => e.ok);
    await p.call('PATCH', `/api/books/${book.id}`, { title: 'Edited after the full publish' });
    const after = await p.published();
    const n = await next;
    assert.equal(n.buildId, after.id);
    assert.equal(n.scanned, n.uploaded + n.deleted);
    assert.ok(n.uploaded >= 1);
    await assertBucketIsLive();
  });
});

describe('a purge that fails', () => {
  it('is tried again with the same addresses, also by the next run of the builder, although nothing more is uploaded', async () => {
    const s3 = await startS3Server({ buckets: [BUCKET] });
    cleanups.push(() => s3.stop());
    let answer = 500;
    const hook = await recorder(() => ({ status: answer, body: '{}' }));
    const dir = path.join(work, 'small-site');
    await mkdir(path.join(dir, 'books'), { recursive: true });
    await writeFile(path.join(dir, 'index.html'), '<h1>Home</h1>');
    await writeFile(path.join(dir, 'books', '3.html'), '<h1>Book</h1>');
    const stateFile = path.join(work, 'deploy-state.json');
    const config = {
      bucket: BUCKET,
      prefix: PREFIX,
      region: s3.region,
      endpoint: s3.endpoint,
      pathStyle: true,
      credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
      concurrency: 4,
      retries: 0,
      retryDelayMs: 10,
      purgeUrl: hook.url,
      purgeSecret: SECRET,
    };
    const end = (d) => new Promise((resolve) => d.once('deploy-end', resolve));
    const first = new Deployer(config, { stateFile });
    let done = end(first);
    first.schedule({ id: 'b1', dir });
    assert.match((await done).error, /purge hook answered HTTP 500/);
    assert.equal(first.status().state, 'failed');
    await first.close();

    // The builder starts again: the bucket already holds the version, the purge is still owed.
    answer = 200;
    const second = new Deployer(config, { stateFile });
    done = end(second);
    second.schedule({ id: 'b1', dir });
    const d = await done;
    assert.equal(d.ok, true);
    assert.equal(d.uploaded, 0);
    assert.deepEqual(JSON.parse(hook.requests.at(-1).body).paths, ['/', '/books/3']);
    assert.equal(existsSync(stateFile), false, 'nothing owed any more');
    await second.close();
  });
});

describe('a deploy that keeps failing (here: its purge)', () => {
  it('is tried again at the slowest interval after the quick tries (state failed, next try shown), until it works', async () => {
    const s3 = await startS3Server({ buckets: [BUCKET] });
    cleanups.push(() => s3.stop());
    let answer = 503;
    const hook = await recorder(() => ({ status: answer, body: '{}' }));
    const dir = path.join(work, 'stubborn-site');
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, 'index.html'), '<h1>Home</h1>');
    const config = {
      bucket: BUCKET,
      prefix: 'stubborn/',
      region: s3.region,
      endpoint: s3.endpoint,
      pathStyle: true,
      credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
      concurrency: 4,
      retries: 1,
      retryDelayMs: 20,
      purgeUrl: hook.url,
      purgeSecret: SECRET,
    };
    const deployer = new Deployer(config);
    cleanups.push(() => deployer.close());
    const ends = [];
    const worked = new Promise((resolve) =>
      deployer.on('deploy-end', (e) =>
        // The state as the overlay sees it once the deployer has handled the end.
        setImmediate(() => {
          ends.push({ ok: e.ok, state: deployer.status().state, retryAt: deployer.status().retryAt });
          if (ends.length === 3) answer = 200; // the outage ends after the quick try and two slow ones
          if (e.ok) resolve();
        }),
      ),
    );
    deployer.schedule({ id: 'b1', dir });
    await worked;
    assert.deepEqual(
      ends.map((e) => [e.ok, e.state]),
      [
        [false, 'retrying'],
        [false, 'failed'],
        [false, 'failed'],
        [true, 'deployed'],
      ],
    );
    assert.ok(
      ends.slice(0, 3).every((e) => e.retryAt),
      'each failure names its next try',
    );
  });
});

describe('removed files', () => {
  it('are deleted pages first, so a deploy cut between delete batches leaves no page without its asset', async () => {
    const s3 = await startS3Server({ buckets: [BUCKET] });
    cleanups.push(() => s3.stop());
    const real = new S3Client({
      region: s3.region,
      endpoint: s3.endpoint,
      forcePathStyle: true,
      credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
    });
    const batches = [];
    const client = {
      send: (command) => (
        command instanceof DeleteObjectsCommand && batches.push(command.input.Delete.Objects.map((o) => o.Key)),
        real.send(command)
      ),
    };
    const dir = path.join(work, 'shrinking-site');
    await mkdir(path.join(dir, '_astro'), { recursive: true });
    await writeFile(path.join(dir, 'index.html'), '<h1>Home</h1>');
    await writeFile(path.join(dir, 'old.html'), '<h1>Old page</h1>');
    for (let i = 0; i < 1001; i++) await writeFile(path.join(dir, '_astro', `chunk-${i}.js`), `export default ${i};`);
    const target = new S3Target({ bucket: BUCKET, prefix: 'shrinking/', client });
    await deployTree({ target, dir, buildId: 'b1', concurrency: 16 });
    await rm(path.join(dir, '_astro'), { recursive: true });
    await rm(path.join(dir, 'old.html'));
    const result = await deployTree({ target, dir, buildId: 'b2' });
    assert.equal(result.deleted, 1002);
    assert.equal(batches.length, 2);
    assert.equal(batches[0][0], 'shrinking/old', 'the removed page goes in the first batch, before any asset');
  });
});

describe('the manifest', () => {
  it('written whole by an older builder (format 1) is read: nothing unchanged is uploaded again, what it lists and the version lacks is deleted, and it is rewritten as shards', async () => {
    const s3 = await startS3Server({ buckets: [BUCKET] });
    cleanups.push(() => s3.stop());
    const client = new S3Client({
      region: s3.region,
      endpoint: s3.endpoint,
      forcePathStyle: true,
      credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
    });
    cleanups.push(() => client.destroy());
    const dir = path.join(work, 'old-manifest-site');
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, 'index.html'), '<h1>Home</h1>');
    await writeFile(path.join(dir, 'gone.html'), '<h1>Gone soon</h1>');
    await writeFile(path.join(dir, 'kept.html'), '<h1>Kept</h1>');
    const target = new S3Target({ bucket: BUCKET, prefix: 'old/', client });
    // The bucket as an older builder left it: the objects, and one manifest object naming them all.
    const files = {};
    for (const name of ['index.html', 'gone.html', 'kept.html']) {
      const body = await readFile(path.join(dir, name));
      const key = keyOfFile(name);
      await target.put(key, body, { contentType: 'text/html; charset=utf-8', cacheControl: CACHE_REVALIDATE });
      files[key] = { md5: md5(body), size: body.length, type: 'text/html; charset=utf-8', cacheControl: CACHE_REVALIDATE };
    }
    await target.put(MANIFEST_KEY, JSON.stringify({ format: 1, buildId: 'old', files }), {
      contentType: 'application/json',
      cacheControl: 'no-store',
    });

    await rm(path.join(dir, 'gone.html'));
    await writeFile(path.join(dir, 'index.html'), '<h1>Home, new</h1>');
    const puts = [];
    const result = await deployTree({ target, dir, buildId: 'new', onPut: (key) => puts.push(key) });
    assert.deepEqual(puts, ['index.html'], 'only the changed page is uploaded');
    assert.equal(result.deleted, 1);
    assert.equal(await target.get('gone'), null);

    const root = JSON.parse(await target.get(MANIFEST_KEY));
    assert.equal(root.format, 2);
    assert.equal(root.buildId, 'new');
    assert.equal(root.files, undefined, 'the root no longer holds the entries');
    // A builder starting now reads the shards: nothing to upload, nothing to delete.
    const again = await deployTree({ target, dir, buildId: 'new' });
    assert.deepEqual([again.uploaded, again.deleted, again.unchanged], [0, 0, 2]);
  });
});

describe('purge formats', () => {
  it('Cloudflare: POST /zones/<zone>/purge_cache with a bearer token and the whole URLs, 30 at a time', async () => {
    const cf = await recorder(() => ({ status: 200, body: JSON.stringify({ success: true, errors: [], result: { id: 'x' } }) }));
    const paths = Array.from({ length: 31 }, (_, i) => `/books/${i + 1}`);
    const r = await purge(
      { cloudflare: { zoneId: 'zone123', token: 'cf-token', siteUrl: 'https://example.org', apiUrl: cf.url } },
      { paths, buildId: 'b1' },
    );
    assert.deepEqual(r, { purged: 31, hooks: ['cloudflare'] });
    assert.equal(cf.requests.length, 2);
    for (const req of cf.requests) {
      assert.equal(req.method, 'POST');
      assert.equal(req.url, '/zones/zone123/purge_cache');
      assert.equal(req.headers.authorization, 'Bearer cf-token');
      assert.equal(req.headers['content-type'], 'application/json');
    }
    assert.deepEqual(
      JSON.parse(cf.requests[0].body).files,
      paths.slice(0, 30).map((p) => `https://example.org${p}`),
    );
    assert.deepEqual(JSON.parse(cf.requests[1].body).files, ['https://example.org/books/31']);
  });

  it('Cloudflare: an error answer fails the purge with its message', async () => {
    const cf = await recorder(() => ({
      status: 403,
      body: JSON.stringify({ success: false, errors: [{ code: 10000, message: 'Authentication error' }] }),
    }));
    await assert.rejects(
      purge({ cloudflare: { zoneId: 'z', token: 't', siteUrl: 'https://example.org', apiUrl: cf.url } }, { paths: ['/'], buildId: 'b' }),
      /HTTP 403: Authentication error/,
    );
  });

  it('CloudFront: CreateInvalidation (SDK) with the paths, their count and a caller reference', async () => {
    const cfront = await recorder((req, body) => ({
      status: 201,
      type: 'text/xml',
      body: `<?xml version="1.0"?><Invalidation xmlns="http://cloudfront.amazonaws.com/doc/2020-05-31/"><Id>I2J0I21PCUYOIK</Id><Status>InProgress</Status><CreateTime>2026-01-01T00:00:00Z</CreateTime>${body.replace(/^<\?xml[^>]*>/, '').replace(/<\/?InvalidationBatch[^>]*>/g, (t) => t.replace(/ xmlns="[^"]*"/, ''))}</Invalidation>`,
    }));
    const r = await purge(
      {
        cloudfront: {
          distributionId: 'E2EXAMPLE',
          endpoint: cfront.url,
          region: 'us-east-1',
          credentials: { accessKeyId: 'AKIDTEST', secretAccessKey: 'secret-for-the-test' },
        },
      },
      { paths: ['/', '/books/3', '/ar/books/3'], buildId: 'b7' },
    );
    assert.deepEqual(r.hooks, ['cloudfront']);
    assert.equal(cfront.requests.length, 1);
    const [req] = cfront.requests;
    assert.equal(req.method, 'POST');
    assert.equal(req.url, '/2020-05-31/distribution/E2EXAMPLE/invalidation');
    assert.match(req.headers.authorization, /^AWS4-HMAC-SHA256 Credential=AKIDTEST\/\d+\/us-east-1\/cloudfront\/aws4_request/);
    assert.match(
      req.body,
      /<Paths><Quantity>3<\/Quantity><Items><Path>\/<\/Path><Path>\/books\/3<\/Path><Path>\/ar\/books\/3<\/Path><\/Items><\/Paths>/,
    );
    assert.match(req.body, /<CallerReference>b7-\d+<\/CallerReference>/);
  });

  it('the generic hook: a failing answer fails the purge', async () => {
    const h = await recorder(() => ({ status: 500, body: '{}' }));
    await assert.rejects(purge({ purgeUrl: h.url, purgeSecret: SECRET }, { paths: ['/'], buildId: 'b' }), /purge hook answered HTTP 500/);
  });
});

describe('deploy configuration', () => {
  const base = { REBUILD_WEBHOOK_SECRET: SECRET };
  const problems = (env) => {
    try {
      loadBuilderConfig({ ...base, ...env }, os.tmpdir());
      return [];
    } catch (error) {
      assert.ok(error instanceof BuilderConfigError);
      return error.problems;
    }
  };

  it('is off by default', () => {
    assert.equal(loadBuilderConfig(base, os.tmpdir()).deploy, null);
  });

  it('reads the bucket, prefix, region and endpoint from DEPLOY_S3_URL, credentials from AWS_* (or *_FILE)', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'deploy-config-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const file = path.join(dir, 'secret');
    await import('node:fs/promises').then((fs) => fs.writeFile(file, 'from-a-file\n'));
    const c = loadBuilderConfig(
      {
        ...base,
        DEPLOY_S3_URL: 's3://my-site/www/?region=eu-west-1&endpoint=https://r2.example.com',
        AWS_ACCESS_KEY_ID: 'AKID',
        AWS_SECRET_ACCESS_KEY_FILE: file,
      },
      os.tmpdir(),
    ).deploy;
    assert.equal(c.bucket, 'my-site');
    assert.equal(c.prefix, 'www/');
    assert.equal(c.region, 'eu-west-1');
    assert.equal(c.endpoint, 'https://r2.example.com');
    assert.equal(c.pathStyle, true);
    assert.deepEqual(c.credentials, { accessKeyId: 'AKID', secretAccessKey: 'from-a-file' });
    assert.equal(c.retries, 5);
    // The site's build never sees the deploy's secrets.
    const all = loadBuilderConfig(
      { ...base, DEPLOY_S3_URL: 's3://my-site', AWS_ACCESS_KEY_ID: 'AKID', AWS_SECRET_ACCESS_KEY: 'x', SITE_URL: 'https://a.org' },
      os.tmpdir(),
    );
    assert.equal(all.siteEnv.AWS_SECRET_ACCESS_KEY, undefined);
    assert.equal(all.siteEnv.SITE_URL, 'https://a.org');
    assert.equal(all.deploy.prefix, '');
    assert.equal(all.deploy.pathStyle, false);
  });

  it('names every bad variable', () => {
    assert.deepEqual(problems({ DEPLOY_S3_URL: 'https://bucket' }), ['DEPLOY_S3_URL must start with s3:// (got https://)']);
    assert.deepEqual(problems({ DEPLOY_S3_URL: 's3://B_d' }), ['DEPLOY_S3_URL names no valid bucket (got "B_d")']);
    assert.deepEqual(problems({ DEPLOY_S3_URL: 's3://site?endpoint=ftp://x' }), [
      'DEPLOY_S3_URL endpoint must be an http:// or https:// URL (got "ftp://x")',
    ]);
    assert.match(
      problems({ DEPLOY_S3_URL: 's3://site', AWS_ACCESS_KEY_ID: 'a' })[0],
      /^AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY must be set together/,
    );
    assert.match(problems({ PURGE_URL: 'https://purge.example.org' })[0], /^PURGE_URL set without DEPLOY_S3_URL/);
    assert.deepEqual(problems({ DEPLOY_S3_URL: 's3://site', PURGE_URL: 'nope' }), [
      'PURGE_URL must be an http:// or https:// URL (the purge hook the builder POSTs the changed addresses to)',
    ]);
    const cf = problems({ DEPLOY_S3_URL: 's3://site', CLOUDFLARE_ZONE_ID: 'z' });
    assert.equal(cf.length, 2);
    assert.match(cf[0], /CLOUDFLARE_API_TOKEN/);
    assert.match(cf[1], /SITE_URL/);
    assert.deepEqual(problems({ DEPLOY_S3_URL: 's3://site', DEPLOY_RETRIES: '-1' }), [
      'DEPLOY_RETRIES must be a whole number from 0 to 100 (got "-1")',
    ]);
  });
});
