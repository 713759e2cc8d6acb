import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, it } from 'node:test';

import { messageText } from '@portfolio/contract/messages';
import { isWebLink } from '@portfolio/contract/rules';

import { OutboxEvent } from '../src/publishing/outbox-event.entity.js';
import { type Api, sampleOf, startApi } from './support/harness.js';

describe('/api/books', () => {
  let api: Api;
  let token: string;
  const create = async (over: Record<string, unknown> = {}) => {
    const res = await api.request('POST', '/api/books', { token, body: sampleOf.books(over) });
    assert.equal(res.status, 201, res.text);
    return res.body;
  };

  before(async () => {
    api = await startApi();
    token = await api.login();
  });
  after(() => api.close());

  describe('POST /api/books', () => {
    it('creates a book with the defaults of the specification and the audit fields', async () => {
      const book = await create({ title: 'الزيتون' });
      const me = await api.request('GET', '/api/admin/me', { token });
      assert.equal(book.title, 'الزيتون');
      assert.equal(book.language, 'Arabic');
      assert.equal(book.downloadCount, 0);
      assert.equal(book.published, true);
      assert.equal(book.isDeleted, false);
      assert.deepEqual(book.awards, []);
      assert.deepEqual(book.reviews, []);
      assert.equal(book.createdByUserId, me.body.id);
      assert.equal(book.lastUpdatedByUserId, me.body.id);
      assert.ok(!Number.isNaN(Date.parse(book.createdAt)));
      const again = await api.request('GET', `/api/books/${book.id}`);
      assert.equal(again.body.title, 'الزيتون');
    });

    it('keeps text lists, optional numbers and links', async () => {
      const reviews = [JSON.stringify({ title: 'Guardian', url: 'https://example.com/r.pdf' }), 'https://drive.google.com/file/d/abc/view'];
      const book = await create({
        awards: ['Prize A', 'Prize B'],
        reviews,
        pages: 321,
        isbn: '978-3-16-148410-0',
        purchaseUrl: 'https://shop.example/b',
      });
      const res = await api.request('GET', `/api/books/${book.id}`);
      assert.deepEqual(res.body.awards, ['Prize A', 'Prize B']);
      assert.deepEqual(res.body.reviews, reviews);
      assert.equal(res.body.pages, 321);
      assert.equal(res.body.purchaseUrl, 'https://shop.example/b');
    });

    it('needs an admin session', async () => {
      const res = await api.request('POST', '/api/books', { body: sampleOf.books() });
      assert.equal(res.status, 401);
      assert.equal(res.body.message, 'Authentication required. Please sign in again.');
    });

    it('names every missing required field', async () => {
      const res = await api.request('POST', '/api/books', { token, body: {} });
      assert.equal(res.status, 400);
      assert.equal(res.body.message, 'Validation failed');
      assert.deepEqual(res.body.errors, {
        title: 'Title is required',
        description: 'Description is required',
        year: 'Year is required',
        publisher: 'Publisher is required',
      });
      assert.equal(res.body.messageKey, 'validation.failed');
      assert.deepEqual(res.body.errorKeys, {
        title: { key: 'validation.titleRequired' },
        description: { key: 'validation.descriptionRequired' },
        year: { key: 'validation.yearRequired' },
        publisher: { key: 'validation.publisherRequired' },
      });
    });

    it('checks types: year and pages are numbers, lists are lists, links are links', async () => {
      const res = await api.request('POST', '/api/books', {
        token,
        body: sampleOf.books({ year: 'soon', pages: 'many', awards: 'one', goodreadsUrl: 'goodreads', published: 'yes' }),
      });
      assert.equal(res.status, 400);
      assert.deepEqual(res.body.errors, {
        year: 'Year must be a whole number',
        pages: 'Pages must be a whole number',
        awards: 'Must be a list of texts',
        goodreadsUrl: 'Must be a link starting with http:// or https://',
        published: 'Must be true or false',
      });
      assert.deepEqual(res.body.errorKeys, {
        year: { key: 'validation.wholeNumber', params: { field: { key: 'label.year' } } },
        pages: { key: 'validation.wholeNumber', params: { field: { key: 'label.pages' } } },
        awards: { key: 'validation.textList' },
        goodreadsUrl: { key: 'validation.link' },
        published: { key: 'validation.boolean' },
      });
    });

    it("accepts a link exactly when the overlay and the site do (the contract's one link rule)", async () => {
      const links = [
        'https://exa_mple.com/review',
        'http://localhost:3000/x',
        'https://example.com/a b',
        'www.guardian.com/review',
        'javascript:alert(1)',
        '//cdn.example/x',
      ];
      for (const goodreadsUrl of links) {
        const res = await api.request('POST', '/api/books', { token, body: sampleOf.books({ goodreadsUrl }) });
        assert.equal(res.status, isWebLink(goodreadsUrl) ? 201 : 400, goodreadsUrl);
        if (res.status === 400) assert.deepEqual(res.body.errors, { goodreadsUrl: 'Must be a link starting with http:// or https://' });
      }
    });

    it('names the limit of a too long or too large value, with the key and its parameters', async () => {
      const long = await api.request('POST', '/api/books', { token, body: sampleOf.books({ title: 'x'.repeat(301) }) });
      assert.equal(long.status, 400);
      assert.deepEqual(long.body, {
        statusCode: 400,
        message: 'Must be at most 300 characters',
        messageKey: 'validation.maxLength',
        messageParams: { max: 300 },
        errors: { title: 'Must be at most 300 characters' },
        errorKeys: { title: { key: 'validation.maxLength', params: { max: 300 } } },
      });
      const late = await api.request('POST', '/api/books', { token, body: sampleOf.books({ year: 10000 }) });
      assert.equal(late.body.errors.year, 'Year must be at most 9999');
      assert.deepEqual(late.body.errorKeys.year, { key: 'validation.atMost', params: { field: { key: 'label.year' }, max: 9999 } });
      assert.equal(messageText(late.body.errorKeys.year, 'ar'), 'يجب ألا تزيد قيمة السنة على 9999');
    });

    it('accepts a numeric year sent as text, and an empty optional field as "none"', async () => {
      const book = await create({ year: '2019', pages: '', isbn: '' });
      assert.equal(book.year, 2019);
      assert.equal(book.pages, null);
      assert.equal(book.isbn, null);
    });

    it('rejects unknown and server-managed fields', async () => {
      const res = await api.request('POST', '/api/books', {
        token,
        body: sampleOf.books({ colour: 'red', id: 5, createdAt: '2020-01-01' }),
      });
      assert.equal(res.status, 400);
      assert.deepEqual(res.body.errors, { colour: 'Unknown field', id: 'Unknown field', createdAt: 'Unknown field' });
    });

    it('answers 400 to malformed JSON and 413 to an oversized body, and keeps serving', async () => {
      const bad = await api.request('POST', '/api/books', {
        token,
        rawBody: '{"title": ',
        headers: { 'content-type': 'application/json' },
      });
      assert.equal(bad.status, 400);
      assert.deepEqual(bad.body, { statusCode: 400, message: 'Malformed JSON body', messageKey: 'error.malformedJson' });
      const huge = await api.request('POST', '/api/books', { token, body: sampleOf.books({ description: 'x'.repeat(2 * 1024 * 1024) }) });
      assert.equal(huge.status, 413);
      assert.equal(huge.body.message, 'Request body is too large');
      const array = await api.request('POST', '/api/books', { token, body: [1, 2] });
      assert.equal(array.status, 400);
      assert.equal((await api.request('GET', '/api/health')).status, 200);
    });
  });

  describe('GET /api/books', () => {
    it('sorts by year descending, then id descending', async () => {
      const a = await create({ title: 'sort-2001', year: 2001 });
      const b = await create({ title: 'sort-2010', year: 2010 });
      const c = await create({ title: 'sort-2001-later', year: 2001 });
      const res = await api.request('GET', '/api/books');
      const ids = res.body.map((x: { id: number }) => x.id).filter((id: number) => [a.id, b.id, c.id].includes(id));
      assert.deepEqual(ids, [b.id, c.id, a.id]);
      const years = res.body.map((x: { year: number }) => x.year);
      assert.deepEqual(
        years,
        [...years].sort((p: number, q: number) => q - p),
      );
    });

    it('shows visitors only published, active books; an admin sees drafts too', async () => {
      const draft = await create({ title: 'draft-book', published: false });
      const anon = await api.request('GET', '/api/books');
      assert.ok(!anon.body.some((x: { id: number }) => x.id === draft.id));
      assert.equal((await api.request('GET', `/api/books/${draft.id}`)).status, 404);
      const admin = await api.request('GET', '/api/books', { token });
      assert.ok(admin.body.some((x: { id: number }) => x.id === draft.id));
      assert.equal((await api.request('GET', `/api/books/${draft.id}`, { token })).status, 200);
    });

    it('answers 404 with the not-found text for unknown, malformed and out-of-range ids', async () => {
      for (const id of ['999999', 'abc', '0', '-1', '1.5', '99999999999999999999']) {
        const res = await api.request('GET', `/api/books/${id}`);
        assert.equal(res.status, 404, id);
      }
      assert.deepEqual((await api.request('GET', '/api/books/999999')).body, {
        statusCode: 404,
        message: 'Book Not Found',
        messageKey: 'error.bookNotFound',
      });
    });

    it('answers repeated reads with an ETag and 304, and shows an edit at once', async () => {
      const book = await create({ title: 'cached-title' });
      const first = await api.request('GET', `/api/books/${book.id}`);
      const etag = first.headers.get('etag');
      assert.ok(etag);
      assert.equal(first.headers.get('content-type'), 'application/json; charset=utf-8');
      // node:http rather than fetch, which adds "Cache-Control: no-cache" to conditional requests.
      const conditional = (headers: Record<string, string>) =>
        new Promise<number>((resolve, reject) =>
          http.get(`${api.url}/api/books/${book.id}`, { headers }, (res) => resolve(res.resume().statusCode!)).on('error', reject),
        );
      assert.equal(await conditional({ 'if-none-match': etag }), 304);
      assert.equal(await conditional({ 'if-none-match': etag, authorization: `Bearer ${token}` }), 200, 'admins always get a fresh read');
      await api.request('PATCH', `/api/books/${book.id}`, { token, body: { title: 'fresh-title' } });
      const after = await api.request('GET', `/api/books/${book.id}`, { headers: { 'if-none-match': etag } });
      assert.equal(after.status, 200);
      assert.equal(after.body.title, 'fresh-title');
      assert.notEqual(after.headers.get('etag'), etag);
    });

    it('keeps one cached answer per item whatever the query string or letter case', async () => {
      const book = await create({ title: 'one-entry' });
      const answers = await Promise.all(
        [`/api/books/${book.id}?x=1`, `/api/books/${book.id}?x=2`, `/api/BOOKS/${book.id}`, `/api/books/${book.id}/`].map((p) =>
          api.request('GET', p),
        ),
      );
      assert.ok(answers.every((a) => a.status === 200 && a.body.title === 'one-entry'));
      assert.equal(new Set(answers.map((a) => a.headers.get('etag'))).size, 1);
    });

    it('answers a made-up token from the public cache without reading the database; a real session reads it', async () => {
      const book = await create({ title: 'cache-vs-token' });
      assert.equal((await api.request('GET', `/api/books/${book.id}`)).body.title, 'cache-vs-token');
      // Changed behind the API's back (no outbox row): only an answer read from the database shows it.
      await api.dataSource.query(`UPDATE books SET title = 'changed-underneath' WHERE id = ${book.id}`);
      for (const authorization of ['Bearer not-a-real-session-token-xxxxxxxxxxxx', 'Bearer x', 'Basic YWRtaW46YWRtaW4=', 'made-up']) {
        const res = await api.request('GET', `/api/books/${book.id}`, { headers: { authorization } });
        assert.equal(res.status, 200);
        assert.equal(res.body.title, 'cache-vs-token', `${authorization} was answered from the cache`);
      }
      assert.equal((await api.request('GET', `/api/books/${book.id}`, { token })).body.title, 'changed-underneath');
    });

    it('ignores an invalid token on public reads (anonymous view)', async () => {
      const res = await api.request('GET', '/api/books', { token: 'not-a-real-session-token-xxxxxxxxxxxx' });
      assert.equal(res.status, 200);
    });
  });

  describe('PATCH /api/books/{id}', () => {
    it('updates fields and the audit trail', async () => {
      const book = await create();
      const res = await api.request('PATCH', `/api/books/${book.id}`, { token, body: { title: 'Renamed', awards: ['New prize'] } });
      assert.equal(res.status, 200);
      assert.equal(res.body.title, 'Renamed');
      assert.deepEqual(res.body.awards, ['New prize']);
      assert.equal(res.body.description, book.description);
      assert.ok(Date.parse(res.body.updatedAt) >= Date.parse(book.updatedAt));
    });

    it('does not let a required field be cleared', async () => {
      const book = await create();
      const res = await api.request('PATCH', `/api/books/${book.id}`, { token, body: { title: null, publisher: '  ' } });
      assert.equal(res.status, 400);
      assert.deepEqual(res.body.errors, { title: 'Title is required', publisher: 'Publisher is required' });
    });

    it('moves a book to trash and restores it; visitors lose and regain it', async () => {
      const book = await create({ title: 'trash-me' });
      const del = await api.request('PATCH', `/api/books/${book.id}`, { token, body: { isDeleted: true } });
      assert.equal(del.status, 200);
      assert.equal(del.body.isDeleted, true);
      assert.ok(del.body.deletedAt);
      assert.equal(del.body.deletedByUserId, book.createdByUserId);
      assert.equal((await api.request('GET', `/api/books/${book.id}`)).status, 404);

      const plain = await api.request('GET', '/api/books', { token });
      assert.ok(!plain.body.some((x: { id: number }) => x.id === book.id), 'admins see deleted books only when asking');
      const withDeleted = await api.request('GET', '/api/books?includeDeleted=true', { token });
      assert.ok(withDeleted.body.some((x: { id: number }) => x.id === book.id));
      const anonAsking = await api.request('GET', '/api/books?includeDeleted=true');
      assert.ok(!anonAsking.body.some((x: { id: number }) => x.id === book.id));

      const restore = await api.request('PATCH', `/api/books/${book.id}`, { token, body: { isDeleted: false } });
      assert.equal(restore.body.isDeleted, false);
      assert.equal(restore.body.deletedAt, null);
      assert.equal(restore.body.deletedByUserId, null);
      assert.equal((await api.request('GET', `/api/books/${book.id}`)).status, 200);
    });

    it('refuses to edit a deleted book', async () => {
      const book = await create();
      await api.request('PATCH', `/api/books/${book.id}`, { token, body: { isDeleted: true } });
      const res = await api.request('PATCH', `/api/books/${book.id}`, { token, body: { title: 'Sneaky' } });
      assert.equal(res.status, 409);
      assert.equal(res.body.message, 'Deleted books cannot be edited. Restore the book first.');
    });

    it('wants isDeleted alone', async () => {
      const book = await create();
      const res = await api.request('PATCH', `/api/books/${book.id}`, { token, body: { isDeleted: true, title: 'x' } });
      assert.equal(res.status, 400);
      assert.equal(res.body.errors.isDeleted, 'isDeleted must be sent alone, without other fields');
    });

    it('answers 401 without a session and 404 for an unknown book', async () => {
      assert.equal((await api.request('PATCH', '/api/books/1', { body: { title: 'x' } })).status, 401);
      assert.equal((await api.request('PATCH', '/api/books/424242', { token, body: { title: 'x' } })).status, 404);
    });

    it('writes one outbox row per change, in the same transaction', async () => {
      const outbox = api.dataSource.getRepository(OutboxEvent);
      const before = await outbox.count();
      const book = await create();
      await api.request('PATCH', `/api/books/${book.id}`, { token, body: { title: 'Changed' } });
      await api.request('PATCH', `/api/books/${book.id}`, { token, body: { isDeleted: true } });
      await api.request('PATCH', `/api/books/${book.id}`, { token, body: { isDeleted: false } });
      const rows = await outbox.find({ where: { entityId: book.id, kind: 'books' }, order: { id: 'ASC' } });
      assert.deepEqual(
        rows.map((r) => r.action),
        ['create', 'update', 'delete', 'restore'],
      );
      assert.ok(rows.every((r) => r.processedAt === null));
      assert.equal(await outbox.count(), before + 4);

      // A failed save leaves no row behind.
      await api.request('PATCH', `/api/books/${book.id}`, { token, body: { year: 'bad' } });
      assert.equal(await outbox.count(), before + 4);
    });
  });

  describe('POST /api/books/{id}/download', () => {
    it('counts downloads atomically without a session', async () => {
      const book = await create();
      const results = await Promise.all(Array.from({ length: 20 }, () => api.request('POST', `/api/books/${book.id}/download`)));
      assert.ok(results.every((r) => r.status === 200));
      const res = await api.request('GET', `/api/books/${book.id}`);
      assert.equal(res.body.downloadCount, 20);
    });

    it('shows a counted download at once in the public book and list answers (read after write)', async () => {
      const book = await create({ title: 'download-fresh' });
      const listed = async () => (await api.request('GET', '/api/books')).body.find((b: { id: number }) => b.id === book.id).downloadCount;
      assert.equal((await api.request('GET', `/api/books/${book.id}`)).body.downloadCount, 0);
      assert.equal(await listed(), 0);
      const counted = await api.request('POST', `/api/books/${book.id}/download`);
      assert.equal(counted.body.downloadCount, 1);
      assert.equal((await api.request('GET', `/api/books/${book.id}`)).body.downloadCount, 1);
      assert.equal(await listed(), 1);
    });

    it('answers 404 for a hidden or unknown book', async () => {
      const draft = await create({ published: false });
      assert.equal((await api.request('POST', `/api/books/${draft.id}/download`)).status, 404);
      assert.equal((await api.request('POST', '/api/books/777777/download')).status, 404);
    });
  });
});
