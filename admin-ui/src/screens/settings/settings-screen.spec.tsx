import type { SiteSettings } from '@portfolio/contract/types';
import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';

import { apiError, keyedApiError, mockApi, signIn } from '../../test/api-mock';
import { renderWithProviders } from '../../test/render';
import { SettingsScreen } from './settings-screen';

const settings = (overrides: Partial<SiteSettings> = {}): SiteSettings => ({
  authorNameEn: 'Nour Haddad',
  authorNameAr: 'نور حداد',
  subtitleEn: 'Writer & Visual Artist from Gaza',
  subtitleAr: 'كاتبة وفنانة تشكيلية من غزة',
  quoteEn: null,
  quoteAr: 'البحر يتذكّر.',
  biographyEn: 'Born in Gaza.\n\nShe writes.',
  biographyAr: 'وُلدت في غزة.',
  shortBioEn: null,
  shortBioAr: 'كاتبة من غزة.',
  portraitImage: null,
  contactEmail: 'nour@example.test',
  locationEn: 'Gaza City, Palestine',
  locationAr: 'غزة',
  socialLinks: [{ label: 'Instagram', url: 'https://www.instagram.com/nour' }],
  footerCreditName: 'Example Agency',
  footerCreditUrl: 'https://example.com/',
  copyrightYear: 2025,
  siteUrl: 'https://nour.example',
  newsletterSenderName: 'Nour Haddad',
  newsletterSenderAddress: null,
  newsletterFooterEn: 'You get this because you subscribed on nour.example.',
  newsletterFooterAr: null,
  updatedAt: '2025-05-01T10:00:00.000Z',
  lastUpdatedByUserId: null,
  ...overrides,
});

function setup(patch?: (body: Record<string, unknown>) => unknown, load: unknown = settings()) {
  const api = mockApi({
    'GET /api/admin/settings': load as object,
    'PATCH /api/admin/settings': ({ body }) =>
      patch ? patch(body as Record<string, unknown>) : { ...settings(), ...(body as object), lastUpdatedByUserId: 1 },
    'GET /api/admin/publishing': {
      state: 'idle',
      pendingChanges: 0,
      lastLiveAt: null,
      lastDurationMs: null,
      lastError: null,
      webhookConfigured: true,
      nextAttemptAt: null,
      liveBuildId: null,
      builderReachable: null,
      lastPublish: null,
    },
  });
  signIn(api);
  return { api, ...renderWithProviders(<SettingsScreen />) };
}

const field = (label: string) => screen.getByLabelText(label) as HTMLInputElement | HTMLTextAreaElement;

afterEach(() => {
  document.documentElement.lang = 'en';
  document.documentElement.dir = 'ltr';
});

