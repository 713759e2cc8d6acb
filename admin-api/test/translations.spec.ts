import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Api, samples, startApi } from './support/harness.js';

type Sample = (over?: Record<string, unknown>) => Record<string, unknown>;
const kinds: [string, Sample, Record<string, string>][] = [
  ['books', samples.book, { title: 'كتاب', description: 'عنه', publisher: 'دار النشر', genre: 'رواية' }],
  ['essays', samples.essay, { title: 'مقالة', excerpt: 'قصير', content: 'فقرة.', publication: 'مجلة', category: 'أدب' }],
  ['artworks', samples.artwork, { title: 'لوحة', medium: 'زيت', description: 'عنها' }],
  ['news', samples.news, { title: 'خبر', excerpt: 'قصير', content: 'نص الخبر' }],
  ['plays', (over = {}) => samples.play({ status: 'published', ...over }), { title: 'مسرحية', description: 'عنها', content: 'نص', genre: 'دراما' }],
];

let api: Api;
let token: string;
before(async () => {
  api = await startApi();
  token = await api.login();
});
after(() => api.close());

for (const [route, sample, arabic] of kinds) {
  describe(`POST /api/${route} and PATCH /api/${route}/{id}: translations`, () => {
    it('answers {} and null for an item saved without them', async () => {
      const res = await api.request('POST', `/api/${route}`, { token, body: sample() });
      assert.equal(res.status, 201, res.text);
      assert.deepEqual(res.body.translations, {});
      assert.equal(res.body.contentLanguage, null);
      const got = await api.request('GET', `/api/${route}/${res.body.id}`, { token });
      assert.deepEqual(got.body.translations, {});
    });

    it('keeps every translated field in Arabic; the public GET shows them; PATCH replaces them', async () => {
      const res = await api.request('POST', `/api/${route}`, { token, body: sample({ contentLanguage: 'en', translations: { ar: arabic } }) });
      assert.equal(res.status, 201, res.text);
      assert.deepEqual(res.body.translations, { ar: arabic });
      assert.equal(res.body.contentLanguage, 'en');
      const pub = await api.request('GET', `/api/${route}/${res.body.id}`);
      assert.equal(pub.status, 200);
      assert.deepEqual(pub.body.translations, { ar: arabic });
      const list = await api.request('GET', `/api/${route}`);
      assert.deepEqual(list.body.find((x: { id: number }) => x.id === res.body.id).translations, { ar: arabic });

      const second = Object.keys(arabic)[1];
      const patched = await api.request('PATCH', `/api/${route}/${res.body.id}`, { token, body: { translations: { ar: { title: 'عنوان جديد', [second]: '' } } } });
      assert.equal(patched.status, 200, patched.text);
      assert.deepEqual(patched.body.translations, { ar: { title: 'عنوان جديد', [second]: null } });
      assert.deepEqual((await api.request('GET', `/api/${route}/${res.body.id}`)).body.translations, patched.body.translations);

      const other = await api.request('PATCH', `/api/${route}/${res.body.id}`, { token, body: { title: 'Changed' } });
      assert.deepEqual(other.body.translations, patched.body.translations, 'a PATCH without translations leaves them');
      const cleared = await api.request('PATCH', `/api/${route}/${res.body.id}`, { token, body: { translations: null, contentLanguage: null } });
      assert.equal(cleared.status, 200, cleared.text);
      assert.deepEqual(cleared.body.translations, {});
      assert.equal(cleared.body.contentLanguage, null);
    });

    it('refuses bad shapes with a message per field and saves nothing', async () => {
      const bad = await api.request('POST', `/api/${route}`, {
        token,
        body: sample({ title: 'Refused', contentLanguage: 'fr', translations: { ar: { title: 'x'.repeat(301), bogus: 'y' }, de: { title: 'z' } } }),
      });
      assert.equal(bad.status, 400);
      assert.equal(bad.body.message, 'Validation failed');
      assert.deepEqual(bad.body.errors, {
        contentLanguage: 'Must be one of: en, ar',
        'translations.ar.title': 'Must be at most 300 characters',
        'translations.ar.bogus': 'Unknown field',
        'translations.de': 'Unknown field',
      });
      assert.deepEqual(bad.body.errorKeys['translations.ar.title'], { key: 'validation.maxLength', params: { max: 300 } });
      const notObject = await api.request('POST', `/api/${route}`, { token, body: sample({ title: 'Refused', translations: 'عربي' }) });
      assert.equal(notObject.status, 400);
      assert.deepEqual(notObject.body.errors, { translations: 'Must be an object of translated fields (null or {} for none)' });
      assert.equal(notObject.body.messageKey, 'validation.translation');
      const version = await api.request('POST', `/api/${route}`, { token, body: sample({ title: 'Refused', translations: { ar: 'عربي' } }) });
      assert.deepEqual(version.body.errors, { 'translations.ar': 'Must be an object of translated fields (null or {} for none)' });
      const list = (await api.request('GET', `/api/${route}`, { token })).body;
      assert.ok(!list.some((x: { title: string }) => x.title === 'Refused'));
    });
  });
}

describe('GET /api/docs-json: translations', () => {
  it('documents contentLanguage and the translations object of every kind', async () => {
    const doc = (await api.request('GET', '/api/docs-json')).body;
    for (const kind of ['Book', 'Essay', 'Artwork', 'News', 'Play']) {
      const create = doc.components.schemas[`Create${kind}Dto`];
      assert.ok(create.properties.translations, `Create${kind}Dto.translations`);
      assert.deepEqual(create.properties.contentLanguage.enum, ['en', 'ar']);
      const versions = doc.components.schemas[`${kind}Translations`];
      assert.ok(versions.properties.en && versions.properties.ar, `${kind}Translations`);
      assert.ok(doc.components.schemas[`${kind}TextVersion`].properties.title);
    }
  });
});
