import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';

import { SCHEDULED_KINDS } from '@portfolio/contract/kinds';

import { Clock } from '../src/common/clock.js';
import { KIND_FEATURES } from '../src/kind-modules.js';
import { OutboxEvent } from '../src/publishing/outbox-event.entity.js';
import { PublishScheduler } from '../src/scheduling/publish-scheduler.js';
import { type Api, notFoundOf, publicSampleOf, sampleOf, startApi } from './support/harness.js';

const ISO_MESSAGE = 'Must be a date in ISO 8601 format, e.g. 2025-03-01 or 2025-03-01T10:00:00Z';

/** Polls a condition until it holds (never a fixed sleep standing in for readiness). */
async function until<T>(what: string, check: () => T | Promise<T>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await delay(20);
  }
}

const setClock = (api: Api, time: number) => {
  api.app.get(Clock).now = () => time;
};
const rowsFor = (api: Api, kind: string, entityId: number) =>
  api.dataSource.manager.countBy(OutboxEvent, { kind: kind as never, entityId });
const ids = (res: { body: { id: number }[] }) => res.body.map((item) => item.id);

describe(`publishAt on POST and PATCH of ${SCHEDULED_KINDS.join(', ')}`, () => {
  let api: Api;
  let token: string;
  before(async () => {
    api = await startApi({ PUBLISH_POLL_MS: '600000' });
    token = await api.login();
  });
  after(() => api.close());

  for (const kind of SCHEDULED_KINDS) {
    it(`${kind}: a future publishAt hides the item from anonymous readers until then; admins see it with its time`, async () => {
      const T0 = Date.parse('2031-05-01T09:00:00.000Z');
      setClock(api, T0);
      const publishAt = '2031-05-01T12:30:00.000Z';
      const body = publicSampleOf(kind, { title: `Soon ${kind}`, publishAt });
      const created = await api.request('POST', `/api/${kind}`, { token, body });
      assert.equal(created.status, 201, created.text);
      assert.equal(created.body.publishAt, publishAt);
      const id = created.body.id as number;

      const anonymousItem = await api.request('GET', `/api/${kind}/${id}`);
      assert.equal(anonymousItem.status, 404);
      assert.equal(anonymousItem.body.message, notFoundOf[kind].message);
      assert.ok(!ids(await api.request('GET', `/api/${kind}`)).includes(id), 'not in the public list');
      const adminItem = await api.request('GET', `/api/${kind}/${id}`, { token });
      assert.equal(adminItem.body.publishAt, publishAt);
      assert.ok(ids(await api.request('GET', `/api/${kind}`, { token })).includes(id), 'in the admin list');

      setClock(api, Date.parse(publishAt));
      assert.equal((await api.request('GET', `/api/${kind}/${id}`)).status, 200, 'visible at the time itself');

      const cleared = await api.request('PATCH', `/api/${kind}/${id}`, { token, body: { publishAt: null } });
      assert.equal(cleared.status, 200, cleared.text);
      assert.equal(cleared.body.publishAt, null);
      setClock(api, T0);
      assert.equal((await api.request('GET', `/api/${kind}/${id}`)).status, 200, 'no schedule: visible when published');
    });
  }

  it('refuses a publishAt that is not an ISO 8601 date, and keeps the item as it was', async () => {
    const created = await api.request('POST', '/api/news', { token, body: sampleOf.news({ title: 'Kept' }) });
    const res = await api.request('PATCH', `/api/news/${created.body.id}`, {
      token,
      body: { title: 'Changed', publishAt: 'next Tuesday' },
    });
    assert.equal(res.status, 400);
    assert.equal(res.body.errors.publishAt, ISO_MESSAGE);
    assert.deepEqual(res.body.errorKeys.publishAt, { key: 'validation.isoDate' });
    const after = await api.request('GET', `/api/news/${created.body.id}`, { token });
    assert.equal(after.body.title, 'Kept');
    assert.equal(after.body.publishAt, null);
  });

  it('an unpublished item stays hidden when its time comes (publishAt does not publish a draft)', async () => {
    setClock(api, Date.parse('2031-06-01T00:00:00Z'));
    const created = await api.request('POST', '/api/books', {
      token,
      body: sampleOf.books({ published: false, publishAt: '2031-05-01T00:00:00Z' }),
    });
    assert.equal((await api.request('GET', `/api/books/${created.body.id}`)).status, 404);
  });

  it('is in the OpenAPI document (request bodies and the scheduled list)', async () => {
    const doc = (await api.request('GET', '/api/docs-json')).body;
    for (const kind of SCHEDULED_KINDS) {
      const dto = KIND_FEATURES[kind].createDto.name;
      assert.ok(doc.components.schemas[dto].properties.publishAt, `${dto}.publishAt`);
    }
    assert.ok(doc.paths['/api/admin/scheduled'].get, 'GET /api/admin/scheduled');
  });
});

