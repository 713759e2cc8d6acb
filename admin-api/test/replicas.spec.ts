import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

import { Lease } from '../src/common/lease.js';
import { Db } from '../src/database/db.service.js';
import { OperationsService } from '../src/operations/operations.service.js';
import { RebuildSender } from '../src/publishing/rebuild-sender.js';
import { DbProxy } from './support/db-proxy.js';
import { ADMIN, type Api, type ApiProcess, sampleOf, startApi, startApiProcess, TEST_DB } from './support/harness.js';

/** Two API replicas on one database: one in this process (its internals reachable), one a process of its own. */
async function startPair(env: Record<string, string> = {}): Promise<[Api, ApiProcess]> {
  const a = await startApi(env);
  const b = await startApiProcess(env, { varDir: a.config.varDir });
  return [a, b];
}

async function until(condition: () => Promise<boolean>, what: string, ms = 15_000) {
  for (const deadline = Date.now() + ms; Date.now() < deadline;) {
    if (await condition()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('POST /api/admin/login on two replicas', () => {
  let a: Api;
  let b: ApiProcess;
  before(async () => ([a, b] = await startPair()));
  after(async () => {
    await b.stop();
    await a.close();
  });

  it('refuses the 21st attempt from one client whichever replica answers (20 per 15 minutes in all)', async () => {
    const replicas = [a, b];
    // Different usernames, so only the per-client limit applies; attempts alternate between replicas.
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        replicas[i % 2].request('POST', '/api/admin/login', { body: { username: `nobody-${i}`, password: 'wrong-password' } }),
      ),
    );
    assert.deepEqual(
      answers.map((r) => r.status),
      Array(20).fill(401),
    );
    for (const replica of replicas) {
      const refused = await replica.request('POST', '/api/admin/login', { body: { username: 'someone-else', password: 'wrong-password' } });
      assert.equal(refused.status, 429);
      assert.equal(refused.body.message, 'Too many attempts. Please try again in 15 minutes.');
      assert.ok(Number(refused.headers.get('retry-after')) > 800);
    }
  });
});

describe('saves on two API processes sharing one database', () => {
  let a: Api;
  let b: ApiProcess;
  // One API in this process (a fresh database), the other a process of its own on the same file.
  before(async () => ([a, b] = await startPair()));
  after(async () => {
    await b.stop();
    await a.close();
  });

  it('answers 2xx to every one of 200 concurrent saves on each process (a writer never gets a 500 because the other wrote)', async () => {
    const [tokenA, tokenB] = [await a.login(), await b.login()];
    const saves = [a, b].flatMap((replica, r) =>
      Array.from({ length: 200 }, (_, i) =>
        replica.request('POST', '/api/books', { token: r ? tokenB : tokenA, body: sampleOf.books({ title: `Concurrent ${r}-${i}` }) }),
      ),
    );
    const answers = await Promise.all(saves);
    const failed = answers.filter((res) => res.status >= 300).map((res) => `${res.status} ${res.text}`);
    assert.equal(failed.length, 0, `${failed.length} of 400 saves failed, e.g. ${[...new Set(failed)].slice(0, 3).join(' | ')}`);
    const listed = await a.request('GET', '/api/books', { token: tokenA });
    assert.equal(listed.body.filter((book: { title: string }) => book.title.startsWith('Concurrent ')).length, 400);
  });
});

describe('rebuild requests from two replicas', () => {
  let a: Api;
  let b: ApiProcess;
  const received: Array<{ changeCount: number }> = [];
  const receiver = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      received.push(JSON.parse(body));
      // A builder that takes a moment to accept: the other replica must not send meanwhile.
      setTimeout(() => res.writeHead(202).end('{}'), 200);
    });
  });
  before(async () => {
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(receiver.address() as net.AddressInfo).port}/hooks/rebuild`;
    // A quiet period that a burst of ten concurrent saves fits in even on a loaded machine (with
    // 300 ms, saves answered 300 ms apart under load were, rightly, two bursts).
    [a, b] = await startPair({
      REBUILD_WEBHOOK_URL: url,
      REBUILD_WEBHOOK_SECRET: 'a-secret-of-sixteen-chars',
      PUBLISH_QUIET_MS: '2000',
      PUBLISH_POLL_MS: '200',
    });
  });
  after(async () => {
    await b.stop();
    await a.close();
    await new Promise((r) => receiver.close(r));
  });

  it('sends exactly one request for a burst of saves spread over both replicas', async () => {
    const tokens = [await a.login(), await b.login()];
    const replicas = [a, b];
    const saves = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        replicas[i % 2].request('POST', '/api/books', { token: tokens[i % 2], body: sampleOf.books({ title: `Book ${i}` }) }),
      ),
    );
    assert.deepEqual(
      saves.map((res) => res.status),
      Array(10).fill(201),
    );
    await until(
      async () => (await a.request('GET', '/api/admin/publishing', { token: tokens[0] })).body?.pendingChanges === 0,
      'the burst to be delivered',
    );
    // Both replicas woke for their own saves and poll every 200 ms: give them time to (wrongly) send again.
    await new Promise((r) => setTimeout(r, 1000));
    assert.deepEqual(
      received.map((r) => r.changeCount),
      [10],
    );
    assert.equal(received[0].changeCount, 10);
    const status = await b.request('GET', '/api/admin/publishing', { token: tokens[1] });
    assert.equal(status.body.pendingChanges, 0);
  });
});

describe('the lease (leases table) between two replicas', () => {
  let a: Api;
  let b: Api;
  before(async () => {
    // Two app instances in this process: the test holds each one's database service.
    a = await startApi();
    b = await startApi({}, { varDir: a.config.varDir, keepData: true });
  });
  after(async () => {
    await b.close({ keepData: true });
    await a.close();
  });

  it('has one holder at a time, renewable only by it, taken over once it expires, and kept back for a retry wait', async () => {
    const first = new Lease(a.app.get(Db), 'test-job');
    const second = new Lease(b.app.get(Db), 'test-job');
    assert.equal(await first.acquire(300), true);
    assert.equal(await second.acquire(300), false, 'held by the first');
    assert.equal(await first.acquire(300), true, 'the holder renews');
    const heldUntil = (await second.holder())!.until;
    await until(async () => second.acquire(300), 'the second to take over after expiry');
    assert.ok(Date.now() > heldUntil, 'only after the expiry');
    assert.equal((await first.holder())!.owner, second.owner);
    assert.equal(await first.acquire(300), false, 'the old holder cannot take it back while it runs');

    await second.release(Date.now() + 60_000);
    assert.equal(await first.acquire(300), false, 'released with a retry time: nobody takes it before then');
    assert.equal(await first.acquire(300, Date.now(), true), true, "but 'Publish now' may");
    await first.release();
    assert.equal(await second.acquire(300), true, 'given back: free at once');
  });
});

describe('the rebuild sender when its replica stops', () => {
  it('lets the request on its way be answered, records it, and gives the lease back', async () => {
    let answer: (() => void) | null = null;
    let got = 0;
    const receiver = http.createServer((req, res) => {
      req.resume();
      got++;
      // Answered only when the test says so: the stop comes while the request is out.
      answer = () => res.writeHead(202).end('{}');
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(receiver.address() as net.AddressInfo).port}/hooks/rebuild`;
    const sender = await startApi({ REBUILD_WEBHOOK_URL: url, REBUILD_WEBHOOK_SECRET: 'a-secret-of-sixteen-chars', PUBLISH_QUIET_MS: '0' });
    const observer = await startApi({}, { varDir: sender.config.varDir, keepData: true });
    try {
      assert.equal((await sender.request('POST', '/api/books', { token: await sender.login(), body: sampleOf.books() })).status, 201);
      await until(async () => got === 1, 'the rebuild request to arrive');
      const rebuildSender = sender.app.get(RebuildSender) as unknown as { loop: { stopped: boolean } };
      const closing = sender.close({ keepData: true });
      await until(async () => rebuildSender.loop.stopped, 'the stop to reach the sender');
      answer!();
      await closing;
      const db = observer.app.get(Db);
      const attempts = (await db.manager.query('SELECT succeeded FROM publish_attempts')) as Array<{ succeeded: unknown }>;
      assert.deepEqual(
        attempts.map((a) => Boolean(Number(a.succeeded))),
        [true],
        'delivered, not cut off',
      );
      const pending = (await db.manager.query('SELECT COUNT(*) AS n FROM outbox_events WHERE processedAt IS NULL')) as Array<{
        n: unknown;
      }>;
      assert.equal(Number(pending[0].n), 0);
      const holder = await new Lease(db, 'rebuild-sender').holder();
      assert.equal(holder?.owner, null, 'the lease is free for another replica at once');
    } finally {
      await observer.close();
      await new Promise((r) => receiver.close(r));
    }
  });
});

