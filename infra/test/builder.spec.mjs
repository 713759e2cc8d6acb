// The builder (infra/builder) over real HTTP, with a fake site build (fixtures/fake-site-build.mjs)
// steered through files, so every case is deterministic and fast.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

import { sign, statusHeaders } from '@portfolio/contract/webhook';

import { SiteBuilder } from '../builder/builder.mjs';
import { loadBuilderConfig } from '../builder/config.mjs';
import { createBuilderServer } from '../builder/server.mjs';
import { until } from './support/wait.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const FAKE_BUILD = `"${process.execPath}" "${path.join(HERE, 'fixtures/fake-site-build.mjs')}"`;
const SECRET = 'builder-test-secret-0123456789';

/** Polls a condition until it holds or the deadline passes. */

const cleanups = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});

async function startBuilder(env = {}, dirs = {}) {
  const varDir = dirs.varDir ?? (await mkdtemp(path.join(os.tmpdir(), 'builder-test-')));
  const control = dirs.control ?? path.join(varDir, 'control');
  await mkdir(control, { recursive: true });
  process.env.FAKE_SITE_CONTROL = control;
  const config = loadBuilderConfig({
    REBUILD_WEBHOOK_SECRET: SECRET,
    VAR_DIR: varDir,
    BUILDER_PORT: '0',
    BUILD_COMMAND: FAKE_BUILD,
    BUILD_API_WAIT_MS: '0',
    SITE_API_URL: 'http://127.0.0.1:9',
    ...env,
  });
  const lines = [];
  const builder = await new SiteBuilder(config, { log: (l) => lines.push(l) }).init();
  const server = createBuilderServer(builder, { secret: SECRET });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${server.address().port}`;
  let closed = false;
  const close = async ({ keep = false } = {}) => {
    if (closed) return;
    closed = true;
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await builder.close();
    if (!keep) await rm(varDir, { recursive: true, force: true });
  };
  cleanups.push(close);

  let seq = 0;
  const b = {
    builder,
    config,
    url,
    varDir,
    control,
    lines,
    close,
    /** A correctly signed rebuild request; `tamper` changes the bytes after signing. */
    async post(fields = {}, { secret = SECRET, signature, tamper } = {}) {
      const raw = JSON.stringify({
        idempotencyKey: `key-${++seq}-${Date.now()}`,
        reason: 'content-changed',
        sentAt: new Date().toISOString(),
        upToEventId: seq,
        changeCount: 1,
        ...fields,
      });
      const headers = { 'content-type': 'application/json' };
      if (signature !== null) headers['x-signature-256'] = signature ?? sign(secret, raw);
      const res = await fetch(`${url}/hooks/rebuild`, { method: 'POST', headers, body: tamper ? tamper(raw) : raw });
      return { status: res.status, body: await res.json() };
    },
    async status() {
      const res = await fetch(`${url}/status`, { headers: statusHeaders(SECRET) });
      assert.equal(res.status, 200);
      return res.json();
    },
    async set(name, content = '') {
      await writeFile(path.join(control, name), content);
    },
    async unset(name) {
      await rm(path.join(control, name), { force: true });
    },
    liveTarget: () => readlinkSync(config.liveLink),
    liveHtml: () => readFileSync(path.join(config.liveLink, 'index.html'), 'utf8'),
    starts: () =>
      existsSync(path.join(control, 'starts')) ? readFileSync(path.join(control, 'starts'), 'utf8').trim().split('\n').length : 0,
    idle: () => until('the builder to be idle', () => !builder.current && !builder.pending),
  };
  return b;
}

/** One successful build with the given page text; returns its id. */
async function publish(b, content) {
  await b.set('content', content);
  const res = await b.post();
  assert.equal(res.status, 202);
  await b.idle();
  assert.equal(b.builder.lastBuild.ok, true, b.lines.join('\n'));
  return b.builder.lastBuild.id;
}

describe('POST /hooks/rebuild', () => {
  it('refuses a missing, wrong or tampered signature, and a stale request', async () => {
    const b = await startBuilder();
    const refused = [
      await b.post({}, { signature: null }),
      await b.post({}, { secret: 'another-secret-0123456789' }),
      await b.post({}, { signature: 'sha256=00' }),
      await b.post({}, { tamper: (raw) => raw.replace('content-changed', 'content-changes') }),
      await b.post({ sentAt: new Date(Date.now() - 10 * 60_000).toISOString() }),
      await b.post({ sentAt: undefined }),
    ];
    for (const res of refused) assert.equal(res.status, 401, JSON.stringify(res.body));
    assert.equal(b.builder.counts.requests, 0);
    assert.equal(b.starts(), 0, 'nothing was built');
    assert.equal(existsSync(b.config.liveLink), false);

    assert.equal(
      (await fetch(`${b.url}/hooks/rebuild`, { method: 'POST', body: 'x'.repeat(600_000) })).status,
      401,
      'no signature: refused before the size matters',
    );
    const big = await fetch(`${b.url}/hooks/rebuild`, {
      method: 'POST',
      headers: { 'x-signature-256': sign(SECRET, 'x') },
      body: 'x'.repeat(600_000),
    });
    assert.equal(big.status, 413);
  });

  it('answers a good request with 202 and builds', async () => {
    const b = await startBuilder();
    await b.set('content', 'first version');
    const res = await b.post({ upToEventId: 7 });
    assert.equal(res.status, 202);
    assert.equal(res.body.accepted, true);
    assert.match(res.body.buildId, /^\d{8}T\d{9}Z-[0-9a-f]{4}$/);
    await b.idle();
    assert.match(b.liveHtml(), /first version/);
    const status = await b.status();
    assert.equal(status.live.id, res.body.buildId);
    assert.equal(status.live.upToEventId, 7);
    assert.ok(status.live.durationMs >= 0);
    assert.equal(status.building, null);
  });

  it('ignores a repeated idempotency key (a retry after a lost answer)', async () => {
    const b = await startBuilder();
    const first = await b.post({ idempotencyKey: 'outbox-1-3-123' });
    await b.idle();
    const again = await b.post({ idempotencyKey: 'outbox-1-3-123' });
    assert.equal(first.body.duplicate, false);
    assert.equal(again.status, 202);
    assert.equal(again.body.duplicate, true);
    assert.equal(b.starts(), 1);
  });
});

describe('GET /status', () => {
  it('needs a fresh signature', async () => {
    const b = await startBuilder();
    assert.equal((await fetch(`${b.url}/status`)).status, 401);
    const old = statusHeaders(SECRET, Date.now() - 10 * 60_000);
    assert.equal((await fetch(`${b.url}/status`, { headers: old })).status, 401);
    assert.equal((await fetch(`${b.url}/status`, { headers: statusHeaders('wrong-secret-0123456789') })).status, 401);
    const ok = await b.status();
    assert.deepEqual(Object.keys(ok).sort(), [
      'building',
      'counts',
      'deploy',
      'lastBuild',
      'live',
      'queued',
      'retryAt',
      'startedWithoutSite',
    ]);
    assert.equal(ok.deploy, null, 'deploy is off by default');
    assert.equal(ok.startedWithoutSite, true, 'no site was live when it started');
    assert.equal((await fetch(`${b.url}/healthz`)).status, 200);
  });
});

describe('atomic switch', () => {
  it('builds into a new folder and switches the live link in one step; readers never see a half-written site', async () => {
    const b = await startBuilder();
    const first = await publish(b, 'version one');
    assert.equal(b.liveTarget(), path.join('builds', first), 'a relative link, valid wherever the volume is mounted');
    assert.ok(lstatSync(b.config.liveLink).isSymbolicLink());

    // A reader hammers the live page through the whole second build and the switch.
    const seen = new Set();
    let reading = true;
    const reader = (async () => {
      while (reading) {
        seen.add(await readFile(path.join(b.config.liveLink, 'index.html'), 'utf8'));
        await new Promise(setImmediate);
      }
    })();

    await b.set('hold');
    await b.set('content', 'version two');
    const res = await b.post();
    const building = await until('the half-written second build', () => {
      const file = path.join(b.config.buildsDir, res.body.buildId, 'index.html');
      return existsSync(file) && readFileSync(file, 'utf8').includes('half');
    });
    assert.ok(building);
    assert.match(b.liveHtml(), /version one/, 'live still serves the complete old site');
    assert.equal((await b.status()).building.id, res.body.buildId);

    await b.set('release');
    await b.idle();
    reading = false;
    await reader;
    assert.equal(b.liveTarget(), path.join('builds', res.body.buildId));
    assert.match(b.liveHtml(), /version two/);
    const versions = [...seen].map((html) => html.match(/version \w+/)?.[0] ?? html);
    assert.deepEqual(versions.sort(), ['version one', 'version two'], 'only ever a complete old or new page');
    assert.deepEqual(readdirSync(b.config.siteRoot).sort(), ['builds', 'cache', 'live'], 'no temporary link left behind');
  });
});

describe('failing builds', () => {
  it('leave the live site untouched and report the last lines of the log', async () => {
    const b = await startBuilder({ BUILD_LOG_TAIL_LINES: '10' });
    const good = await publish(b, 'good version');
    await b.set('content', 'broken version');
    await b.set('fail');
    await b.post();
    await b.idle();

    assert.equal(b.liveTarget(), path.join('builds', good));
    assert.match(b.liveHtml(), /good version/);
    const status = await b.status();
    assert.equal(status.live.id, good);
    assert.equal(status.lastBuild.ok, false);
    assert.equal(status.lastBuild.exitCode, 1);
    assert.equal(status.lastBuild.logTail.length, 10);
    assert.deepEqual(status.lastBuild.logTail.slice(-3), ['log line 50', 'Error: boom', 'The build command failed (exit code 1).']);
    assert.equal(existsSync(path.join(b.config.buildsDir, status.lastBuild.id)), false, 'the failed output is removed');
    assert.match(readFileSync(path.join(b.config.buildsDir, `${status.lastBuild.id}.log`), 'utf8'), /log line 1\n/, 'the full log is kept');

    // A build that "succeeds" without writing a site is a failure too.
    await b.unset('fail');
    await b.set('empty');
    await b.post();
    await b.idle();
    assert.equal(b.builder.lastBuild.ok, false);
    assert.match(b.builder.lastBuild.error, /no index\.html/);
    assert.equal(b.liveTarget(), path.join('builds', good));
  });

  it('are tried again by themselves a few times, with growing pauses', async () => {
    const b = await startBuilder({ BUILD_RETRIES: '2', BUILD_RETRY_DELAY_MS: '50' });
    const good = await publish(b, 'good version');
    await b.set('fail');
    await b.post();
    await b.builder.whenSettled();
    assert.equal(b.starts(), 1 + 3, 'the failed build and two new tries, then it stops trying');
    assert.equal(b.builder.lastBuild.ok, false);
    assert.deepEqual(b.builder.lastBuild.reasons, ['retry']);
    assert.equal((await b.status()).retryAt, null);
    assert.equal(b.liveTarget(), path.join('builds', good));

    // A passing cause: the next try succeeds.
    await b.set('content', 'recovered');
    await b.post();
    await until('a failure with a new try scheduled', () => b.builder.retry !== null);
    assert.match((await b.status()).retryAt, /^\d{4}-/);
    await b.unset('fail');
    await b.builder.whenSettled();
    assert.equal(b.builder.lastBuild.ok, true);
    assert.match(b.liveHtml(), /recovered/);
  });

  it('after the last new try, keep comparing the live site with the API and publish what it lacks once a publish succeeds', async () => {
    // A stand-in for the API's /api/health: its content version is 7 (seven changes saved).
    const api = (await import('node:http')).createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ status: 'ok', contentVersion: 7 }));
    });
    await new Promise((resolve) => api.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => api.close(resolve)));
    const b = await startBuilder({
      BUILD_RETRIES: '1',
      BUILD_RETRY_DELAY_MS: '50',
      BUILD_API_WAIT_MS: '5000',
      SITE_API_URL: `http://127.0.0.1:${api.address().port}`,
    });
    await b.set('fail');
    await b.set('content', 'changes up to 7');
    await b.post({ upToEventId: 7 });
    await until('the new try and a catch-up check to fail as well', () => b.starts() >= 3 && b.builder.retry?.catchUp, 30_000);
    assert.equal(b.builder.live, null);
    assert.match((await b.status()).retryAt, /^\d{4}-/, 'the next check is shown as the next try');

    // The cause passes; nobody saves again.
    await b.unset('fail');
    const live = await until('the missing changes live', async () => (await b.status()).live, 30_000);
    assert.deepEqual(live.reasons, ['catch-up']);
    assert.equal(live.upToEventId, 7);
    assert.match(b.liveHtml(), /changes up to 7/);
    assert.match(b.lines.join('\n'), /the API up to #7: publishing what is missing/);
    await b.idle();
    assert.equal((await b.status()).retryAt, null, 'nothing more to check once the live site has what the API has');
  });

  it('stop a build that runs too long, with its whole process tree', async () => {
    const b = await startBuilder({ BUILD_TIMEOUT_MS: '1000' });
    await b.set('hold');
    await b.post();
    await b.idle();
    assert.equal(b.builder.lastBuild.ok, false);
    assert.match(b.builder.lastBuild.error, /longer than 1 s/);
    assert.equal(existsSync(b.config.liveLink), false, 'nothing went live');
    const pid = Number(readFileSync(path.join(b.control, 'starts'), 'utf8').split(' ')[0]);
    // Gone, or a zombie waiting for whoever reaps orphans on this machine.
    await until('the build process to be gone', () => {
      try {
        return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].startsWith('Z');
      } catch {
        return true;
      }
    });
  });
});

