import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { CONTENT_KINDS, KINDS } from '@portfolio/contract/kinds';

import { type Api, notFoundOf, publicSampleOf, sampleOf, startApi } from './support/harness.js';

// The kinds that leave the lists only by the trash, which admins' lists show (books and plays have their own tests).
const trashOnly = CONTENT_KINDS.filter((kind) => KINDS[kind].softDelete.adminListsDeleted && !KINDS[kind].softDelete.removable);

describe(trashOnly.join(', '), () => {
  let api: Api;
  let token: string;
  before(async () => {
    api = await startApi();
    token = await api.login();
  });
  after(() => api.close());

  for (const route of trashOnly) {
    describe(`/api/${route}`, () => {
      const create = async (over: Record<string, unknown> = {}) => {
        const res = await api.request('POST', `/api/${route}`, { token, body: publicSampleOf(route, over) });
        assert.equal(res.status, 201, res.text);
        return res.body;
      };

      it('creates, reads and edits an item with audit fields', async () => {
        const item = await create({ title: 'عنوان عربي' });
        assert.equal(item.title, 'عنوان عربي');
        assert.equal(item.isDeleted, false);
        assert.ok(item.createdByUserId);
        const got = await api.request('GET', `/api/${route}/${item.id}`);
        assert.equal(got.status, 200);
        assert.equal(got.body.title, 'عنوان عربي');
        const edited = await api.request('PATCH', `/api/${route}/${item.id}`, { token, body: { title: 'Edited' } });
        assert.equal(edited.status, 200);
        assert.equal(edited.body.title, 'Edited');
      });

      it('lists newest first', async () => {
        const a = await create({ title: 'older' });
        const b = await create({ title: 'newer' });
        const list = (await api.request('GET', `/api/${route}`)).body.map((x: { id: number }) => x.id);
        assert.ok(list.indexOf(b.id) < list.indexOf(a.id));
      });

      it('soft-deletes and restores; visitors see only active items, admins see all', async () => {
        const item = await create();
        const del = await api.request('PATCH', `/api/${route}/${item.id}`, { token, body: { isDeleted: true } });
        assert.equal(del.status, 200);
        assert.equal(del.body.isDeleted, true);
        assert.ok(del.body.deletedAt);
        const anonList = await api.request('GET', `/api/${route}`);
        assert.ok(!anonList.body.some((x: { id: number }) => x.id === item.id));
        assert.deepEqual((await api.request('GET', `/api/${route}/${item.id}`)).body, notFoundOf[route]);
        const adminList = await api.request('GET', `/api/${route}`, { token });
        assert.ok(adminList.body.some((x: { id: number; isDeleted: boolean }) => x.id === item.id && x.isDeleted));
        const restored = await api.request('PATCH', `/api/${route}/${item.id}`, { token, body: { isDeleted: false } });
        assert.equal(restored.body.isDeleted, false);
        assert.equal((await api.request('GET', `/api/${route}/${item.id}`)).status, 200);
      });

      it('needs a session to write', async () => {
        assert.equal((await api.request('POST', `/api/${route}`, { body: sampleOf[route]() })).status, 401);
        assert.equal((await api.request('PATCH', `/api/${route}/1`, { body: { isDeleted: true } })).status, 401);
      });

      it('rejects unknown fields and answers 404 for unknown ids', async () => {
        const res = await api.request('POST', `/api/${route}`, { token, body: sampleOf[route]({ bogus: 1 }) });
        assert.equal(res.status, 400);
        assert.equal(res.body.errors.bogus, 'Unknown field');
        assert.equal((await api.request('PATCH', `/api/${route}/99999`, { token, body: { title: 'x' } })).status, 404);
      });
    });
  }

  describe('essays specifics', () => {
    it('requires title, excerpt and content; featured false and published true by default', async () => {
      const bad = await api.request('POST', '/api/essays', { token, body: {} });
      assert.deepEqual(bad.body.errors, { title: 'Title is required', excerpt: 'Excerpt is required', content: 'Content is required' });
      const essay = await api.request('POST', '/api/essays', { token, body: sampleOf.essays() });
      assert.equal(essay.body.featured, false);
      assert.equal(essay.body.published, true);
      assert.equal(essay.body.publishedDate, null);
    });

    it('takes publishedDate as an ISO string or null', async () => {
      const essay = await api.request('POST', '/api/essays', {
        token,
        body: sampleOf.essays({ publishedDate: '2024-03-01T10:00:00.000Z' }),
      });
      assert.equal(essay.body.publishedDate, '2024-03-01T10:00:00.000Z');
      const cleared = await api.request('PATCH', `/api/essays/${essay.body.id}`, { token, body: { publishedDate: null } });
      assert.equal(cleared.body.publishedDate, null);
      const bad = await api.request('POST', '/api/essays', { token, body: sampleOf.essays({ publishedDate: 'last tuesday' }) });
      assert.equal(bad.status, 400);
      assert.match(bad.body.errors.publishedDate, /ISO 8601/);
    });

    it('hides unpublished essays from visitors', async () => {
      const essay = await api.request('POST', '/api/essays', { token, body: sampleOf.essays({ published: false }) });
      assert.equal((await api.request('GET', `/api/essays/${essay.body.id}`)).status, 404);
      assert.equal((await api.request('GET', `/api/essays/${essay.body.id}`, { token })).status, 200);
    });
  });

  describe('artworks specifics', () => {
    it('requires title, medium, year and image', async () => {
      const bad = await api.request('POST', '/api/artworks', { token, body: {} });
      assert.deepEqual(bad.body.errors, {
        title: 'Title is required',
        medium: 'Medium is required',
        year: 'Year is required',
        image: 'Image is required',
      });
    });
  });

  describe('news specifics', () => {
    it("answers 'Required' for each missing required field", async () => {
      const bad = await api.request('POST', '/api/news', { token, body: { title: '', excerpt: ' ' } });
      assert.equal(bad.status, 400);
      assert.equal(bad.body.errors.title, 'Required');
      assert.equal(bad.body.errors.excerpt, 'Required');
      assert.equal(bad.body.errors.content, 'Required');
      assert.equal(bad.body.errors.category, 'Must be one of: exhibition, publication, award, other');
    });

    it('defaults published to true and publishedDate to now', async () => {
      const startedAt = Date.now() - 1000;
      const res = await api.request('POST', '/api/news', { token, body: sampleOf.news({ publishedDate: null }) });
      assert.equal(res.body.published, true);
      assert.ok(Date.parse(res.body.publishedDate) >= startedAt);
    });

    it('keeps the stored date when an edit clears it', async () => {
      const item = await api.request('POST', '/api/news', { token, body: sampleOf.news({ publishedDate: '2010-05-01T00:00:00.000Z' }) });
      const edited = await api.request('PATCH', `/api/news/${item.body.id}`, { token, body: { publishedDate: null, title: 'Edited' } });
      assert.equal(edited.body.publishedDate, '2010-05-01T00:00:00.000Z');
    });

    it('hides drafts from visitors and sorts by publishedDate', async () => {
      const draft = await api.request('POST', '/api/news', { token, body: sampleOf.news({ published: false }) });
      assert.equal((await api.request('GET', `/api/news/${draft.body.id}`)).status, 404);
      const old = await api.request('POST', '/api/news', { token, body: sampleOf.news({ publishedDate: '2001-01-01T00:00:00Z' }) });
      const list = (await api.request('GET', '/api/news')).body;
      assert.equal(list[list.length - 1].id, old.body.id);
    });
  });
});

