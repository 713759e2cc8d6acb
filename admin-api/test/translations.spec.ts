import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { CONTENT_KINDS, type ContentKind, TRANSLATED_FIELDS } from '@portfolio/contract/kinds';

import { KIND_FEATURES } from '../src/kind-modules.js';
import { type Api, publicSampleOf, startApi } from './support/harness.js';

/** Arabic for each translated field of any kind (a kind translating a new field fails to compile here until it has one). */
const ARABIC: Record<(typeof TRANSLATED_FIELDS)[ContentKind][number], string> = {
  title: 'عنوان',
  description: 'عنه',
  publisher: 'دار النشر',
  genre: 'رواية',
  excerpt: 'قصير',
  content: 'فقرة.',
  publication: 'مجلة',
  category: 'أدب',
  medium: 'زيت',
};

let api: Api;
let token: string;
before(async () => {
  api = await startApi();
  token = await api.login();
});
after(() => api.close());

for (const route of CONTENT_KINDS) {
  const arabic = Object.fromEntries(TRANSLATED_FIELDS[route].map((field) => [field, ARABIC[field]]));
  const sample = (over: Record<string, unknown> = {}) => publicSampleOf(route, over);
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
      const res = await api.request('POST', `/api/${route}`, {
        token,
        body: sample({ contentLanguage: 'en', translations: { ar: arabic } }),
      });
      assert.equal(res.status, 201, res.text);
      assert.deepEqual(res.body.translations, { ar: arabic });
      assert.equal(res.body.contentLanguage, 'en');
      const pub = await api.request('GET', `/api/${route}/${res.body.id}`);
      assert.equal(pub.status, 200);
      assert.deepEqual(pub.body.translations, { ar: arabic });
      const list = await api.request('GET', `/api/${route}`);
      assert.deepEqual(list.body.find((x: { id: number }) => x.id === res.body.id).translations, { ar: arabic });

      const second = Object.keys(arabic)[1];
      const patched = await api.request('PATCH', `/api/${route}/${res.body.id}`, {
        token,
        body: { translations: { ar: { title: 'عنوان جديد', [second]: '' } } },
      });
      assert.equal(patched.status, 200, patched.text);
      assert.deepEqual(patched.body.translations, { ar: { title: 'عنوان جديد', [second]: null } });
      assert.deepEqual((await api.request('GET', `/api/${route}/${res.body.id}`)).body.translations, patched.body.translations);

      const other = await api.request('PATCH', `/api/${route}/${res.body.id}`, { token, body: { title: 'Changed' } });
      assert.deepEqual(other.body.translations, patched.body.translations, 'a PATCH without translations leaves them');
      const cleared = await api.request('PATCH', `/api/${route}/${res.body.id}`, {
        token,
        body: { translations: null, contentLanguage: null },
      });
      assert.equal(cleared.status, 200, cleared.text);
      assert.deepEqual(cleared.body.translations, {});
      assert.equal(cleared.body.contentLanguage, null);
    });

    it('refuses bad shapes with a message per field and saves nothing', async () => {
      const bad = await api.request('POST', `/api/${route}`, {
        token,
        body: sample({
          title: 'Refused',
          contentLanguage: 'fr',
          translations: { ar: { title: 'x'.repeat(301), bogus: 'y' }, de: { title: 'z' } },
        }),
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
      const version = await api.request('POST', `/api/${route}`, {
        token,
        body: sample({ title: 'Refused', translations: { ar: 'عربي' } }),
      });
      assert.deepEqual(version.body.errors, { 'translations.ar': 'Must be an object of translated fields (null or {} for none)' });
      const list = (await api.request('GET', `/api/${route}`, { token })).body;
      assert.ok(!list.some((x: { title: string }) => x.title === 'Refused'));
    });
  });
}

describe('GET /api/docs-json: translations', () => {
  it('documents contentLanguage and the translations object of every kind', async () => {
    const doc = (await api.request('GET', '/api/docs-json')).body;
    for (const route of CONTENT_KINDS) {
      // CreateBookDto → Book, as the DTOs of its translations are named.
      const kind = KIND_FEATURES[route].createDto.name.replace(/^Create(.+)Dto$/, '$1');
      const create = doc.components.schemas[`Create${kind}Dto`];
      assert.ok(create.properties.translations, `Create${kind}Dto.translations`);
      assert.deepEqual(create.properties.contentLanguage.enum, ['en', 'ar']);
      const versions = doc.components.schemas[`${kind}Translations`];
      assert.ok(versions.properties.en && versions.properties.ar, `${kind}Translations`);
      assert.ok(doc.components.schemas[`${kind}TextVersion`].properties.title);
    }
  });
});
