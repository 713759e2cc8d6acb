import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { SETTINGS_PLACEHOLDERS } from '@portfolio/contract/settings';

import { OutboxEvent } from '../src/publishing/outbox-event.entity.js';
import { type Api, startApi } from './support/harness.js';

const PUBLIC_FIELDS = [
  'authorNameEn',
  'authorNameAr',
  'subtitleEn',
  'subtitleAr',
  'quoteEn',
  'quoteAr',
  'biographyEn',
  'biographyAr',
  'shortBioEn',
  'shortBioAr',
  'portraitImage',
  'contactEmail',
  'locationEn',
  'locationAr',
  'socialLinks',
  'footerCreditName',
  'footerCreditUrl',
  'copyrightYear',
  'siteUrl',
  'updatedAt',
].sort();

const settingsRows = (api: Api) => api.dataSource.manager.find(OutboxEvent, { where: { kind: 'settings' }, order: { id: 'ASC' } });

describe('settings at first start', () => {
  it('are made from the SITE_* variables, the placeholders filling the rest', async () => {
    const api = await startApi({
      SITE_AUTHOR_NAME: 'Nour Haddad',
      SITE_AUTHOR_NAME_AR: 'نور حداد',
      SITE_CONTACT_EMAIL: 'nour@example.test',
      SITE_INSTAGRAM_URL: 'https://instagram.example/nour',
      SITE_POWERED_BY_NAME: 'Studio Sea',
      SITE_POWERED_BY_URL: 'https://studio.example/',
      SITE_URL: 'https://nour.example/',
    });
    try {
      const res = await api.request('GET', '/api/settings');
      assert.equal(res.status, 200);
      const s = res.body;
      assert.equal(s.authorNameEn, 'Nour Haddad');
      assert.equal(s.authorNameAr, 'نور حداد');
      assert.equal(s.contactEmail, 'nour@example.test');
      assert.deepEqual(s.socialLinks, [
        { label: 'Instagram', url: 'https://instagram.example/nour' },
        { label: 'Facebook', url: 'https://www.facebook.com/' },
        { label: 'Twitter', url: 'https://twitter.com/' },
      ]);
      assert.equal(s.footerCreditName, 'Studio Sea');
      assert.equal(s.footerCreditUrl, 'https://studio.example/');
      assert.equal(s.siteUrl, 'https://nour.example');
      assert.equal(s.copyrightYear, 2025);
      assert.equal(s.biographyEn, SETTINGS_PLACEHOLDERS.biographyEn);
      assert.equal(s.biographyAr, SETTINGS_PLACEHOLDERS.biographyAr);
      assert.equal(s.locationEn, 'Gaza City, Palestine');
      assert.equal(s.subtitleAr, 'كاتبة وفنانة تشكيلية من غزة');
    } finally {
      await api.close();
    }
  });

  it('without variables are the placeholders, with PUBLIC_URL as the site address', async () => {
    const api = await startApi({ PUBLIC_URL: 'https://public.example/' });
    try {
      const { body } = await api.request('GET', '/api/settings');
      assert.equal(body.authorNameEn, 'Author Name');
      assert.equal(body.contactEmail, 'hello@example.com');
      assert.equal(body.footerCreditName, 'Example Agency');
      assert.equal(body.siteUrl, 'https://public.example');
      assert.match(body.shortBioEn, /Placeholder short bio/);
      assert.match(body.shortBioAr, /نبذة مؤقتة/);
    } finally {
      await api.close();
    }
  });

  it('once saved, are no longer what the variables say: a restart with other values keeps the saved ones', async () => {
    const api = await startApi({ SITE_AUTHOR_NAME: 'First Name' });
    const token = await api.login();
    assert.equal((await api.request('PATCH', '/api/admin/settings', { token, body: { authorNameEn: 'Chosen Name' } })).status, 200);
    await api.close({ keepData: true });
    const again = await startApi({ SITE_AUTHOR_NAME: 'Other Name' }, { varDir: api.config.varDir, keepData: true });
    try {
      assert.equal((await again.request('GET', '/api/settings')).body.authorNameEn, 'Chosen Name');
    } finally {
      await again.close();
    }
  });

  it('a bad SITE_CONTACT_EMAIL or SITE_URL stops the start, naming the variable', async () => {
    await assert.rejects(startApi({ SITE_CONTACT_EMAIL: 'not-an-address', SITE_URL: 'ftp://x.example' }), (error: Error) => {
      assert.match(error.message, /SITE_CONTACT_EMAIL must be an e-mail address/);
      assert.match(error.message, /SITE_URL must be a http:\/\/ or https:\/\/ URL/);
      return true;
    });
  });
});