describe('GET /api/health/ready', () => {
  let api: Api;
  before(async () => (api = await startApi()));
  after(async () => api.close());

  it('answers 503 while a migration has not run (here: its record removed) and 200 once it has', async () => {
    const rows = (await api.dataSource.query('SELECT * FROM migrations ORDER BY id DESC')) as Array<{
      id: number;
      timestamp: string | number;
      name: string;
    }>;
    const newest = rows[0];
    await api.dataSource.query('DELETE FROM migrations WHERE id = ?', [newest.id]);
    const pending = await api.request('GET', '/api/health/ready');
    assert.equal(pending.status, 503);
    assert.equal(pending.body.message, 'The database schema is not up to date yet (migrations are pending).');
    assert.equal((await api.request('GET', '/api/health')).status, 200, 'liveness is not readiness');
    await api.dataSource.query('INSERT INTO migrations (id, timestamp, name) VALUES (?, ?, ?)', [
      newest.id,
      Number(newest.timestamp),
      newest.name,
    ]);
    assert.equal((await api.request('GET', '/api/health/ready')).status, 200);
  });

  it('answers 200 when the database answers and the migrations ran', async () => {
    const res = await api.request('GET', '/api/health/ready');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { status: 'ready' });
  });

  it('is in the OpenAPI document with its 200 and 503 answers', async () => {
    const docs = await api.request('GET', '/api/docs-json');
    const ready = docs.body.paths['/api/health/ready']?.get;
    assert.ok(ready, 'documented');
    assert.ok(ready.responses['200'] && ready.responses['503']);
  });

  it('answers 503 once a shutdown began, while liveness stays 200', async () => {
    api.app.get(OperationsService).beginShutdown();
    const res = await api.request('GET', '/api/health/ready');
    assert.equal(res.status, 503);
    assert.equal(res.body.message, 'This server is shutting down; another one will answer.');
    assert.equal((await api.request('GET', '/api/health')).status, 200);
  });
});