describe('textFormat (formatted text)', () => {
  let api: Api;
  let token: string;
  before(async () => {
    api = await startApi();
    token = await api.login();
  });
  after(() => api.close());

  for (const kind of ['books', 'essays', 'news', 'plays'] as const) {
    it(`${kind}: plain unless a client says markdown; anything else refused; the text stored as given; documented`, async () => {
      const plain = await api.request('POST', `/api/${kind}`, { token, body: sampleOf[kind]({}) });
      assert.equal(plain.status, 201, plain.text);
      assert.equal(plain.body.textFormat, 'plain');
      const text = '**bold** and [a link](https://example.org)';
      const field = kind === 'books' || kind === 'plays' ? 'description' : 'content';
      const md = await api.request('POST', `/api/${kind}`, { token, body: sampleOf[kind]({ textFormat: 'markdown', [field]: text }) });
      assert.equal(md.status, 201, md.text);
      assert.deepEqual([md.body.textFormat, md.body[field]], ['markdown', text]);
      const back = await api.request('PATCH', `/api/${kind}/${md.body.id}`, { token, body: { textFormat: 'plain' } });
      assert.equal(back.body.textFormat, 'plain');
      const bad = await api.request('PATCH', `/api/${kind}/${md.body.id}`, { token, body: { textFormat: 'html' } });
      assert.equal(bad.status, 400);
      assert.equal(bad.body.errors.textFormat, 'Must be one of: plain, markdown');
    });
  }

  it('is in the OpenAPI document of each kind’s body', async () => {
    const docs = (await api.request('GET', '/api/docs-json')).body;
    for (const dto of ['CreateBookDto', 'CreateEssayDto', 'CreateNewsDto', 'CreatePlayDto'])
      assert.deepEqual(docs.components.schemas[dto].properties.textFormat?.enum, ['plain', 'markdown'], dto);
  });
});

