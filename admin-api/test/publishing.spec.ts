import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, afterEach, describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';

import type { RebuildRequest } from '@portfolio/contract/webhook';
import { IsNull } from 'typeorm';

import type { BuilderStatus } from '../src/publishing/builder-client.js';
import { OutboxEvent } from '../src/publishing/outbox-event.entity.js';
import { PublishAttempt } from '../src/publishing/publish-attempt.entity.js';
import { type Api, sampleOf, startApi } from './support/harness.js';

const SECRET = 'test-webhook-secret-0123456789';
const hmac = (payload: string) => `sha256=${createHmac('sha256', SECRET).update(payload).digest('hex')}`;

/** Polls a condition until it holds or the deadline passes (never a fixed sleep as readiness). */
type Truthy<T> = Exclude<T, false | null | undefined | 0 | ''>;
async function until<T>(what: string, check: () => T | Promise<T>, timeoutMs = 10_000): Promise<Truthy<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as Truthy<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await delay(20);
  }
}

interface Received {
  at: number;
  raw: string;
  signature: string | undefined;
  idempotencyHeader: string | undefined;
  body: RebuildRequest;
}

/**
 * Stands in for the builder: records every rebuild request and answers as the test says
 * (202 by default; a function may hold the answer back or fail). Also serves GET /status.
 */
class FakeBuilder {
  readonly received: Received[] = [];
  inFlight = 0;
  maxInFlight = 0;
  answer: (r: Received, res: http.ServerResponse) => void | Promise<void> = (_r, res) => void res.writeHead(202).end('{"accepted":true}');
  status: BuilderStatus = { building: null, queued: false, live: null, lastBuild: null };
  statusRequests = 0;
  badStatusSignatures = 0;
  private server = http.createServer((req, res) => void this.handle(req, res));

  async listen(port = 0): Promise<this> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, '127.0.0.1', () => resolve());
    });
    return this;
  }

  get url() {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  env(extra: Record<string, string> = {}): Record<string, string> {
    return {
      REBUILD_WEBHOOK_URL: `${this.url}/hooks/rebuild`,
      REBUILD_WEBHOOK_SECRET: SECRET,
      REBUILD_STATUS_URL: `${this.url}/status`,
      ...extra,
    };
  }

  async close() {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse) {
    if (req.method === 'GET' && req.url === '/status') {
      this.statusRequests++;
      const ts = String(req.headers['x-timestamp']);
      if (req.headers['x-signature-256'] !== hmac(`GET /status ${ts}`)) {
        this.badStatusSignatures++;
        return res.writeHead(401).end();
      }
      return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(this.status));
    }
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const r: Received = {
      at: Date.now(),
      raw,
      signature: req.headers['x-signature-256'] as string | undefined,
      idempotencyHeader: req.headers['idempotency-key'] as string | undefined,
      body: JSON.parse(raw),
    };
    this.received.push(r);
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    res.on('close', () => this.inFlight--);
    await this.answer(r, res);
  }
}

/** Everything a test started, stopped afterwards even when it fails. */
const running: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const r of running.splice(0).reverse()) await r.close().catch(() => undefined);
});

async function builder(port?: number) {
  const b = await new FakeBuilder().listen(port);
  running.push(b);
  return b;
}

async function api(env: Record<string, string>, options: Parameters<typeof startApi>[1] = {}) {
  const a = await startApi({ PUBLISH_POLL_MS: '60000', PUBLISH_RETRY_BASE_MS: '100', PUBLISH_RETRY_MAX_MS: '400', ...env }, options);
  let closed = false;
  running.push({ close: () => (closed ? Promise.resolve() : a.close()) });
  const close = a.close.bind(a);
  a.close = async (o) => {
    closed = true;
    await close(o);
  };
  return a;
}

const undelivered = (a: Api) => a.dataSource.manager.countBy(OutboxEvent, { processedAt: IsNull() });
const attempts = (a: Api) => a.dataSource.manager.find(PublishAttempt, { order: { id: 'ASC' } });