if (TEST_DB === 'mysql') {
  describe('GET /api/health/ready while the database is cut (MySQL)', () => {
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

    it('fails with 503 while the database is unreachable and recovers when it is back', async () => {
      assert.equal((await api.request('GET', '/api/health/ready')).status, 200);
      await proxy.cut();
      const cut = await api.request('GET', '/api/health/ready');
      assert.equal(cut.status, 503);
      assert.equal(cut.body.message, 'The database is unavailable right now. Please try again in a moment.');
      await proxy.open();
      await until(async () => (await api.request('GET', '/api/health/ready')).status === 200, 'readiness to recover');
    });
  });
}

describe('metrics (METRICS_PORT)', () => {
  let api: Api;
  before(async () => (api = await startApi({ METRICS_PORT: '0' })));
  after(async () => api.close());

  it('counts requests by route pattern and status, with latency histograms and the outbox backlog, on its own loopback port', async () => {
    const token = await api.login();
    const created = await api.request('POST', '/api/books', { token, body: sampleOf.books() });
    await api.request('GET', `/api/books/${created.body.id}`);
    await api.request('GET', '/api/books/999999');
    const port = api.app.get(OperationsService).metricsPort!;
    const res = await fetch(`http://127.0.0.1:${port}/metrics`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type')!, /^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    const value = (series: string) =>
      Number(
        text
          .split('\n')
          .find((l) => l.startsWith(`${series} `))
          ?.split(' ')[1] ?? NaN,
      );
    assert.ok(value('portfolio_http_requests_total{method="GET",route="/api/books/:id",status="200"}') >= 1);
    assert.ok(value('portfolio_http_requests_total{method="GET",route="/api/books/:id",status="404"}') >= 1);
    assert.ok(value('portfolio_http_requests_total{method="POST",route="/api/books",status="201"}') >= 1);
    assert.ok(value('portfolio_http_request_duration_seconds_count{method="GET",route="/api/books/:id"}') >= 2);
    // prom-client writes `le` first; Prometheus reads labels in any order.
    assert.match(text, /^portfolio_http_request_duration_seconds_bucket\{le="\+Inf",method="GET",route="\/api\/books\/:id"\} \d+$/m);
    assert.equal(value('portfolio_outbox_backlog'), 1, 'the saved book waits in the outbox (no builder configured)');
    assert.ok(!/^portfolio_publish_live_timestamp_seconds /m.test(text), 'no builder status: the series is missing, not 0');
    assert.ok(!text.includes(`/api/books/${created.body.id}"`), 'ids never become label values');
    assert.equal((await fetch(`http://127.0.0.1:${port}/`)).status, 404);
    assert.equal((await api.request('GET', '/metrics')).status, 404, 'not on the public port');
  });
});

describe("metrics from the builder's status", () => {
  let api: Api;
  const builder = http.createServer((req, res) => {
    req.resume();
    if (req.url !== '/status') return res.writeHead(202).end('{}');
    const build = {
      id: 'b2',
      ok: true,
      startedAt: '2026-11-23T10:00:00.000Z',
      finishedAt: '2026-11-23T10:00:01.500Z',
      durationMs: 1500,
      upToEventId: 3,
      mode: 'targeted',
    };
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        building: null,
        queued: false,
        live: build,
        lastBuild: build,
        counts: { requests: 12, started: 9, succeeded: 8, failed: 1 },
        deploy: {
          state: 'idle',
          counts: { deploys: 4, failed: 1, uploaded: 30, deleted: 2 },
          lastDeployed: { buildId: 'b2', uploaded: 7, deleted: 1, ms: 820 },
        },
      }),
    );
  });
  before(async () => {
    await new Promise<void>((r) => builder.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(builder.address() as net.AddressInfo).port}`;
    api = await startApi({
      METRICS_PORT: '0',
      REBUILD_WEBHOOK_URL: `${base}/hooks/rebuild`,
      REBUILD_STATUS_URL: `${base}/status`,
      REBUILD_WEBHOOK_SECRET: 'a-secret-of-sixteen-chars',
    });
  });
  after(async () => {
    await api.close();
    await new Promise((r) => builder.close(r));
  });

  it('exposes publishes by result, the last publish (duration, result, mode, when it went live) and the deploy results', async () => {
    const text = await (await fetch(`http://127.0.0.1:${api.app.get(OperationsService).metricsPort}/metrics`)).text();
    assert.match(text, /^portfolio_publish_last_duration_seconds\{result="succeeded",mode="targeted"\} 1\.5$/m);
    assert.match(text, new RegExp(`^portfolio_publish_live_timestamp_seconds ${Date.parse('2026-11-23T10:00:01.500Z') / 1000}$`, 'm'));
    assert.match(text, /^# TYPE portfolio_publishes_total counter$/m);
    assert.match(text, /^portfolio_publishes_total\{result="succeeded"\} 8$/m);
    assert.match(text, /^portfolio_publishes_total\{result="failed"\} 1$/m);
    assert.match(text, /^# TYPE portfolio_deploys_total counter$/m);
    assert.match(text, /^portfolio_deploys_total\{result="succeeded"\} 4$/m);
    assert.match(text, /^portfolio_deploys_total\{result="failed"\} 1$/m);
    assert.match(text, /^portfolio_deploy_last_duration_seconds 0\.82$/m);
    assert.match(text, /^portfolio_deploy_last_objects\{action="uploaded"\} 7$/m);
  });
});