describe('GET /api/admin/scheduled', () => {
  let api: Api;
  let token: string;
  before(async () => {
    api = await startApi({ PUBLISH_POLL_MS: '600000' });
    token = await api.login();
  });
  after(() => api.close());

  it('answers 401 without a session', async () => {
    const res = await api.request('GET', '/api/admin/scheduled');
    assert.equal(res.status, 401);
    assert.deepEqual(res.body, {
      statusCode: 401,
      message: 'Authentication required. Please sign in again.',
      messageKey: 'error.authenticationRequired',
    });
  });

  it('lists what will go live by itself, soonest first: not past times, unscheduled, trashed or draft items', async () => {
    const T0 = Date.parse('2032-01-10T08:00:00Z');
    setClock(api, T0);
    const later = await api.request('POST', '/api/essays', {
      token,
      body: sampleOf.essays({ title: 'Later essay', publishAt: '2032-01-12T08:00:00Z' }),
    });
    const sooner = await api.request('POST', '/api/plays', {
      token,
      body: sampleOf.plays({ title: 'Sooner play', status: 'published', publishAt: '2032-01-11T08:00:00Z' }),
    });
    await api.request('POST', '/api/news', { token, body: sampleOf.news({ title: 'Past', publishAt: '2032-01-09T08:00:00Z' }) });
    await api.request('POST', '/api/books', { token, body: sampleOf.books({ title: 'Unscheduled' }) });
    // A draft with a time stays a draft (it does not go live then), so it is not announced as scheduled.
    const drafts = [
      await api.request('POST', '/api/books', {
        token,
        body: sampleOf.books({ title: 'Draft book', published: false, publishAt: '2032-01-11T10:00:00Z' }),
      }),
      await api.request('POST', '/api/plays', {
        token,
        body: sampleOf.plays({ title: 'Draft play', status: 'draft', publishAt: '2032-01-11T10:00:00Z' }),
      }),
    ];
    for (const draft of drafts) assert.equal(draft.status, 201, draft.text);
    const trashed = await api.request('POST', '/api/news', {
      token,
      body: sampleOf.news({ title: 'Trashed', publishAt: '2032-01-11T09:00:00Z' }),
    });
    await api.request('PATCH', `/api/news/${trashed.body.id}`, { token, body: { isDeleted: true } });

    const res = await api.request('GET', '/api/admin/scheduled', { token });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, [
      { kind: 'plays', id: sooner.body.id, title: 'Sooner play', publishAt: '2032-01-11T08:00:00.000Z' },
      { kind: 'essays', id: later.body.id, title: 'Later essay', publishAt: '2032-01-12T08:00:00.000Z' },
    ]);
  });
});

describe('scheduled items go live by themselves', () => {
  it('at the due time the scheduler writes the outbox row (once), and anonymous readers see the item', async () => {
    const api = await startApi({ PUBLISH_POLL_MS: '600000' });
    try {
      const token = await api.login();
      const due = Date.now() + 1500;
      const created = await api.request('POST', '/api/news', {
        token,
        body: sampleOf.news({ title: 'On the hour', publishAt: new Date(due).toISOString() }),
      });
      const id = created.body.id as number;
      assert.equal(await rowsFor(api, 'news', id), 1, 'the save itself');
      assert.ok(!ids(await api.request('GET', '/api/news')).includes(id));
      const announced = new Promise((resolve) => api.app.get(PublishScheduler).events.once('announced', resolve));
      // The scheduler's own timer (not a poll: PUBLISH_POLL_MS is 10 minutes here) wakes it at the due time.
      assert.deepEqual(await announced, [{ kind: 'news', id }]);
      assert.ok(Date.now() >= due, 'not before its time');
      assert.equal(await rowsFor(api, 'news', id), 2);
      assert.ok(ids(await api.request('GET', '/api/news')).includes(id), 'the public list (cache renewed by the row)');
      assert.equal((await api.request('GET', `/api/news/${id}`)).status, 200);
      api.app.get(PublishScheduler).wake();
      await until('a second check', () => api.app.get(PublishScheduler)['running'] === null);
      assert.equal(await rowsFor(api, 'news', id), 2, 'announced once');
    } finally {
      await api.close();
    }
  });

  it('catches up after a restart on items that fell due while the API was down', async () => {
    const one = await startApi({ PUBLISH_POLL_MS: '600000' });
    let two: Api | undefined;
    try {
      const token = await one.login();
      const due = Date.now() + 800;
      const created = await one.request('POST', '/api/books', {
        token,
        body: sampleOf.books({ title: 'While down', publishAt: new Date(due).toISOString() }),
      });
      const id = created.body.id as number;
      await one.close({ keepData: true });
      await until('the due time to pass while the API is stopped', () => Date.now() > due + 50);
      two = await startApi({ PUBLISH_POLL_MS: '600000' }, { varDir: one.config.varDir, keepData: true });
      await until('the outbox row written at start', async () => (await rowsFor(two!, 'books', id)) === 2);
      assert.equal((await two.request('GET', `/api/books/${id}`)).status, 200);
    } finally {
      await (two ?? one).close();
    }
  });

  it('with two API processes on one database, exactly one writes the row of each due item', async () => {
    const one = await startApi({ PUBLISH_POLL_MS: '600000' });
    const two = await startApi({ PUBLISH_POLL_MS: '600000' }, { varDir: one.config.varDir, keepData: true });
    try {
      const token = await one.login();
      const T0 = Date.now();
      for (const api of [one, two]) setClock(api, T0);
      const made: [string, number][] = [];
      for (const kind of SCHEDULED_KINDS) {
        const body = publicSampleOf(kind, { publishAt: new Date(T0 + 60_000).toISOString() });
        const res = await one.request('POST', `/api/${kind}`, { token, body });
        made.push([kind, res.body.id]);
      }
      for (const api of [one, two]) setClock(api, T0 + 61_000);
      for (let round = 0; round < 5; round++) {
        one.app.get(PublishScheduler).wake();
        two.app.get(PublishScheduler).wake();
      }
      for (const [kind, id] of made) {
        await until(`the row of ${kind}/${id}`, async () => (await rowsFor(one, kind, id)) >= 2);
      }
      await until(
        'both schedulers idle',
        () => one.app.get(PublishScheduler)['running'] === null && two.app.get(PublishScheduler)['running'] === null,
      );
      for (const [kind, id] of made) assert.equal(await rowsFor(one, kind, id), 2, `${kind}/${id}: the save and one announcement`);
    } finally {
      await two.close({ keepData: true });
      await one.close();
    }
  });
});
