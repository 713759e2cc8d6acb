import { SETTINGS_PLACEHOLDERS } from '@portfolio/contract/settings';
import type { PublicSiteSettings } from '@portfolio/contract/types';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { newRecord, renderContext } from '../lib/render-context';
import { inLanguage, loadSite, siteOf } from './site';

const settings: PublicSiteSettings = { ...SETTINGS_PLACEHOLDERS, siteUrl: 'https://nour.example/', updatedAt: '2025-05-01T00:00:00.000Z' };
let fetchMock: ReturnType<typeof vi.fn>;

beforeEach(() => {
  process.env.SITE_API_URL = 'http://api.test';
  fetchMock = vi.fn(async () => new Response(JSON.stringify(settings), { headers: { 'content-type': 'application/json' } }));
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

describe('the site settings in a render', () => {
  it("record the dep 'settings' and are fetched once per publish however many pages read them", async () => {
    const records = [newRecord('publish-settings'), newRecord('publish-settings')];
    for (const record of records) await renderContext.run(record, () => loadSite());
    expect(records.map((r) => [...r.deps])).toEqual([['settings'], ['settings']]);
    expect(fetchMock.mock.calls.map(([url]) => url)).toEqual(['http://api.test/api/settings']);
  });

  it('give the address as a URL ending in one slash, and no credit line without a credit name', () => {
    const site = siteOf({ ...settings, footerCreditName: null });
    expect(site.url.toString()).toBe('https://nour.example/');
    expect(new URL('/books/3', site.url).toString()).toBe('https://nour.example/books/3');
    expect(site.poweredBy).toBeNull();
    expect(siteOf(settings).poweredBy).toEqual({ name: 'Example Agency', url: 'https://example.com/' });
  });
});

describe('inLanguage', () => {
  it("gives the language's own text, else the other's, marked with the other's language", () => {
    expect(inLanguage({ en: 'Gaza City', ar: 'غزة' }, 'ar')).toEqual({ text: 'غزة', lang: 'ar' });
    expect(inLanguage({ en: null, ar: 'غزة' }, 'en')).toEqual({ text: 'غزة', lang: 'ar' });
    expect(inLanguage({ en: 'Gaza City', ar: '' }, 'ar')).toEqual({ text: 'Gaza City', lang: 'en' });
    expect(inLanguage({ en: null, ar: null }, 'en')).toBeNull();
  });
});