async function createBook(a: Api, token: string, title = 'A Book') {
  const res = await a.request('POST', '/api/books', { token, body: sampleOf.books({ title }) });
  assert.equal(res.status, 201, res.text);
  return res.body.id as number;
}

describe('rebuild sender', () => {
  it('waits for a quiet period, then sends one signed request for a burst of saves', async () => {
    const b = await builder();
    const a = await api(b.env({ PUBLISH_QUIET_MS: '400', PUBLISH_MAX_WAIT_MS: '20000' }));
    const token = await a.login();

    const burstStarted = Date.now();
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) ids.push(await createBook(a, token, `Burst ${i}`));
    const [first] = await until('the rebuild request', () => b.received.length > 0 && b.received);

    assert.ok(first.at - burstStarted >= 400, 'not before the quiet period');
    assert.equal(first.signature, hmac(first.raw), 'HMAC-SHA256 of the exact body with the shared secret');
    assert.equal(first.idempotencyHeader, first.body.idempotencyKey);
    assert.equal(first.body.reason, 'content-changed');
    assert.equal(first.body.changeCount, 5);
    assert.deepEqual(
      first.body.changes.map((c) => [c.kind, c.entityId, c.action]),
      ids.map((id) => ['books', id, 'create']),
    );
    assert.ok(Math.abs(Date.parse(first.body.sentAt) - first.at) < 5000);
    await until('the outbox rows marked as delivered', async () => (await undelivered(a)) === 0);

    // The next change is the next request: nothing was sent in between.
    const edited = await a.request('PATCH', `/api/books/${ids[0]}`, { token, body: { title: 'Edited' } });
    assert.equal(edited.status, 200);
    const second = await until('the second request', () => b.received[1]);
    assert.equal(b.received.length, 2);
    assert.deepEqual(second.body.changes, [{ kind: 'books', entityId: ids[0], action: 'update' }]);
    assert.ok(second.body.upToEventId > first.body.upToEventId);
    assert.notEqual(second.body.idempotencyKey, first.body.idempotencyKey);
    const log = await until('both attempts recorded', async () => {
      const rows = await attempts(a);
      return rows.length === 2 && rows;
    });
    assert.ok(log.every((row) => row.succeeded && row.statusCode === 202 && row.attempt === 1));
  });

  it('sends after the maximum wait even while edits keep coming', async () => {
    const b = await builder();
    const a = await api(b.env({ PUBLISH_QUIET_MS: '500', PUBLISH_MAX_WAIT_MS: '900' }));
    const token = await a.login();
    const id = await createBook(a, token);
    const started = Date.now();
    let saves = 1;
    // Edits every 100 ms: the quiet period never comes, the maximum wait does.
    while (b.received.length === 0 && Date.now() - started < 5000) {
      assert.equal((await a.request('PATCH', `/api/books/${id}`, { token, body: { title: `Edit ${saves}` } })).status, 200);
      saves++;
      await delay(100);
    }
    assert.equal(b.received.length, 1, 'a request went out while the edits went on');
    assert.ok(Date.now() - started < 3000);
    assert.ok(b.received[0].body.changeCount >= 2);
  });

  it('never has two requests in flight', async () => {
    const b = await builder();
    const held: (() => void)[] = [];
    b.answer = (_r, res) => void held.push(() => res.writeHead(202).end());
    const a = await api(b.env({ PUBLISH_QUIET_MS: '100', PUBLISH_MAX_WAIT_MS: '200', PUBLISH_TIMEOUT_MS: '30000' }));
    const token = await a.login();

    await createBook(a, token, 'First');
    await until('the first request', () => held.length === 1);
    const later = [await createBook(a, token, 'Second'), await createBook(a, token, 'Third')];
    // Proving an absence takes some waiting: several quiet periods and maximum waits pass.
    await delay(600);
    assert.equal(b.received.length, 1, 'the second batch waits for the first answer');

    held[0]();
    const second = await until('the follow-up request', () => b.received[1]);
    assert.deepEqual(
      second.body.changes.map((c) => c.entityId),
      later,
    );
    held[1]?.();
    assert.equal(b.maxInFlight, 1);
    await until('all delivered', async () => held.length === 2 && (await undelivered(a)) === 0);
  });

  it('retries an HTTP 500 with growing, jittered delays and the same idempotency key', async () => {
    const b = await builder();
    b.answer = (_r, res) => void res.writeHead(b.received.length <= 2 ? 500 : 202).end(b.received.length <= 2 ? 'build server broke' : '');
    const a = await api(b.env({ PUBLISH_QUIET_MS: '50', PUBLISH_RETRY_BASE_MS: '200', PUBLISH_RETRY_MAX_MS: '5000' }));
    const token = await a.login();
    await createBook(a, token);

    await until('three tries', () => b.received.length === 3);
    await until('the outbox rows marked as delivered', async () => (await undelivered(a)) === 0);
    const [r1, r2, r3] = b.received;
    assert.equal(new Set(b.received.map((r) => r.body.idempotencyKey)).size, 1);
    assert.ok(r2.at - r1.at >= 100, `first retry after at least half of 200 ms (${r2.at - r1.at})`);
    assert.ok(r3.at - r2.at >= 200, `second retry after at least half of 400 ms (${r3.at - r2.at})`);
    const log = await attempts(a);
    assert.deepEqual(
      log.map((row) => [row.attempt, row.statusCode, row.succeeded]),
      [
        [1, 500, false],
        [2, 500, false],
        [3, 202, true],
      ],
    );
    assert.equal(log[0].error, 'HTTP 500: build server broke');
  });

  it('sends a request refused as too large (413) again without its list, as cut short; the next one lists its changes again', async () => {
    const b = await builder();
    // A receiver that takes small bodies only (an older builder took 64 KB): here, at most one change.
    b.answer = (r, res) => void res.writeHead(r.body.changes.length > 1 ? 413 : 202).end();
    const a = await api(b.env({ PUBLISH_QUIET_MS: '400', PUBLISH_MAX_WAIT_MS: '20000', PUBLISH_RETRY_BASE_MS: '100' }));
    const token = await a.login();
    await createBook(a, token, 'One');
    await createBook(a, token, 'Two');
    await until('the outbox rows marked as delivered', async () => (await undelivered(a)) === 0);
    const [refused, again] = b.received;
    assert.equal(b.received.length, 2);
    assert.deepEqual([refused.body.changes.length, refused.body.changesTruncated], [2, false]);
    assert.deepEqual([again.body.changes, again.body.changesTruncated, again.body.changeCount], [[], true, 2]);
    assert.equal(again.body.idempotencyKey, refused.body.idempotencyKey);

    const id = await createBook(a, token, 'Three');
    const next = await until('the next request', () => b.received[2]);
    assert.deepEqual([next.body.changes, next.body.changesTruncated], [[{ kind: 'books', entityId: id, action: 'create' }], false]);
  });

  it('keeps trying a dead endpoint, shows the failure, and delivers once it is back', async () => {
    const placeholder = await builder();
    const port = Number(new URL(placeholder.url).port);
    const env = placeholder.env({ PUBLISH_QUIET_MS: '50', REBUILD_STATUS_URL: '' });
    await placeholder.close();
    const a = await api(env);
    const token = await a.login();
    await createBook(a, token);

    const failed = await until('two failed attempts', async () => {
      const log = await attempts(a);
      return log.length >= 2 && log;
    });
    assert.ok(failed.every((row) => !row.succeeded && row.statusCode === null && /ECONNREFUSED/.test(row.error ?? '')));
    const status = await a.request('GET', '/api/admin/publishing', { token });
    assert.equal(status.status, 200);
    assert.equal(status.body.state, 'failed');
    assert.match(status.body.lastError, /ECONNREFUSED/);
    assert.equal(status.body.pendingChanges, 1);

    const b = await builder(port);
    await until('the request after the endpoint came back', () => b.received.length === 1);
    await until('delivered', async () => (await undelivered(a)) === 0);
    const after = await a.request('GET', '/api/admin/publishing', { token });
    assert.equal(after.body.state, 'live', 'a hosted hook (no status URL) that accepted the request');
    assert.equal(after.body.pendingChanges, 0);
  });

  it('never slows or fails a save while the webhook fails or hangs', async () => {
    const b = await builder();
    b.answer = (_r, res) => void res.writeHead(500).end();
    const a = await api(b.env({ PUBLISH_QUIET_MS: '0', PUBLISH_MAX_WAIT_MS: '0', PUBLISH_TIMEOUT_MS: '60000' }));
    const token = await a.login();
    const timed = async (label: string, n: number) => {
      const timings: number[] = [];
      for (let i = 0; i < n; i++) {
        const started = performance.now();
        await createBook(a, token, `${label} ${i}`);
        timings.push(performance.now() - started);
      }
      assert.ok(Math.max(...timings) < 1000, `saves ${label} took ${timings.map(Math.round).join(', ')} ms`);
    };

    await createBook(a, token, 'Wakes the sender');
    await until('failing attempts', async () => (await attempts(a)).length >= 2);
    await timed('while failing', 5);

    b.answer = () => undefined; // never answers
    await until('a hanging request', () => b.inFlight === 1);
    await timed('while hanging', 10);
    assert.equal(b.inFlight, 1, 'still the one request');
    assert.equal((await a.request('GET', '/api/books')).body.length, 16);
  });

  it('loses no publish across a restart', async () => {
    const b = await builder();
    // First run: the quiet period is far longer than the run, so nothing is sent before it stops.
    const first = await api(b.env({ PUBLISH_QUIET_MS: '600000', PUBLISH_MAX_WAIT_MS: '600000' }));
    const token = await first.login();
    const id = await createBook(first, token, 'Saved just before a restart');
    await first.close({ keepData: true });
    assert.equal(b.received.length, 0);

    const again = await api(b.env({ PUBLISH_QUIET_MS: '50' }), { varDir: first.config.varDir, keepData: true });
    const r = await until('the request after the restart', () => b.received[0]);
    assert.deepEqual(r.body.changes, [{ kind: 'books', entityId: id, action: 'create' }]);
    await until('delivered', async () => (await undelivered(again)) === 0);
  });

  it('lists up to 2,000 changed items in one request (a burst of additions stays a targeted publish); more is cut short', async () => {
    const b = await builder();
    const first = await api(b.env({ PUBLISH_QUIET_MS: '600000', PUBLISH_MAX_WAIT_MS: '600000' }));
    /** Outbox rows as 2,000 saves through the API would leave them, written straight to the database. */
    const saved = async (a: Api, ids: number[]) => {
      const createdAt = new Date();
      for (let i = 0; i < ids.length; i += 400) {
        const rows = ids.slice(i, i + 400).map((entityId) => ({ kind: 'books' as const, entityId, action: 'create' as const, createdAt }));
        await a.dataSource.manager.insert(OutboxEvent, rows);
      }
    };
    const range = (from: number, n: number) => Array.from({ length: n }, (_, i) => from + i);
    await saved(first, range(1, 2000));
    await first.close({ keepData: true });

    const again = await api(b.env({ PUBLISH_QUIET_MS: '50', PUBLISH_MAX_WAIT_MS: '600000' }), {
      varDir: first.config.varDir,
      keepData: true,
    });
    const whole = await until('the request for 2,000 saves', () => b.received[0]);
    assert.equal(whole.body.changesTruncated, false, 'a targeted publish');
    assert.equal(whole.body.changeCount, 2000);
    assert.deepEqual(
      whole.body.changes.map((c) => c.entityId),
      range(1, 2000),
    );
    await until('delivered', async () => (await undelivered(again)) === 0);
    await again.close({ keepData: true });

    // One more distinct item than can be listed: the builder is told the list is cut short (a full publish).
    const third = await api(b.env({ PUBLISH_QUIET_MS: '600000', PUBLISH_MAX_WAIT_MS: '600000' }), {
      varDir: first.config.varDir,
      keepData: true,
    });
    await saved(third, range(3001, 2001));
    await third.close({ keepData: true });
    await api(b.env({ PUBLISH_QUIET_MS: '50', PUBLISH_MAX_WAIT_MS: '600000' }), { varDir: first.config.varDir, keepData: true });
    const cut = await until('the request for 2,001 saves', () => b.received[1]);
    assert.equal(cut.body.changesTruncated, true);
    assert.equal(cut.body.changeCount, 2001);
    assert.equal(cut.body.changes.length, 2000, 'the newest 2,000 are listed');
    assert.equal(cut.body.changes.at(-1)!.entityId, 5001);
  });

  it('sends again after a restart that cut a request short, with the same idempotency key', async () => {
    const b = await builder();
    b.answer = () => undefined;
    const first = await api(b.env({ PUBLISH_QUIET_MS: '0', PUBLISH_TIMEOUT_MS: '60000' }));
    await createBook(first, await first.login());
    await until('a hanging request', () => b.inFlight === 1);
    await first.close({ keepData: true });

    b.answer = (_r, res) => void res.writeHead(202).end();
    const again = await api(b.env({ PUBLISH_QUIET_MS: '0' }), { varDir: first.config.varDir, keepData: true });
    await until('the request sent again', () => b.received.length === 2);
    assert.equal(b.received[1].body.idempotencyKey, b.received[0].body.idempotencyKey);
    await until('delivered', async () => (await undelivered(again)) === 0);
  });
});