describe('GET /api/settings', () => {
  let api: Api;
  before(async () => (api = await startApi()));
  after(() => api.close());

  it('answers anyone with the fields the site shows and nothing else (no ids, no admin)', async () => {
    const res = await api.request('GET', '/api/settings');
    assert.equal(res.status, 200);
    assert.deepEqual(Object.keys(res.body).sort(), PUBLIC_FIELDS);
    assert.ok(!('lastUpdatedByUserId' in res.body));
    assert.ok(!('id' in res.body));
  });

  it('shows a save at once (the public read cache follows the outbox)', async () => {
    const token = await api.login();
    const before = await api.request('GET', '/api/settings');
    assert.ok(before.headers.get('etag'));
    await api.request('PATCH', '/api/admin/settings', { token, body: { quoteEn: 'A new quote' } });
    const res = await api.request('GET', '/api/settings', { headers: { 'if-none-match': before.headers.get('etag')! } });
    assert.equal(res.status, 200);
    assert.equal(res.body.quoteEn, 'A new quote');
  });
});

const NEWSLETTER_FIELDS = ['newsletterSenderName', 'newsletterSenderAddress', 'newsletterFooterEn', 'newsletterFooterAr'];

describe('GET /api/admin/settings', () => {
  let api: Api;
  before(async () => (api = await startApi()));
  after(() => api.close());

  it('answers 401 without a session', async () => {
    const res = await api.request('GET', '/api/admin/settings');
    assert.equal(res.status, 401);
    assert.deepEqual(res.body, {
      statusCode: 401,
      message: 'Authentication required. Please sign in again.',
      messageKey: 'error.authenticationRequired',
    });
  });

  it('answers an admin with the settings and who saved them last', async () => {
    const token = await api.login();
    const first = await api.request('GET', '/api/admin/settings', { token });
    assert.equal(first.status, 200);
    assert.equal(first.body.lastUpdatedByUserId, null);
    // The newsletter's sender and footer are the admin's only (issue 25).
    assert.deepEqual(Object.keys(first.body).sort(), [...PUBLIC_FIELDS, ...NEWSLETTER_FIELDS, 'lastUpdatedByUserId'].sort());
    await api.request('PATCH', '/api/admin/settings', { token, body: { locationEn: 'Gaza' } });
    const me = await api.request('GET', '/api/admin/me', { token });
    assert.equal((await api.request('GET', '/api/admin/settings', { token })).body.lastUpdatedByUserId, me.body.id);
  });
});