describe('/api/plays', () => {
  let api: Api;
  let token: string;
  before(async () => {
    api = await startApi();
    token = await api.login();
  });
  after(() => api.close());

  it('creates a play with type original and status draft by default', async () => {
    const res = await api.request('POST', '/api/plays', { token, body: sampleOf.plays() });
    assert.equal(res.status, 201);
    assert.equal(res.body.type, 'original');
    assert.equal(res.body.status, 'draft');
    const bad = await api.request('POST', '/api/plays', { token, body: { title: '', type: 'remix', status: 'secret' } });
    assert.deepEqual(bad.body.errors, {
      title: 'Title is required',
      type: 'Must be one of: original, translated',
      status: 'Must be one of: draft, published, performed',
    });
  });

  it('shows visitors published and performed plays, not drafts', async () => {
    const ids: Record<string, number> = {};
    for (const status of ['draft', 'published', 'performed']) {
      ids[status] = (await api.request('POST', '/api/plays', { token, body: sampleOf.plays({ status }) })).body.id;
    }
    const visible = (await api.request('GET', '/api/plays')).body.map((p: { id: number }) => p.id);
    assert.ok(!visible.includes(ids.draft));
    assert.ok(visible.includes(ids.published) && visible.includes(ids.performed));
    assert.deepEqual((await api.request('GET', `/api/plays/${ids.draft}`)).body, {
      statusCode: 404,
      message: 'Play not found',
      messageKey: 'error.playNotFound',
    });
    const all = (await api.request('GET', '/api/plays', { token })).body.map((p: { id: number }) => p.id);
    assert.ok(all.includes(ids.draft));
    assert.ok(all.indexOf(ids.performed) < all.indexOf(ids.draft), 'newest first');
  });

  it('edits any status freely', async () => {
    const play = (await api.request('POST', '/api/plays', { token, body: sampleOf.plays() })).body;
    for (const status of ['performed', 'draft', 'published']) {
      const res = await api.request('PATCH', `/api/plays/${play.id}`, { token, body: { status, type: 'translated' } });
      assert.equal(res.body.status, status);
    }
  });

  it('hard-deletes with 204; the play is gone for everyone', async () => {
    const play = (await api.request('POST', '/api/plays', { token, body: sampleOf.plays({ status: 'published' }) })).body;
    assert.equal((await api.request('DELETE', `/api/plays/${play.id}`)).status, 401);
    const res = await api.request('DELETE', `/api/plays/${play.id}`, { token });
    assert.equal(res.status, 204);
    assert.equal(res.text, '');
    assert.equal((await api.request('GET', `/api/plays/${play.id}`, { token })).status, 404);
    assert.equal((await api.request('DELETE', `/api/plays/${play.id}`, { token })).status, 404);
  });
});