describe('GET /api/admin/publishing', () => {
  it('answers 401 without a session', async () => {
    const a = await api({});
    for (const method of ['GET', 'POST']) {
      const res = await a.request(method, '/api/admin/publishing');
      assert.equal(res.status, 401);
      assert.deepEqual(res.body, {
        statusCode: 401,
        message: 'Authentication required. Please sign in again.',
        messageKey: 'error.authenticationRequired',
      });
    }
  });

  it('says publishing is not set up when no webhook is configured, and counts the unpublished changes', async () => {
    const a = await api({});
    const token = await a.login();
    await createBook(a, token);
    const res = await a.request('GET', '/api/admin/publishing', { token });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, {
      state: 'idle',
      pendingChanges: 1,
      lastLiveAt: null,
      lastDurationMs: null,
      lastError: null,
      webhookConfigured: false,
      nextAttemptAt: null,
      liveBuildId: null,
      builderReachable: null,
      lastPublish: null,
      deploy: null,
    });
  });

  it("reports the builder's state: live with time and duration, building, failed with the log's last lines", async () => {
    const b = await builder();
    const a = await api(b.env({ PUBLISH_QUIET_MS: '0' }));
    const token = await a.login();
    await createBook(a, token);
    const sent = await until('the request', () => b.received[0]);
    await until('delivered', async () => (await undelivered(a)) === 0);
    const upTo = sent.body.upToEventId;

    const live = {
      id: '20250101T000000000Z-1',
      ok: true,
      startedAt: '2025-01-01T00:00:00.000Z',
      finishedAt: '2025-01-01T00:00:03.500Z',
      durationMs: 3500,
      upToEventId: upTo,
    };
    b.status = {
      building: { id: 'next', startedAt: '2025-01-01T00:01:00.000Z', upToEventId: upTo },
      queued: false,
      live: null,
      lastBuild: null,
    };
    let res = await a.request('GET', '/api/admin/publishing', { token });
    assert.equal(res.body.state, 'building');
    assert.equal(res.body.pendingChanges, 0, 'nothing known to be live yet, and nothing left to send');

    b.status = { building: null, queued: false, live, lastBuild: live };
    res = await a.request('GET', '/api/admin/publishing', { token });
    assert.deepEqual(res.body, {
      state: 'live',
      pendingChanges: 0,
      lastLiveAt: live.finishedAt,
      lastDurationMs: 3500,
      lastError: null,
      webhookConfigured: true,
      nextAttemptAt: null,
      liveBuildId: live.id,
      builderReachable: true,
      lastPublish: null,
      deploy: null,
    });

    // A change delivered but not yet in the live build is still pending.
    b.status = { building: null, queued: false, live: { ...live, upToEventId: upTo - 1 }, lastBuild: live };
    res = await a.request('GET', '/api/admin/publishing', { token });
    assert.equal(res.body.pendingChanges, 1);

    b.status = {
      building: null,
      queued: false,
      live,
      lastBuild: { ...live, id: 'broken', ok: false, logTail: ['src/pages/index.astro: oops', 'Build failed'] },
    };
    res = await a.request('GET', '/api/admin/publishing', { token });
    assert.equal(res.body.state, 'failed');
    assert.equal(res.body.lastError, 'src/pages/index.astro: oops\nBuild failed');
    assert.equal(res.body.lastLiveAt, live.finishedAt, 'the live site is still the last good build');

    b.status = { building: null, queued: true, live, lastBuild: live };
    assert.equal((await a.request('GET', '/api/admin/publishing', { token })).body.state, 'queued');
    assert.equal(b.badStatusSignatures, 0, 'status requests are signed');
    assert.ok(b.statusRequests >= 5);

    await b.close();
    res = await a.request('GET', '/api/admin/publishing', { token });
    assert.equal(res.status, 200);
    assert.equal(res.body.builderReachable, false);
  });
});