describe('PATCH /api/admin/settings', () => {
  let api: Api;
  let token: string;
  before(async () => {
    api = await startApi();
    token = await api.login();
  });
  after(() => api.close());

  const patch = (body: unknown, as: string | null = token) => api.request('PATCH', '/api/admin/settings', { token: as ?? undefined, body });

  it('refuses anonymous visitors and changes nothing', async () => {
    const rows = (await settingsRows(api)).length;
    const res = await patch({ authorNameEn: 'Intruder' }, null);
    assert.equal(res.status, 401);
    assert.equal(res.body.messageKey, 'error.authenticationRequired');
    assert.equal((await api.request('GET', '/api/settings')).body.authorNameEn, 'Author Name');
    assert.equal((await settingsRows(api)).length, rows);
  });

  it('saves every field, in both languages, and answers the saved settings', async () => {
    const body = {
      authorNameEn: 'Nour Haddad',
      authorNameAr: 'نور حداد',
      subtitleEn: 'Writer from Gaza',
      subtitleAr: 'كاتبة من غزة',
      quoteEn: 'The sea remembers.',
      quoteAr: 'البحر يتذكّر.',
      biographyEn: 'Born in Gaza.\n\nShe writes and paints.',
      biographyAr: 'وُلدت في غزة.\n\nتكتب وترسم.',
      shortBioEn: 'Nour Haddad writes and paints in Gaza.',
      shortBioAr: 'نور حداد تكتب وترسم في غزة.',
      portraitImage: '/uploads/general/portrait-640x800.jpg',
      contactEmail: 'nour@example.test',
      locationEn: 'Gaza City, Palestine',
      locationAr: 'مدينة غزة، فلسطين',
      socialLinks: [{ label: 'YouTube', url: 'https://youtube.example/@nour' }],
      footerCreditName: null,
      footerCreditUrl: null,
      copyrightYear: 2026,
      siteUrl: 'https://nour.example',
    };
    const res = await patch(body);
    assert.equal(res.status, 200);
    const {
      updatedAt,
      lastUpdatedByUserId,
      newsletterSenderName,
      newsletterSenderAddress,
      newsletterFooterEn,
      newsletterFooterAr,
      ...saved
    } = res.body;
    assert.deepEqual(saved, body);
    assert.deepEqual([newsletterSenderName, newsletterSenderAddress, newsletterFooterEn, newsletterFooterAr], [null, null, null, null]);
    assert.ok(Date.parse(updatedAt) > Date.now() - 60_000);
    assert.equal(typeof lastUpdatedByUserId, 'number');
    const { updatedAt: _u, ...shown } = (await api.request('GET', '/api/settings')).body;
    assert.deepEqual(shown, body);
  });

  it('trims texts and takes blank optional texts as none', async () => {
    const res = await patch({ authorNameEn: '  Nour  ', quoteAr: '   ', socialLinks: null });
    assert.equal(res.status, 200);
    assert.equal(res.body.authorNameEn, 'Nour');
    assert.equal(res.body.quoteAr, null);
    assert.deepEqual(res.body.socialLinks, []);
  });

  it('writes one outbox row per save (kind settings, id 1), in the same transaction', async () => {
    const before = (await settingsRows(api)).length;
    await patch({ biographyEn: 'One.' });
    await patch({ biographyEn: 'Two.' });
    const rows = await settingsRows(api);
    assert.equal(rows.length, before + 2);
    assert.deepEqual(
      rows.slice(-2).map((r) => [r.kind, r.entityId, r.action]),
      [
        ['settings', 1, 'update'],
        ['settings', 1, 'update'],
      ],
    );
  });

  it('refuses bad values with the catalogue messages, saving nothing and queueing nothing', async () => {
    const before = (await api.request('GET', '/api/admin/settings', { token })).body;
    const rows = (await settingsRows(api)).length;
    const res = await patch({
      authorNameEn: '',
      authorNameAr: null,
      biographyAr: '   ',
      contactEmail: 'nobody',
      siteUrl: 'javascript:alert(1)',
      footerCreditUrl: 'ftp://example.com',
      copyrightYear: 'soon',
      socialLinks: [{ label: '', url: 'javascript:alert(1)' }],
    });
    assert.equal(res.status, 400);
    assert.equal(res.body.message, 'Validation failed');
    assert.equal(res.body.messageKey, 'validation.failed');
    assert.deepEqual(res.body.errors, {
      authorNameEn: 'Author name is required',
      authorNameAr: 'Author name is required',
      biographyAr: 'Biography is required',
      contactEmail: 'Please enter a valid email address',
      siteUrl: 'Must be a link starting with http:// or https://',
      footerCreditUrl: 'Must be a link starting with http:// or https://',
      copyrightYear: 'Copyright year must be a whole number',
      'socialLinks.0.label': 'Link name is required',
      'socialLinks.0.url': 'Must be a link starting with http:// or https://',
    });
    assert.deepEqual(res.body.errorKeys.authorNameEn, { key: 'validation.authorNameRequired' });
    assert.deepEqual(res.body.errorKeys.copyrightYear, {
      key: 'validation.wholeNumber',
      params: { field: { key: 'label.copyrightYear' } },
    });
    assert.deepEqual(res.body.errorKeys['socialLinks.0.label'], { key: 'validation.linkNameRequired' });
    assert.deepEqual((await api.request('GET', '/api/admin/settings', { token })).body, before);
    assert.equal((await settingsRows(api)).length, rows);
  });

  it('refuses a year out of range, an empty site address and unknown fields', async () => {
    assert.deepEqual((await patch({ copyrightYear: 99 })).body.errors, { copyrightYear: 'Copyright year must be at least 1000' });
    assert.deepEqual((await patch({ siteUrl: '' })).body.errors, { siteUrl: 'Site address is required' });
    assert.deepEqual((await patch({ socialLinks: 'https://x.example' })).body.errors, {
      socialLinks: 'Must be a list of links, each with a name and a URL',
    });
    const unknown = await patch({ passwordHash: 'x' });
    assert.equal(unknown.status, 400);
    assert.deepEqual(unknown.body.errors, { passwordHash: 'Unknown field' });
  });

  it('refuses texts over their limits', async () => {
    const res = await patch({ authorNameAr: 'ن'.repeat(201) });
    assert.deepEqual(res.body.errors, { authorNameAr: 'Must be at most 200 characters' });
  });

  it('saves the short bio in both languages (500 characters at most), shows it publicly, and blanks it to null', async () => {
    const over = await patch({ shortBioEn: 'a'.repeat(501), shortBioAr: 'ن'.repeat(501) });
    assert.equal(over.status, 400);
    assert.deepEqual(over.body.errors, { shortBioEn: 'Must be at most 500 characters', shortBioAr: 'Must be at most 500 characters' });
    assert.deepEqual(over.body.errorKeys.shortBioAr, { key: 'validation.maxLength', params: { max: 500 } });

    const saved = await patch({ shortBioEn: 'a'.repeat(500), shortBioAr: 'كاتبة من غزة.' });
    assert.equal(saved.status, 200);
    assert.equal(saved.body.shortBioEn, 'a'.repeat(500));
    const shown = (await api.request('GET', '/api/settings')).body;
    assert.equal(shown.shortBioEn, 'a'.repeat(500));
    assert.equal(shown.shortBioAr, 'كاتبة من غزة.');

    assert.equal((await patch({ shortBioEn: '  ', shortBioAr: null })).status, 200);
    const blanked = (await api.request('GET', '/api/settings')).body;
    assert.equal(blanked.shortBioEn, null);
    assert.equal(blanked.shortBioAr, null);
  });
});

describe('GET /api/docs-json (settings)', () => {
  let api: Api;
  before(async () => (api = await startApi()));
  after(() => api.close());

  it('documents the public and admin routes, their answers and the request body', async () => {
    const doc = (await api.request('GET', '/api/docs-json')).body;
    assert.ok(doc.paths['/api/settings'].get);
    assert.ok(doc.paths['/api/admin/settings'].get);
    assert.ok(doc.paths['/api/admin/settings'].patch);
    assert.deepEqual(doc.components.schemas.PublicSiteSettings.required.slice().sort(), PUBLIC_FIELDS);
    assert.ok(doc.components.schemas.SiteSettings.properties.lastUpdatedByUserId);
    assert.ok(doc.components.schemas.UpdateSettingsDto.properties.biographyAr);
    assert.equal(doc.components.schemas.UpdateSettingsDto.properties.shortBioAr.maxLength, 500);
    assert.equal(doc.components.schemas.PublicSiteSettings.properties.shortBioEn.nullable, true);
  });
});