describe('coalescing', () => {
  it('turns any number of requests during a build into exactly one follow-up build', async () => {
    const b = await startBuilder();
    await b.set('hold');
    await b.set('content', 'first');
    const first = await b.post({ upToEventId: 1 });
    await until('the first build to run', () => b.starts() === 1);

    await b.set('content', 'latest');
    const during = await Promise.all(Array.from({ length: 10 }, (_, i) => b.post({ upToEventId: 2 + i })));
    assert.ok(during.every((r) => r.status === 202 && r.body.coalesced === true));
    assert.equal((await b.status()).queued, true);

    await b.set('release');
    await b.idle();
    assert.equal(b.starts(), 2, 'one build plus exactly one follow-up');
    const status = await b.status();
    assert.equal(status.counts.started, 2);
    assert.equal(status.counts.coalesced, 10);
    assert.notEqual(status.live.id, first.body.buildId);
    assert.equal(status.live.upToEventId, 11, 'the follow-up covers the newest announced change');
    assert.match(b.liveHtml(), /latest/);
  });
});

describe('requests a build already contains', () => {
  it('are not built again: the build records the content version the API had when it started', async () => {
    // A stand-in API whose content version is 7 (seven changes saved before the build starts).
    const api = (await import('node:http')).createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ status: 'ok', contentVersion: 7 }));
    });
    await new Promise((resolve) => api.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => api.close(resolve)));
    const b = await startBuilder({ BUILD_API_WAIT_MS: '5000', SITE_API_URL: `http://127.0.0.1:${api.address().port}` });
    await b.set('hold');
    await b.set('content', 'first');
    b.builder.request({ reason: 'first-start' });
    await until('the first build to run', () => b.starts() === 1);

    const during = await b.post({ upToEventId: 7 });
    assert.equal(during.status, 202);
    assert.equal(during.body.upToDate, true, 'changes 1–7 are in the running build');
    await b.set('release');
    await b.idle();
    const after = await b.post({ upToEventId: 5 });
    assert.equal(after.body.upToDate, true, 'and in the live one');
    assert.equal(b.starts(), 1);

    const newer = await b.post({ upToEventId: 8 });
    assert.equal(newer.body.upToDate, undefined);
    await b.idle();
    assert.equal(b.starts(), 2, 'a newer change is built');
    const manual = await b.post({ upToEventId: 3, reason: 'publish-now' });
    assert.ok(manual.body.buildId, '"Publish now" always builds');
    await b.idle();
    assert.equal((await b.status()).counts.alreadyLive, 2);
  });
});