describe('GET /api/admin/publishing: the copy of the site in a bucket (DEPLOY_S3_URL)', () => {
  it("reports the builder's deploy: retrying with its error and next try, then deployed with the build the bucket holds", async () => {
    const b = await builder();
    const a = await api(b.env({ PUBLISH_QUIET_MS: '0' }));
    const token = await a.login();
    const live = {
      id: '20250101T000000000Z-2',
      ok: true,
      startedAt: '2025-01-01T00:00:00.000Z',
      finishedAt: '2025-01-01T00:00:01.000Z',
      durationMs: 1000,
      upToEventId: null,
    };
    const deploy = {
      state: 'retrying' as const,
      target: 's3://site/www/',
      deployingBuildId: null,
      retryAt: '2025-01-01T00:00:20.000Z',
      lastDeployed: {
        buildId: '20241231T000000000Z-1',
        at: '2024-12-31T00:00:02.000Z',
        uploaded: 142,
        deleted: 0,
        unchanged: 0,
        purged: 142,
        ms: 1100,
      },
      lastError: { buildId: live.id, at: '2025-01-01T00:00:10.000Z', message: 'ServiceUnavailable: Slow down (HTTP 503)' },
    };
    b.status = { building: null, queued: false, live, lastBuild: live, deploy };
    let res = await a.request('GET', '/api/admin/publishing', { token });
    assert.equal(res.status, 200);
    assert.equal(res.body.state, 'live', 'the site itself is live; the deploy is reported beside it');
    assert.deepEqual(res.body.deploy, {
      state: 'retrying',
      target: 's3://site/www/',
      lastDeployedBuildId: '20241231T000000000Z-1',
      lastDeployedAt: '2024-12-31T00:00:02.000Z',
      lastUploaded: 142,
      lastError: 'ServiceUnavailable: Slow down (HTTP 503)',
      retryAt: '2025-01-01T00:00:20.000Z',
    });
    b.status = {
      ...b.status,
      deploy: {
        ...deploy,
        state: 'deployed' as const,
        retryAt: null,
        lastError: null,
        lastDeployed: { ...deploy.lastDeployed, buildId: live.id, at: '2025-01-01T00:00:21.000Z', uploaded: 12 },
      },
    };
    res = await a.request('GET', '/api/admin/publishing', { token });
    assert.deepEqual(res.body.deploy, {
      state: 'deployed',
      target: 's3://site/www/',
      lastDeployedBuildId: live.id,
      lastDeployedAt: '2025-01-01T00:00:21.000Z',
      lastUploaded: 12,
      lastError: null,
      retryAt: null,
    });
    await b.close();
  });
});

