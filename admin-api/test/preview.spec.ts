import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';

import { CONTENT_KINDS } from '@portfolio/contract/kinds';
import { SIGNATURE_HEADER, verify } from '@portfolio/contract/webhook';

import { OutboxEvent } from '../src/publishing/outbox-event.entity.js';
import { type Api, sampleOf, startApi } from './support/harness.js';

const SECRET = 'test-webhook-secret-0123456789';

interface PreviewCall {
  signed: boolean;
  body: {
    sentAt: string;
    paths: string[];
    overrides: Record<string, { id: number; title: string; published?: boolean; status?: string }[]>;
  };
}

/**
 * Stands in for the builder's POST /hooks/preview: checks the signature and answers each path with
 * a page that names the titles of the list it was given (the real renderer is tested in infra/).
 */
class FakeBuilder {
  readonly calls: PreviewCall[] = [];
  answer: 'pages' | 'command-mode' | 'broken' = 'pages';
  private server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const call: PreviewCall = {
        signed: verify(SECRET, raw.toString('utf8'), req.headers[SIGNATURE_HEADER] as string),
        body: JSON.parse(raw.toString('utf8')) as PreviewCall['body'],
      };
      this.calls.push(call);
      if (req.url !== '/hooks/preview' || !call.signed) return void res.writeHead(401).end('{"error":"Bad signature"}');
      if (this.answer === 'command-mode')
        return void res.writeHead(409, { 'content-type': 'application/json' }).end('{"error":"command mode"}');
      if (this.answer === 'broken')
        return void res.writeHead(502, { 'content-type': 'application/json' }).end('{"error":"Rendering /books/1 failed: boom"}');
      const list = Object.values(call.body.overrides)[0];
      const pages = call.body.paths.map((p) => ({
        path: p,
        status: 200,
        html: `<!doctype html><html><head><meta name="robots" content="index"><title>${p}</title></head><body><ul>${list.map((i) => `<li>${i.title}</li>`).join('')}</ul></body></html>`,
      }));
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ pages }));
    });
  });

  async listen() {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', () => resolve()));
    return this;
  }
  get base() {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }
  close() {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(resolve));
  }
}