describe('retention and restarts', () => {
  it('keeps the last few successful builds', async () => {
    const b = await startBuilder({ KEEP_BUILDS: '2' });
    const ids = [];
    for (let i = 1; i <= 4; i++) ids.push(await publish(b, `v${i}`));
    const left = readdirSync(b.config.buildsDir, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
    assert.deepEqual(left, ids.slice(-2));
    assert.equal(existsSync(path.join(b.config.buildsDir, `${ids[0]}.json`)), false);
    assert.equal(b.liveTarget(), path.join('builds', ids[3]));
  });

  it('finds the live build again after a restart and removes builds cut short', async () => {
    const first = await startBuilder();
    const live = await publish(first, 'survives restarts');
    await first.close({ keep: true });
    await mkdir(path.join(first.config.buildsDir, '20990101T000000000Z-dead'));

    const again = await startBuilder({}, { varDir: first.varDir, control: first.control });
    assert.equal((await again.status()).live.id, live);
    assert.equal(existsSync(path.join(first.config.buildsDir, '20990101T000000000Z-dead')), false);
    assert.match(again.liveHtml(), /survives restarts/);
  });
});

describe('builder process (main.mjs)', () => {
  it('builds at start when there is no live site yet, and stops on SIGTERM', async () => {
    const varDir = await mkdtemp(path.join(os.tmpdir(), 'builder-main-'));
    const control = path.join(varDir, 'control');
    await mkdir(control, { recursive: true });
    await writeFile(path.join(control, 'content'), 'built at start');
    const child = spawn(process.execPath, [path.join(HERE, '../builder/main.mjs')], {
      env: {
        ...process.env,
        REBUILD_WEBHOOK_SECRET: SECRET,
        VAR_DIR: varDir,
        BUILDER_PORT: '0',
        BUILD_COMMAND: FAKE_BUILD,
        BUILD_API_WAIT_MS: '0',
        FAKE_SITE_CONTROL: control,
      },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    cleanups.push(async () => {
      if (child.exitCode === null) child.kill('SIGKILL');
      await rm(varDir, { recursive: true, force: true });
    });
    const { port } = await new Promise((resolve) => child.on('message', resolve));
    const live = await until('the first build', async () => {
      const s = await (await fetch(`http://127.0.0.1:${port}/status`, { headers: statusHeaders(SECRET) })).json();
      return s.live;
    });
    assert.deepEqual(live.reasons, ['first-start']);
    assert.match(readFileSync(path.join(varDir, 'site/live/index.html'), 'utf8'), /built at start/);
    const exited = new Promise((resolve) => child.on('exit', resolve));
    child.kill('SIGTERM');
    assert.equal(await exited, 0);
  });

  it('refuses unsigned and oversized hook requests from their headers, without reading (or holding) their bodies', async () => {
    const varDir = await mkdtemp(path.join(os.tmpdir(), 'builder-hooks-'));
    const child = spawn(process.execPath, [path.join(HERE, '../builder/main.mjs')], {
      env: {
        ...process.env,
        REBUILD_WEBHOOK_SECRET: SECRET,
        VAR_DIR: varDir,
        BUILDER_PORT: '0',
        BUILD_COMMAND: FAKE_BUILD,
        BUILD_API_WAIT_MS: '0',
        BUILD_ON_START: 'never',
      },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    cleanups.push(async () => {
      if (child.exitCode === null) child.kill('SIGKILL');
      await rm(varDir, { recursive: true, force: true });
    });
    const { port } = await new Promise((resolve) => child.on('message', resolve));
    const peakRss = () => Number(readFileSync(`/proc/${child.pid}/status`, 'utf8').match(/VmHWM:\s+(\d+) kB/)[1]) * 1024;
    const MB = 2 ** 20;
    const forged = { 'x-signature-256': `sha256=${'0'.repeat(64)}` };
    /** A POST announcing 62 MB; with `send`, the body is written (chunk by chunk, while no answer has come), else only the headers. */
    const post = (route, headers, { send }) =>
      new Promise((resolve, reject) => {
        const total = 62 * MB;
        const chunk = Buffer.alloc(256 * 1024, 'x');
        let answered = false;
        const req = http.request({
          host: '127.0.0.1',
          port,
          path: route,
          method: 'POST',
          headers: { 'content-type': 'application/json', 'content-length': total, ...headers },
        });
        req.on('response', (res) => {
          answered = true;
          res.resume();
          res.on('end', () => resolve(res.statusCode));
          req.destroy();
        });
        // A server that refuses early closes while the body is still coming: the sender may see that first.
        req.on('error', (error) =>
          answered ? undefined : send && ['EPIPE', 'ECONNRESET'].includes(error.code) ? resolve('closed') : reject(error),
        );
        if (!send) {
          // A server that waits for the body never answers: a deadline, so that fails instead of hanging.
          req.setTimeout(15_000, () => req.destroy(new Error(`${route}: no answer from the headers alone within 15 s`)));
          return void req.flushHeaders();
        }
        (async () => {
          for (let sent = 0; !answered && !req.destroyed && sent < total; sent += chunk.length) {
            if (req.write(chunk)) continue;
            await new Promise((go) => {
              const done = () => {
                req.off('drain', done).off('close', done);
                go(undefined);
              };
              req.on('drain', done).on('close', done);
            });
          }
          if (!answered && !req.destroyed) req.end();
        })().catch(() => {});
      });

    // Answered from the headers alone: the body is never sent.
    for (const route of ['/hooks/preview', '/hooks/rebuild']) {
      assert.equal(await post(route, {}, { send: false }), 401, `${route} without a signature`);
      assert.equal(await post(route, { 'x-signature-256': 'sha256=00' }, { send: false }), 401, `${route} with a malformed signature`);
      assert.equal(await post(route, forged, { send: false }), 413, `${route} with a signature of the right form, over the size limit`);
    }
    // Eight at once, sending their bodies: the builder holds none of them.
    const before = peakRss();
    const outcomes = await Promise.all(
      [{}, {}, {}, {}, forged, forged, forged, forged].map((headers, i) =>
        post(i % 4 === 2 ? '/hooks/rebuild' : '/hooks/preview', headers, { send: true }),
      ),
    );
    const grew = peakRss() - before;
    assert.ok(grew < 32 * MB, `the builder's peak memory grew by ${Math.round(grew / MB)} MB for eight 62 MB requests it refused`);
    assert.deepEqual(
      outcomes.map((o, i) => o === 'closed' || o === (i < 4 ? 401 : 413)),
      Array(8).fill(true),
      String(outcomes),
    );

    // A well-formed but wrong signature on a body within the limit is read, then refused; a signed one is answered.
    const body = JSON.stringify({ sentAt: new Date().toISOString(), paths: ['/'], overrides: {} });
    const wrong = await fetch(`http://127.0.0.1:${port}/hooks/preview`, {
      method: 'POST',
      headers: { ...forged, 'content-type': 'application/json' },
      body,
    });
    assert.equal(wrong.status, 401);
    const signed = await fetch(`http://127.0.0.1:${port}/hooks/preview`, {
      method: 'POST',
      headers: { 'x-signature-256': sign(SECRET, body), 'content-type': 'application/json' },
      body,
    });
    assert.equal(signed.status, 409, 'command mode has no renderer to preview with');
  });

  it('refuses to start without a secret, naming the variable', async () => {
    const child = spawn(process.execPath, [path.join(HERE, '../builder/main.mjs')], {
      env: { PATH: process.env.PATH },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c) => (stderr += c));
    const code = await new Promise((resolve) => child.on('exit', resolve));
    assert.equal(code, 1);
    assert.match(stderr, /REBUILD_WEBHOOK_SECRET must be set/);
  });
});
