// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { pick } from '../i18n';
import NewsletterPreferencesForm, { PREFERENCES_KEYS } from './newsletter-preferences';

const strings = pick(PREFERENCES_KEYS);
const PREFS = { email: 'reader@example.com', language: 'en', topics: ['essays', 'news', 'books'], state: 'confirmed' };
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function open(search: string) {
  window.history.replaceState(null, '', `/newsletter/preferences${search}`);
  return render(<NewsletterPreferencesForm strings={strings} homeHref="/" />);
}

beforeEach(() => {
  document.documentElement.lang = 'en';
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('NewsletterPreferencesForm: loading', () => {
  it('says the link does not work when it has no token, without asking the API', async () => {
    const fetchMock = vi.spyOn(globalThis, 'fetch');
    open('');
    expect(
      await screen.findByText(
        'This link does not work: it is incomplete or no longer valid. Open the link in the latest e-mail you received from us.',
      ),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to the home page' }).getAttribute('href')).toBe('/');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('loads the preferences of the token and says the link does not work for an unknown or expired one (404)', async () => {
    const fetchMock = vi.spyOn(globalThis, 'fetch').mockResolvedValue(json({ statusCode: 404, message: 'Not found' }, 404));
    open('?token=a%2Bb');
    expect(await screen.findByRole('alert')).toBeTruthy();
    expect(fetchMock).toHaveBeenCalledWith('/api/newsletter/preferences?token=a%2Bb', expect.anything());
    expect(screen.getByRole('alert').textContent).toContain('This link does not work');
  });

  it('says the preferences could not be loaded when the API fails otherwise', async () => {
    vi.spyOn(globalThis, 'fetch').mockRejectedValue(new TypeError('network'));
    open('?token=t1');
    expect(await screen.findByText('Your preferences could not be loaded. Please try again.')).toBeTruthy();
  });
});

describe('NewsletterPreferencesForm: saving and leaving', () => {
  it('shows the address, language and topics, and saves changes with PUT', async () => {
    const fetchMock = vi
      .spyOn(globalThis, 'fetch')
      .mockResolvedValueOnce(json(PREFS))
      .mockResolvedValueOnce(json({ ...PREFS, language: 'ar', topics: ['essays', 'books'] }));
    open('?token=t1');
    expect(await screen.findByText('reader@example.com')).toBeTruthy();
    const language = screen.getByLabelText('Language of the e-mails') as HTMLSelectElement;
    expect(language.value).toBe('en');
    expect(screen.getByRole('checkbox', { name: 'News' })).toHaveProperty('checked', true);
    fireEvent.change(language, { target: { value: 'ar' } });
    fireEvent.click(screen.getByRole('checkbox', { name: 'News' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save preferences' }));
    expect(await screen.findByText('Your preferences are saved.')).toBeTruthy();
    expect(fetchMock).toHaveBeenLastCalledWith('/api/newsletter/preferences?token=t1', {
      method: 'PUT',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ language: 'ar', topics: ['essays', 'books'] }),
    });
  });

  it('asks for a topic instead of saving none, and reports a failed save', async () => {
    const fetchMock = vi
      .spyOn(globalThis, 'fetch')
      .mockResolvedValueOnce(json({ ...PREFS, topics: ['news'] }))
      .mockResolvedValueOnce(json({ statusCode: 500, message: 'Internal server error' }, 500));
    open('?token=t1');
    fireEvent.click(await screen.findByRole('checkbox', { name: 'News' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save preferences' }));
    expect(await screen.findByText('Choose at least one topic, or unsubscribe below.')).toBeTruthy();
    expect(fetchMock).toHaveBeenCalledTimes(1);
    fireEvent.click(screen.getByRole('checkbox', { name: 'Books' }));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save preferences' })));
    expect(await screen.findByText('Your preferences could not be saved. Please try again.')).toBeTruthy();
  });

  it('offers leaving as a plain form post to the API with the token and the page language', async () => {
    document.documentElement.lang = 'ar';
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(json(PREFS));
    open('?token=t1');
    const button = await screen.findByRole('button', { name: 'إلغاء الاشتراك' });
    const form = button.closest('form')!;
    expect(form.getAttribute('method')).toBe('post');
    expect(form.getAttribute('action')).toBe('/api/newsletter/unsubscribe');
    expect(Object.fromEntries(new FormData(form))).toEqual({ token: 't1', lang: 'ar' });
    expect(screen.getByLabelText('لغة الرسائل')).toBeTruthy();
  });

  it('tells an unsubscribed reader how to come back, and offers no unsubscribe', async () => {
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(json({ ...PREFS, state: 'unsubscribed', topics: [] }));
    open('?token=t1');
    expect(await screen.findByText('You are not subscribed at the moment. Choose topics and save to subscribe again.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Unsubscribe' })).toBeNull();
  });
});