describe('POST /api/admin/preview', () => {
  let api: Api;
  let token: string;
  let builder: FakeBuilder;
  before(async () => {
    builder = await new FakeBuilder().listen();
    api = await startApi({
      REBUILD_WEBHOOK_URL: `${builder.base}/hooks/rebuild`,
      REBUILD_WEBHOOK_SECRET: SECRET,
      REBUILD_STATUS_URL: `${builder.base}/status`,
      PUBLISH_QUIET_MS: '600000',
      PUBLISH_MAX_WAIT_MS: '600000',
      PUBLISH_POLL_MS: '600000',
    });
    token = await api.login();
  });
  after(async () => {
    await api.close();
    await builder.close();
  });
  beforeEach(() => {
    builder.answer = 'pages';
    builder.calls.length = 0;
  });

  it('answers 401 without a session, and asks the builder nothing', async () => {
    const res = await api.request('POST', '/api/admin/preview', { body: { kind: 'books', item: sampleOf.books() } });
    assert.equal(res.status, 401);
    assert.deepEqual(res.body, {
      statusCode: 401,
      message: 'Authentication required. Please sign in again.',
      messageKey: 'error.authenticationRequired',
    });
    assert.equal(builder.calls.length, 0);
  });

  it('renders an unpublished book as it will be, on its pages in both languages, saving and publishing nothing', async () => {
    const older = await api.request('POST', '/api/books', { token, body: sampleOf.books({ title: 'Older', year: 2001 }) });
    const draft = await api.request('POST', '/api/books', {
      token,
      body: sampleOf.books({ title: 'Draft', year: 2010, published: false }),
    });
    const outboxBefore = await api.dataSource.manager.count(OutboxEvent);
    const res = await api.request('POST', '/api/admin/preview', {
      token,
      body: { kind: 'books', id: draft.body.id, item: sampleOf.books({ title: 'Draft, edited', year: 2030, published: false }) },
    });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.headers.get('cache-control'), 'private, no-store');
    assert.equal(res.headers.get('x-robots-tag'), 'noindex, nofollow');
    assert.equal(res.body.id, draft.body.id);
    const id = draft.body.id;
    assert.deepEqual(
      res.body.pages.map((p: { path: string }) => p.path),
      [`/books/${id}`, '/books', '/', `/ar/books/${id}`, '/ar/books', '/ar'],
      'no reviews page: the book has no reviews, so the site has no such page',
    );
    const [call] = builder.calls;
    assert.ok(call.signed, 'signed with the webhook secret');
    const list = call.body.overrides['/api/books'];
    assert.deepEqual(
      list.map((b) => [b.id, b.title, b.published]),
      [
        [id, 'Draft, edited', true],
        [older.body.id, 'Older', true],
      ],
      'the draft in its place by year, shown as published',
    );
    const page = res.body.pages[0].html as string;
    assert.match(page, /<meta name="robots" content="noindex, nofollow">/);
    assert.doesNotMatch(page, /content="index"/);
    assert.match(page, /Preview: not published/);
    assert.match(page, /معاينة: غير منشورة/);
    assert.match(page, /<li>Draft, edited<\/li>/);

    assert.equal((await api.request('GET', `/api/books/${id}`, { token })).body.title, 'Draft', 'nothing saved');
    assert.equal((await api.request('GET', `/api/books/${id}`)).status, 404, 'still hidden from visitors');
    assert.equal(await api.dataSource.manager.count(OutboxEvent), outboxBefore, 'nothing queued for publishing');
  });

  it("lists a book's reviews pages only when the form has reviews (never a page the site does not have)", async () => {
    const saved = await api.request('POST', '/api/books', {
      token,
      body: sampleOf.books({ title: 'Reviewed', reviews: ['https://reviews.example/one'] }),
    });
    const paths = async (body: Record<string, unknown>) => {
      builder.calls.length = 0;
      const res = await api.request('POST', '/api/admin/preview', { token, body });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(
        builder.calls[0].body.paths,
        res.body.pages.map((p: { path: string }) => p.path),
        'the overlay shows exactly the pages rendered',
      );
      return res.body.pages.map((p: { path: string }) => p.path) as string[];
    };
    const id = saved.body.id;
    assert.deepEqual(await paths({ kind: 'books', id, item: sampleOf.books({ reviews: ['https://reviews.example/one'] }) }), [
      `/books/${id}`,
      `/book/${id}/reviews`,
      '/books',
      '/',
      `/ar/books/${id}`,
      `/ar/book/${id}/reviews`,
      '/ar/books',
      '/ar',
    ]);
    // The form emptied the list: its preview has no reviews page although the saved book has one.
    assert.ok(!(await paths({ kind: 'books', id, item: sampleOf.books({ reviews: [] }) })).some((p) => p.includes('/reviews')));
    const fresh = await paths({ kind: 'books', item: sampleOf.books() });
    assert.ok(!fresh.some((p) => p.includes('/reviews')), fresh.join(' '));
  });

  it('previews a new item under the next free id, and a scheduled one as it will be at its time', async () => {
    const res = await api.request('POST', '/api/admin/preview', {
      token,
      body: { kind: 'news', item: sampleOf.news({ title: 'Tomorrow', publishAt: '2099-01-01T09:00:00Z' }) },
    });
    assert.equal(res.status, 200, res.text);
    const [call] = builder.calls;
    // Its page, its list, its category's archive and home, in every language.
    assert.deepEqual(call.body.paths, [
      `/news/${res.body.id}`,
      '/news',
      '/news/category/award',
      '/',
      `/ar/news/${res.body.id}`,
      '/ar/news',
      '/ar/news/category/award',
      '/ar',
    ]);
    const item = call.body.overrides['/api/news'].find((n) => n.id === res.body.id) as unknown as {
      title: string;
      publishAt: string | null;
      publishedDate: string;
    };
    assert.equal(item.title, 'Tomorrow');
    assert.equal(item.publishAt, null);
    assert.ok(item.publishedDate, 'a publication date, as a save would give it');
    assert.equal((await api.request('GET', '/api/news', { token })).body.length, 0, 'nothing created');
  });

  it('a draft play is previewed as published; an artwork on the gallery', async () => {
    await api.request('POST', '/api/admin/preview', { token, body: { kind: 'plays', item: sampleOf.plays({ status: 'draft' }) } });
    assert.equal(builder.calls[0].body.overrides['/api/plays'].at(-1)!.status, 'published');
    const art = await api.request('POST', '/api/admin/preview', { token, body: { kind: 'artworks', item: sampleOf.artworks() } });
    assert.deepEqual(builder.calls[1].body.paths, ['/gallery', '/', '/ar/gallery', '/ar']);
    assert.equal(art.status, 200);
  });

  it('checks the draft with the rules of its kind (field messages as a save gives them)', async () => {
    const res = await api.request('POST', '/api/admin/preview', { token, body: { kind: 'books', item: { title: '', year: 'soon' } } });
    assert.equal(res.status, 400);
    assert.equal(res.body.errors.title, 'Title is required');
    assert.ok(res.body.errors.year);
    assert.equal(builder.calls.length, 0);
  });

  it('refuses an unknown kind and a missing item', async () => {
    const res = await api.request('POST', '/api/admin/preview', { token, body: { kind: 'contacts' } });
    assert.equal(res.status, 400);
    assert.equal(res.body.errors.kind, `Must be one of: ${CONTENT_KINDS.join(', ')}`);
    assert.equal(res.body.errors.item, 'Required');
  });

  it('answers 404 for a saved item that does not exist', async () => {
    const res = await api.request('POST', '/api/admin/preview', { token, body: { kind: 'essays', id: 9999, item: sampleOf.essays() } });
    assert.equal(res.status, 404);
    assert.equal(res.body.message, 'Essay not found');
  });

  it('says so when the builder cannot preview (command mode) or fails', async () => {
    builder.answer = 'command-mode';
    const unavailable = await api.request('POST', '/api/admin/preview', { token, body: { kind: 'books', item: sampleOf.books() } });
    assert.equal(unavailable.status, 409);
    assert.equal(unavailable.body.messageKey, 'error.previewUnavailable');
    builder.answer = 'broken';
    const broken = await api.request('POST', '/api/admin/preview', { token, body: { kind: 'books', item: sampleOf.books() } });
    assert.equal(broken.status, 502);
    assert.equal(broken.body.message, 'The preview could not be made: Rendering /books/1 failed: boom');
    assert.deepEqual(broken.body.messageParams, { reason: 'Rendering /books/1 failed: boom' });
  });

  it('is in the OpenAPI document', async () => {
    const doc = (await api.request('GET', '/api/docs-json')).body;
    assert.ok(doc.paths['/api/admin/preview'].post);
    assert.ok(doc.components.schemas.PreviewRequestDto.properties.item);
  });
});

describe('POST /api/admin/preview without a builder of this installation', () => {
  it('answers 409 with the reason (a hosted build hook: no status URL)', async () => {
    const api = await startApi({
      REBUILD_WEBHOOK_URL: 'http://127.0.0.1:9/hook',
      REBUILD_WEBHOOK_SECRET: SECRET,
      PUBLISH_QUIET_MS: '600000',
      PUBLISH_MAX_WAIT_MS: '600000',
    });
    try {
      const token = await api.login();
      const res = await api.request('POST', '/api/admin/preview', { token, body: { kind: 'books', item: sampleOf.books() } });
      assert.equal(res.status, 409);
      assert.deepEqual(res.body, {
        statusCode: 409,
        message:
          'Preview is not available here: it needs the site builder of this installation (npm start or docker compose), which a hosted build hook or BUILD_COMMAND does not have.',
        messageKey: 'error.previewUnavailable',
      });
    } finally {
      await api.close();
    }
  });
});