describe('the API process (SIGTERM, LOG_FORMAT=json)', () => {
  it('lets a running request finish after SIGTERM, refuses new connections, exits 0, and logs one JSON object per line', async () => {
    // A fresh database with the first admin, then the real entry point as a child process.
    const seed = await startApi();
    await seed.close({ keepData: true });
    const port = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, '127.0.0.1', () => {
        const p = (probe.address() as net.AddressInfo).port;
        probe.close(() => resolve(p));
      });
    });
    const main = path.join(path.dirname(fileURLToPath(import.meta.url)), '../src/main.js');
    const env: Record<string, string> = {
      ...(process.env as Record<string, string>),
      PORT: String(port),
      HOST: '127.0.0.1',
      VAR_DIR: seed.config.varDir,
      LOG_FORMAT: 'json',
      SEED_DEMO: 'false',
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
      SHUTDOWN_TIMEOUT_MS: '10000',
    };
    if (TEST_DB === 'mysql') env.DATABASE_URL = process.env.TEST_MYSQL_URL!;
    else delete env.DATABASE_URL;
    const child = spawn(process.execPath, [main], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const lines: string[] = [];
    let out = '';
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const parts = out.split('\n');
      out = parts.pop()!;
      lines.push(...parts.filter(Boolean));
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      await until(async () => lines.some((l) => l.includes('API ready on')), 'the API to start', 30_000);
      assert.equal((await fetch(`http://127.0.0.1:${port}/api/health`)).status, 200);

      // A login whose body arrives in two parts: it is running when SIGTERM comes.
      const body = JSON.stringify({ username: ADMIN.username, password: ADMIN.password });
      const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
        const req = http.request(
          {
            host: '127.0.0.1',
            port,
            method: 'POST',
            path: '/api/admin/login',
            headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), expect: '100-continue' },
          },
          (res) => {
            let text = '';
            res.on('data', (c) => (text += c));
            res.on('end', () => resolve({ status: res.statusCode!, text }));
          },
        );
        req.on('error', reject);
        // The server answers '100 Continue' once it has read the headers: from then on the request runs.
        req.on('continue', () => {
          req.write(body.slice(0, 10));
          child.kill('SIGTERM');
          void until(async () => lines.some((l) => l.includes('SIGTERM')), 'the SIGTERM log line').then(async () => {
            await assert.rejects(fetch(`http://127.0.0.1:${port}/api/health`), 'no new connections while draining');
            req.end(body.slice(10));
          }, reject);
        });
        req.flushHeaders();
      });
      const res = await answer;
      assert.equal(res.status, 200);
      assert.equal(typeof JSON.parse(res.text).sessionId, 'string');
      assert.equal(await exited, 0);

      const records = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
      for (const r of records) {
        assert.ok(typeof r.time === 'string' && !Number.isNaN(Date.parse(r.time)));
        assert.ok(['info', 'warn', 'error', 'debug', 'verbose', 'fatal'].includes(r.level as string));
        assert.equal(typeof r.message, 'string');
      }
      const login = records.find((r) => r.context === 'HTTP' && r.path === '/api/admin/login');
      assert.ok(login, 'the request line is logged');
      assert.equal(login.method, 'POST');
      assert.equal(login.route, '/api/admin/login');
      assert.equal(login.status, 200);
      assert.equal(typeof login.durationMs, 'number');
      assert.ok(records.some((r) => r.message === 'Stopped cleanly'));
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      await seed.close();
    }
  });
});