describe('GET /api/admin/publishing: what the last publish did', () => {
  it('says how many pages it updated and how long after the newest save it went live', async () => {
    const b = await builder();
    const a = await api(b.env({ PUBLISH_QUIET_MS: '0' }));
    const token = await a.login();
    const before = Date.now();
    await createBook(a, token);
    const saved = Date.now();
    const sent = await until('the request', () => b.received[0]);
    const live = {
      id: '20250101T000000000Z-2',
      ok: true,
      startedAt: new Date(saved).toISOString(),
      finishedAt: new Date(saved + 400).toISOString(),
      durationMs: 400,
      upToEventId: sent.body.upToEventId,
      reasons: ['content-changed'],
      mode: 'targeted' as const,
      addedCount: 1,
      changedCount: 4,
      removedCount: 0,
      pagesUpdated: 3,
    };
    b.status = { building: null, queued: false, live, lastBuild: live };
    // The builder has the request; the API records its answer a moment later (on a busy machine, a while).
    let res = await until('the API to say live', async () => {
      const answer = await a.request('GET', '/api/admin/publishing', { token });
      return answer.body.state === 'live' ? answer : null;
    });
    const { mode, pagesUpdated, liveAfterSaveMs } = res.body.lastPublish;
    assert.deepEqual({ mode, pagesUpdated }, { mode: 'targeted', pagesUpdated: 3 });
    assert.ok(liveAfterSaveMs >= 400 && liveAfterSaveMs <= 400 + (saved - before), `live ${liveAfterSaveMs} ms after the save`);

    // 'Publish now' went live without a save behind it: no time after a save to tell.
    b.status = {
      building: null,
      queued: false,
      live: { ...live, reasons: ['publish-now'], mode: 'full', pagesUpdated: 0 },
      lastBuild: live,
    };
    res = await a.request('GET', '/api/admin/publishing', { token });
    assert.deepEqual(res.body.lastPublish, { mode: 'full', pagesUpdated: 0, liveAfterSaveMs: null });
    await b.close();
  });
});

