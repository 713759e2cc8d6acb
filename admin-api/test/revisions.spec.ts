import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { CONTENT_KINDS } from '@portfolio/contract/kinds';

import { OutboxEvent } from '../src/publishing/outbox-event.entity.js';
import { ContentRevision } from '../src/revisions/content-revision.entity.js';
import { type Api, sampleOf, startApi, TEST_DB } from './support/harness.js';

let api: Api;
let token: string;

async function create(kind: string, body: Record<string, unknown>) {
  const res = await api.request('POST', `/api/${kind}`, { token, body });
  assert.equal(res.status, 201, res.text);
  return res.body as { id: number } & Record<string, unknown>;
}
const patch = (kind: string, id: number, body: Record<string, unknown>) => api.request('PATCH', `/api/${kind}/${id}`, { token, body });
const history = (kind: string, id: number, query = '') => api.request('GET', `/api/admin/revisions/${kind}/${id}${query}`, { token });
const revisionRows = (kind: string, entityId: number) =>
  api.dataSource.manager.find(ContentRevision, { where: { kind: kind as never, entityId }, order: { revision: 'ASC' } });
const outboxRows = (kind: string, entityId: number) =>
  api.dataSource.manager.find(OutboxEvent, { where: { kind: kind as never, entityId }, order: { id: 'ASC' } });