describe('Settings tab', () => {
  it('shows each text in English and Arabic side by side, the Arabic right to left', async () => {
    setup();
    await screen.findByRole('form', { name: 'Site settings' });
    expect(field('Author name (English)').value).toBe('Nour Haddad');
    const arabic = field('Author name (Arabic)');
    expect(arabic.value).toBe('نور حداد');
    expect(arabic.getAttribute('dir')).toBe('rtl');
    expect(arabic.getAttribute('lang')).toBe('ar');
    expect(field("Biography, 'A Voice from Gaza' (Arabic)").getAttribute('dir')).toBe('rtl');
    expect(field("Biography, 'A Voice from Gaza' (English)").value).toBe('Born in Gaza.\n\nShe writes.');
    expect(field('Quote (English)').value).toBe('');
    expect(field('Copyright year').value).toBe('2025');
    expect(field('Link 1: address').value).toBe('https://www.instagram.com/nour');
  });

  it('says what is wrong before sending, and sends nothing', async () => {
    const { api, user } = setup();
    await screen.findByRole('form', { name: 'Site settings' });
    await user.clear(field('Author name (English)'));
    await user.clear(field("Biography, 'A Voice from Gaza' (Arabic)"));
    await user.clear(field('Contact e-mail'));
    await user.type(field('Contact e-mail'), 'nobody');
    await user.clear(field('Copyright year'));
    await user.type(field('Copyright year'), '20x5');
    await user.clear(field('Link 1: address'));
    await user.type(field('Link 1: address'), 'javascript:alert(1)');
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(await screen.findByText('Author name is required')).toBeTruthy();
    expect(screen.getByText('Biography is required')).toBeTruthy();
    expect(screen.getByText('Please enter a valid email address')).toBeTruthy();
    expect(screen.getByText('Copyright year must be a whole number')).toBeTruthy();
    expect(api.callsTo('PATCH', '/api/admin/settings')).toHaveLength(0);
    await user.type(field('Author name (English)'), 'Nour');
    await user.type(field("Biography, 'A Voice from Gaza' (Arabic)"), 'سيرة');
    await user.clear(field('Contact e-mail'));
    await user.type(field('Contact e-mail'), 'nour@example.test');
    await user.clear(field('Copyright year'));
    await user.type(field('Copyright year'), '2026');
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(await screen.findByText('Must be a link starting with http:// or https://')).toBeTruthy();
    expect(api.callsTo('PATCH', '/api/admin/settings')).toHaveLength(0);
  });

  it('saves every field and says so; the publishing status is asked again, to show it going live', async () => {
    const { api, user } = setup();
    await screen.findByRole('form', { name: 'Site settings' });
    const polls = api.callsTo('GET', '/api/admin/publishing').length;
    await user.clear(field("Biography, 'A Voice from Gaza' (Arabic)"));
    await user.type(field("Biography, 'A Voice from Gaza' (Arabic)"), 'سيرة جديدة');
    await user.clear(field('Copyright year'));
    await user.type(field('Copyright year'), '2026');
    await user.click(screen.getByRole('button', { name: 'Add a link' }));
    await user.type(field('Link 2: name'), 'YouTube');
    await user.type(field('Link 2: address'), 'https://youtube.example/@nour');
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(await screen.findByText('Settings saved')).toBeTruthy();
    const [call] = api.callsTo('PATCH', '/api/admin/settings');
    expect(call.body).toEqual({
      authorNameEn: 'Nour Haddad',
      authorNameAr: 'نور حداد',
      subtitleEn: 'Writer & Visual Artist from Gaza',
      subtitleAr: 'كاتبة وفنانة تشكيلية من غزة',
      quoteEn: null,
      quoteAr: 'البحر يتذكّر.',
      biographyEn: 'Born in Gaza.\n\nShe writes.',
      biographyAr: 'سيرة جديدة',
      shortBioEn: null,
      shortBioAr: 'كاتبة من غزة.',
      portraitImage: null,
      contactEmail: 'nour@example.test',
      locationEn: 'Gaza City, Palestine',
      locationAr: 'غزة',
      socialLinks: [
        { label: 'Instagram', url: 'https://www.instagram.com/nour' },
        { label: 'YouTube', url: 'https://youtube.example/@nour' },
      ],
      footerCreditName: 'Example Agency',
      footerCreditUrl: 'https://example.com/',
      copyrightYear: 2026,
      siteUrl: 'https://nour.example',
      newsletterSenderName: 'Nour Haddad',
      newsletterSenderAddress: null,
      newsletterFooterEn: 'You get this because you subscribed on nour.example.',
      newsletterFooterAr: null,
    });
    await waitFor(() => expect(api.callsTo('GET', '/api/admin/publishing').length).toBeGreaterThan(polls));
  });

  it("removes a link, and shows the API's refusals on their fields by key", async () => {
    const { api, user } = setup(() =>
      keyedApiError(400, 'validation.failed', { siteUrl: 'validation.link', 'socialLinks.0.label': 'validation.linkNameRequired' }),
    );
    await screen.findByRole('form', { name: 'Site settings' });
    await user.click(screen.getByRole('button', { name: 'Add a link' }));
    await user.type(field('Link 2: name'), 'Blog');
    await user.type(field('Link 2: address'), 'https://blog.example');
    await user.click(screen.getByRole('button', { name: 'Remove link Instagram' }));
    expect(screen.queryByDisplayValue('https://www.instagram.com/nour')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Error saving settings');
    expect(alert.textContent).toContain('400: Validation failed');
    expect(screen.getByText('Must be a link starting with http:// or https://')).toBeTruthy();
    expect(screen.getByText('Link name is required')).toBeTruthy();
    expect(field('Link 1: name').getAttribute('aria-invalid')).toBe('true');
    expect((api.callsTo('PATCH', '/api/admin/settings')[0].body as { socialLinks: unknown }).socialLinks).toEqual([
      { label: 'Blog', url: 'https://blog.example' },
    ]);
  });

  it('edits the short bio in both languages: at most 500 characters each, the Arabic right to left, an emptied one sent as null', async () => {
    const { api, user } = setup();
    await screen.findByRole('form', { name: 'Site settings' });
    const english = field('Short bio, at the end of essays and news (English)');
    const arabic = field('Short bio, at the end of essays and news (Arabic)');
    expect(english.value).toBe('');
    expect(arabic.value).toBe('كاتبة من غزة.');
    expect(arabic.getAttribute('dir')).toBe('rtl');
    expect(english.getAttribute('maxlength')).toBe('500');
    expect(arabic.getAttribute('maxlength')).toBe('500');
    expect(screen.getAllByText('Two or three sentences. Left empty, the first sentences of the biography are shown.').length).toBe(2);
    await user.type(english, 'Nour writes from Gaza.');
    await user.clear(arabic);
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(await screen.findByText('Settings saved')).toBeTruthy();
    const body = api.callsTo('PATCH', '/api/admin/settings')[0].body as Record<string, unknown>;
    expect([body.shortBioEn, body.shortBioAr]).toEqual(['Nour writes from Gaza.', null]);
  });

  it('labels the short bio in Arabic in the Arabic overlay', async () => {
    document.documentElement.lang = 'ar';
    document.documentElement.dir = 'rtl';
    setup();
    await screen.findByRole('form', { name: 'إعدادات الموقع' });
    expect(field('نبذة قصيرة في آخر المقالات والأخبار (بالعربية)').value).toBe('كاتبة من غزة.');
    expect(field('نبذة قصيرة في آخر المقالات والأخبار (بالإنجليزية)').getAttribute('dir')).toBe('ltr');
  });

  it('speaks Arabic, right to left, with the catalogue messages in Arabic', async () => {
    document.documentElement.lang = 'ar';
    document.documentElement.dir = 'rtl';
    const { user } = setup();
    await screen.findByRole('form', { name: 'إعدادات الموقع' });
    expect(field('اسم الكاتبة (بالعربية)').getAttribute('dir')).toBe('rtl');
    await user.clear(field('اسم الكاتبة (بالإنجليزية)'));
    await user.click(screen.getByRole('button', { name: 'حفظ الإعدادات' }));
    expect(await screen.findByText('اسم الكاتبة مطلوب')).toBeTruthy();
    expect(screen.getByRole('group', { name: 'عنك' })).toBeTruthy();
  });

  it('says when the settings cannot be loaded, and tries again', async () => {
    const { api, user } = setup(undefined, apiError(500, 'Internal server error'));
    const retry = await screen.findByRole('button', { name: 'Retry' });
    expect(screen.getByText('Could not load the settings', { selector: 'p' })).toBeTruthy();
    expect(screen.queryByRole('form')).toBeNull();
    api.routes['GET /api/admin/settings'] = settings();
    await user.click(retry);
    expect(await screen.findByRole('form', { name: 'Site settings' })).toBeTruthy();
  });

  it("round-trips the newsletter's sender and footer, an empty one as null", async () => {
    const { api, user } = setup();
    await screen.findByRole('form', { name: 'Site settings' });
    expect(screen.getByRole('group', { name: 'Newsletter mails' })).toBeTruthy();
    expect(field('Sender name').value).toBe('Nour Haddad');
    expect(field('Sender address').value).toBe('');
    expect(field('Mail footer (Arabic)').getAttribute('dir')).toBe('rtl');
    await user.clear(field('Sender name'));
    await user.type(field('Sender name'), 'Nour');
    await user.type(field('Sender address'), 'letters@nour.example');
    await user.clear(field('Mail footer (English)'));
    await user.type(field('Mail footer (Arabic)'), 'وصلتك لأنك اشتركت.');
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(await screen.findByText('Settings saved')).toBeTruthy();
    expect(api.callsTo('PATCH', '/api/admin/settings')[0].body).toMatchObject({
      newsletterSenderName: 'Nour',
      newsletterSenderAddress: 'letters@nour.example',
      newsletterFooterEn: null,
      newsletterFooterAr: 'وصلتك لأنك اشتركت.',
    });
    // What the API answered is what the form shows.
    expect(field('Sender address').value).toBe('letters@nour.example');
    expect(field('Mail footer (Arabic)').value).toBe('وصلتك لأنك اشتركت.');
  });

  it("checks the sender address, and shows the API's refusal of a sender name on its field", async () => {
    const { api, user } = setup(() => apiError(400, 'Validation failed', { newsletterSenderName: 'Must be a single line.' }));
    await screen.findByRole('form', { name: 'Site settings' });
    await user.type(field('Sender address'), 'not an address');
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(await screen.findByText('Please enter a valid email address')).toBeTruthy();
    expect(api.callsTo('PATCH', '/api/admin/settings')).toHaveLength(0);
    await user.clear(field('Sender address'));
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    expect((await screen.findByRole('alert')).textContent).toContain('400: Validation failed');
    expect(screen.getByText('Must be a single line.')).toBeTruthy();
    expect(field('Sender name').getAttribute('aria-invalid')).toBe('true');
  });
});