describe('POST /api/admin/publishing', () => {
  it("answers 202 with the status and sends a 'publish-now' request at once, even with nothing changed", async () => {
    const b = await builder();
    // Like the real builder: an accepted request starts a build at once.
    b.answer = (r, res) => {
      b.status = { ...b.status, building: { id: 'b1', startedAt: new Date().toISOString(), upToEventId: r.body.upToEventId } };
      res.writeHead(202).end();
    };
    const a = await api(b.env({ PUBLISH_QUIET_MS: '600000', PUBLISH_MAX_WAIT_MS: '600000' }));
    const token = await a.login();
    const res = await a.request('POST', '/api/admin/publishing', { token });
    assert.equal(res.status, 202);
    assert.ok(['queued', 'building'].includes(res.body.state), res.body.state);
    assert.equal(res.body.webhookConfigured, true);
    const r = await until('the publish-now request', () => b.received[0]);
    assert.equal(r.body.reason, 'publish-now');
    assert.equal(r.body.changeCount, 0);
    assert.equal(r.signature, hmac(r.raw));
  });

  it('skips the quiet period for pending changes', async () => {
    const b = await builder();
    const a = await api(b.env({ PUBLISH_QUIET_MS: '600000', PUBLISH_MAX_WAIT_MS: '600000' }));
    const token = await a.login();
    const id = await createBook(a, token);
    assert.equal((await a.request('POST', '/api/admin/publishing', { token })).status, 202);
    const r = await until('the publish-now request', () => b.received[0]);
    assert.deepEqual(r.body.changes, [{ kind: 'books', entityId: id, action: 'create' }]);
    await until('delivered', async () => (await undelivered(a)) === 0);
  });

  it('answers 409 when no webhook is configured', async () => {
    const a = await api({});
    const res = await a.request('POST', '/api/admin/publishing', { token: await a.login() });
    assert.equal(res.status, 409);
    assert.equal(res.body.message, 'Publishing is not set up: REBUILD_WEBHOOK_URL and REBUILD_WEBHOOK_SECRET are not configured.');
  });
});

after(async () => {
  for (const r of running.splice(0).reverse()) await r.close().catch(() => undefined);
});