describe('revisions', () => {
  before(async () => {
    api = await startApi();
    token = await api.login();
  });
  after(() => api.close());

  describe('GET /api/admin/revisions/{kind}/{id}', () => {
    for (const kind of CONTENT_KINDS) {
      it(`keeps a revision of each save of ${kind}: who, when, the action and the changed fields, newest first`, async () => {
        const started = Date.now();
        const item = await create(kind, sampleOf[kind]({ title: 'First title' }));
        assert.equal((await patch(kind, item.id, { title: 'Second title' })).status, 200);
        const res = await history(kind, item.id);
        assert.equal(res.status, 200, res.text);
        assert.equal(res.body.kind, kind);
        assert.equal(res.body.entityId, item.id);
        assert.equal(res.body.exists, true);
        assert.equal(res.body.total, 2);
        const [update, created] = res.body.revisions;
        assert.equal(update.revision, 2);
        assert.equal(update.action, 'update');
        assert.deepEqual(update.changedFields, ['title']);
        assert.equal(update.username, 'admin');
        assert.equal(typeof update.userId, 'number');
        assert.equal(update.restoredFrom, null);
        assert.ok(Date.parse(update.createdAt) >= started - 1000 && update.createdAt.endsWith('Z'), update.createdAt);
        assert.equal(created.revision, 1);
        assert.equal(created.action, 'create');
        assert.ok(created.changedFields.includes('title'));
        assert.equal('snapshot' in update, false, 'the list carries no snapshots');
      });
    }

    it("names trash moves 'delete' and 'restore', and a save of `published` alone 'unpublish' / 'publish'", async () => {
      const essay = await create('essays', sampleOf.essays());
      await patch('essays', essay.id, { published: false });
      await patch('essays', essay.id, { published: true });
      await patch('essays', essay.id, { isDeleted: true });
      await patch('essays', essay.id, { isDeleted: false });
      const { revisions } = (await history('essays', essay.id)).body;
      assert.deepEqual(
        revisions.map((r: { action: string; changedFields: string[] }) => [r.action, r.changedFields.sort()]),
        [
          ['restore', ['isDeleted']],
          ['delete', ['isDeleted']],
          ['publish', ['published']],
          ['unpublish', ['published']],
          ['create', ['content', 'excerpt', 'published', 'textFormat', 'title']],
        ],
      );
    });

    it('pages with limit and offset; refuses a bad limit with its message', async () => {
      const book = await create('books', sampleOf.books());
      for (let year = 2001; year <= 2004; year++) await patch('books', book.id, { year });
      const page = await history('books', book.id, '?limit=2&offset=1');
      assert.equal(page.body.total, 5);
      assert.deepEqual(
        page.body.revisions.map((r: { revision: number }) => r.revision),
        [4, 3],
      );
      const bad = await history('books', book.id, '?limit=500');
      assert.equal(bad.status, 400);
      assert.deepEqual(bad.body.errors, { limit: 'Limit must be at most 200' });
      assert.deepEqual(bad.body.errorKeys.limit, { key: 'validation.atMost', params: { field: { key: 'label.limit' }, max: 200 } });
    });

    it("keeps the state before the first save of an item that existed before revisions (a 'baseline')", async () => {
      // As demo content and items saved before this version are: written without a revision.
      const now = new Date('2024-05-01T10:00:00.000Z');
      await api.dataSource.manager.insert('news', {
        title: 'Old news',
        excerpt: 'Old',
        content: 'Old content',
        category: 'other',
        published: true,
        publishedDate: now,
        isDeleted: false,
        createdAt: now,
        updatedAt: now,
      });
      const [{ id }] = await api.dataSource.query(`SELECT id FROM news WHERE title = 'Old news'`);
      assert.equal((await history('news', Number(id))).body.total, 0);
      assert.equal((await patch('news', Number(id), { content: 'New content' })).status, 200);
      const { revisions } = (await history('news', Number(id))).body;
      assert.deepEqual(
        revisions.map((r: { revision: number; action: string }) => [r.revision, r.action]),
        [
          [2, 'update'],
          [1, 'baseline'],
        ],
      );
      assert.equal(revisions[1].createdAt, '2024-05-01T10:00:00.000Z');
      const baseline = await api.request('GET', `/api/admin/revisions/news/${id}/1`, { token });
      assert.equal(baseline.body.snapshot.content, 'Old content');
      assert.deepEqual(revisions[0].changedFields, ['content']);
    });

    it('answers 404 for an unknown kind and for an item that never existed', async () => {
      const kind = await api.request('GET', '/api/admin/revisions/poems/1', { token });
      assert.deepEqual(kind.body, { statusCode: 404, message: 'Not found', messageKey: 'error.notFound' });
      const item = await history('books', 999999);
      assert.deepEqual(item.body, { statusCode: 404, message: 'Book Not Found', messageKey: 'error.bookNotFound' });
    });

    it('is for admins only: 401 without a session', async () => {
      const book = await create('books', sampleOf.books());
      for (const [method, path] of [
        ['GET', `/api/admin/revisions/books/${book.id}`],
        ['GET', `/api/admin/revisions/books/${book.id}/1`],
        ['POST', `/api/admin/revisions/books/${book.id}/1/restore`],
        ['GET', '/api/admin/revisions/plays/removed'],
      ]) {
        const res = await api.request(method, path);
        assert.equal(res.status, 401, `${method} ${path}`);
        assert.equal(res.body.messageKey, 'error.authenticationRequired');
      }
    });
  });

  describe('GET /api/docs-json', () => {
    it('documents the revisions routes and their answers', async () => {
      const doc = (await api.request('GET', '/api/docs-json')).body;
      for (const path of [
        '/api/admin/revisions/{kind}/removed',
        '/api/admin/revisions/{kind}/{id}',
        '/api/admin/revisions/{kind}/{id}/{revision}',
      ]) {
        assert.ok(doc.paths[path]?.get, path);
      }
      const restore = doc.paths['/api/admin/revisions/{kind}/{id}/{revision}/restore'].post;
      assert.deepEqual(restore.responses['200'].content['application/json'].schema, {
        $ref: '#/components/schemas/RevisionRestoreResponse',
      });
      for (const name of ['RevisionSummary', 'Revision', 'RevisionList', 'RemovedItem', 'RevisionRestoreResponse'])
        assert.ok(doc.components.schemas[name], name);
      assert.ok(doc.paths['/api/admin/revisions/{kind}/{id}'].get.parameters.some((p: { name: string }) => p.name === 'limit'));
    });
  });

  describe('saves that fail leave no revision', () => {
    it('a save refused by validation, or one that changes nothing, keeps no revision', async () => {
      const book = await create('books', sampleOf.books());
      const bad = await patch('books', book.id, { year: 'soon' });
      assert.equal(bad.status, 400);
      assert.equal((await patch('books', book.id, { title: book.title })).status, 200);
      assert.equal((await revisionRows('books', book.id)).length, 1);
    });

    it('a database error after the revision is written rolls the revision back with the save (one transaction)', async () => {
      const book = await create('books', sampleOf.books({ title: 'Kept title' }));
      // The outbox row is inserted after the revision, in the same transaction: make that insert fail.
      await api.dataSource.query(
        TEST_DB === 'mysql'
          ? `CREATE TRIGGER test_fail_outbox BEFORE INSERT ON outbox_events FOR EACH ROW SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'forced failure'`
          : `CREATE TRIGGER test_fail_outbox BEFORE INSERT ON outbox_events BEGIN SELECT RAISE(ABORT, 'forced failure'); END`,
      );
      try {
        const res = await patch('books', book.id, { title: 'Lost title' });
        assert.equal(res.status, 500);
        assert.deepEqual(res.body, {
          statusCode: 500,
          message: 'Something went wrong on the server. Please try again.',
          messageKey: 'error.server',
        });
      } finally {
        await api.dataSource.query('DROP TRIGGER test_fail_outbox');
      }
      assert.equal((await api.request('GET', `/api/books/${book.id}`)).body.title, 'Kept title');
      const rows = await revisionRows('books', book.id);
      assert.deepEqual(
        rows.map((r) => r.action),
        ['create'],
      );
      assert.equal((await outboxRows('books', book.id)).length, 1);
    });
    it('a revision that cannot be written fails the save: the item and its outbox stay as they were', async () => {
      const book = await create('books', sampleOf.books({ title: 'Unchanged title' }));
      await api.dataSource.query(
        TEST_DB === 'mysql'
          ? `CREATE TRIGGER test_fail_revision BEFORE INSERT ON content_revisions FOR EACH ROW SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'forced failure'`
          : `CREATE TRIGGER test_fail_revision BEFORE INSERT ON content_revisions BEGIN SELECT RAISE(ABORT, 'forced failure'); END`,
      );
      try {
        assert.equal((await patch('books', book.id, { title: 'Unsaved title' })).status, 500);
      } finally {
        await api.dataSource.query('DROP TRIGGER test_fail_revision');
      }
      assert.equal((await api.request('GET', `/api/books/${book.id}`)).body.title, 'Unchanged title');
      assert.equal((await revisionRows('books', book.id)).length, 1);
      assert.equal((await outboxRows('books', book.id)).length, 1);
    });
  });

  describe('GET /api/admin/revisions/{kind}/{id}/{revision}', () => {
    it('answers the snapshot of the item after that save; 404 for a revision that does not exist', async () => {
      const artwork = await create('artworks', sampleOf.artworks({ title: 'لوحة', description: 'First' }));
      await patch('artworks', artwork.id, { description: 'Second' });
      const first = await api.request('GET', `/api/admin/revisions/artworks/${artwork.id}/1`, { token });
      assert.equal(first.status, 200);
      assert.equal(first.body.revision, 1);
      assert.equal(first.body.snapshot.id, artwork.id);
      assert.equal(first.body.snapshot.title, 'لوحة');
      assert.equal(first.body.snapshot.description, 'First');
      const second = await api.request('GET', `/api/admin/revisions/artworks/${artwork.id}/2`, { token });
      assert.equal(second.body.snapshot.description, 'Second');
      const missing = await api.request('GET', `/api/admin/revisions/artworks/${artwork.id}/9`, { token });
      assert.deepEqual(missing.body, { statusCode: 404, message: 'Revision not found', messageKey: 'error.revisionNotFound' });
    });
  });

  describe('POST /api/admin/revisions/{kind}/{id}/{revision}/restore', () => {
    it('saves that version again: a new revision, an outbox row (published like any change), the public answer changes', async () => {
      const book = await create('books', sampleOf.books({ title: 'Original', awards: ['Prize'] }));
      await patch('books', book.id, { title: 'Mistake', awards: [] });
      const outboxBefore = (await outboxRows('books', book.id)).length;
      const res = await api.request('POST', `/api/admin/revisions/books/${book.id}/1/restore`, { token });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.item.title, 'Original');
      assert.deepEqual(res.body.item.awards, ['Prize']);
      assert.equal(res.body.revision.revision, 3);
      assert.equal(res.body.revision.action, 'revert');
      assert.equal(res.body.revision.restoredFrom, 1);
      assert.deepEqual(res.body.revision.changedFields.sort(), ['awards', 'title']);
      const outbox = await outboxRows('books', book.id);
      assert.equal(outbox.length, outboxBefore + 1);
      assert.equal(outbox.at(-1)!.action, 'update');
      assert.equal((await api.request('GET', `/api/books/${book.id}`)).body.title, 'Original');
    });

    it('brings an item in the trash back out with the restored version (deleted books cannot be edited otherwise)', async () => {
      const book = await create('books', sampleOf.books({ title: 'Trashed' }));
      await patch('books', book.id, { isDeleted: true });
      const res = await api.request('POST', `/api/admin/revisions/books/${book.id}/1/restore`, { token });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.item.isDeleted, false);
      assert.equal(res.body.item.deletedAt, null);
      assert.equal((await api.request('GET', `/api/books/${book.id}`)).status, 200);
    });

    it('answers 404 for a revision that does not exist and changes nothing', async () => {
      const book = await create('books', sampleOf.books());
      const res = await api.request('POST', `/api/admin/revisions/books/${book.id}/7/restore`, { token });
      assert.deepEqual(res.body, { statusCode: 404, message: 'Revision not found', messageKey: 'error.revisionNotFound' });
      assert.equal((await revisionRows('books', book.id)).length, 1);
    });
  });

  describe('GET /api/admin/revisions/{kind}/removed', () => {
    it('keeps the history of a play removed for good and brings it back with the same id', async () => {
      const play = await create('plays', sampleOf.plays({ title: 'Removed play', status: 'published', content: 'Act one' }));
      await patch('plays', play.id, { content: 'Act one, revised' });
      assert.equal((await api.request('DELETE', `/api/plays/${play.id}`, { token })).status, 204);
      assert.equal((await api.request('GET', `/api/plays/${play.id}`)).status, 404);

      const removed = await api.request('GET', '/api/admin/revisions/plays/removed', { token });
      assert.equal(removed.status, 200);
      const entry = removed.body.find((r: { entityId: number }) => r.entityId === play.id);
      assert.equal(entry.title, 'Removed play');
      assert.equal(entry.removedByUsername, 'admin');
      assert.equal(entry.revision, 3);

      const list = await history('plays', play.id);
      assert.equal(list.status, 200);
      assert.equal(list.body.exists, false);
      assert.deepEqual(
        list.body.revisions.map((r: { action: string }) => r.action),
        ['remove', 'update', 'create'],
      );
      const last = await api.request('GET', `/api/admin/revisions/plays/${play.id}/3`, { token });
      assert.equal(last.body.snapshot.content, 'Act one, revised');

      const restored = await api.request('POST', `/api/admin/revisions/plays/${play.id}/2/restore`, { token });
      assert.equal(restored.status, 200, restored.text);
      assert.equal(restored.body.item.id, play.id);
      assert.equal(restored.body.item.content, 'Act one, revised');
      assert.equal(restored.body.revision.revision, 4);
      assert.equal(restored.body.revision.action, 'revert');
      assert.equal((await outboxRows('plays', play.id)).at(-1)!.action, 'create');
      const visible = await api.request('GET', `/api/plays/${play.id}`);
      assert.equal(visible.status, 200);
      assert.equal(visible.body.title, 'Removed play');
      assert.equal(visible.body.createdAt, play.createdAt);

      const after = await api.request('GET', '/api/admin/revisions/plays/removed', { token });
      assert.ok(!after.body.some((r: { entityId: number }) => r.entityId === play.id));
      assert.equal((await history('plays', play.id)).body.exists, true);
    });
  });
});

describe('retention (REVISIONS_KEEP)', () => {
  it('keeps only the newest N revisions of each item', async () => {
    const limited = await startApi({ REVISIONS_KEEP: '3' });
    try {
      const adminToken = await limited.login();
      const res = await limited.request('POST', '/api/books', { token: adminToken, body: sampleOf.books() });
      for (let year = 2001; year <= 2005; year++) {
        assert.equal((await limited.request('PATCH', `/api/books/${res.body.id}`, { token: adminToken, body: { year } })).status, 200);
      }
      const list = await limited.request('GET', `/api/admin/revisions/books/${res.body.id}`, { token: adminToken });
      assert.deepEqual(
        list.body.revisions.map((r: { revision: number }) => r.revision),
        [6, 5, 4],
      );
      assert.equal(list.body.total, 3);
    } finally {
      await limited.close();
    }
  });
});
