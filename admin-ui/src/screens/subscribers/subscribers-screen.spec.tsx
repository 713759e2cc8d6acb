import type { Campaign, Subscriber, SubscriberList } from '@portfolio/contract/newsletter';
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { apiError, mockApi, signIn } from '../../test/api-mock';
import { campaign, subscriber } from '../../test/fixtures';
import { renderWithProviders } from '../../test/render';
import { CAMPAIGN_POLL_MS } from '../newsletter/campaign-progress';
import { SubscribersScreen } from './subscribers-screen';

const everyone = [
  subscriber(1, 'layla@example.com'),
  subscriber(2, 'omar@example.com', { language: 'ar', topics: ['books'] }),
  subscriber(3, 'sami@example.com', { state: 'pending', confirmedAt: null }),
];

/** The list as the API answers it: search by part of the address, filter by state, counts over everyone. */
function answer(items: Subscriber[], search: URLSearchParams, mailLinks = { base: 'https://site.example', local: false }): SubscriberList {
  const part = search.get('search') ?? '';
  const state = search.get('state');
  const found = items.filter((s) => s.email.includes(part) && (!state || s.state === state));
  return {
    items: found,
    total: found.length,
    page: Number(search.get('page') ?? 1),
    pageSize: Number(search.get('pageSize') ?? 50),
    counts: {
      byState: { pending: 1, confirmed: items.filter((s) => s.state === 'confirmed').length, unsubscribed: 4, paused: 0 },
      byLanguage: { en: 1, ar: 1 },
    },
    mailLinks,
  };
}

function setup(campaigns: Campaign[] = [campaign()], mailLinks = { base: 'https://site.example', local: false }) {
  let items = [...everyone];
  const api = mockApi({
    'GET /api/subscribers': ({ search }) => answer(items, search, mailLinks),
    'DELETE /api/subscribers/2': () => {
      items = items.filter((s) => s.id !== 2);
      return null;
    },
    'GET /api/newsletter/campaigns': campaigns,
  });
  signIn(api);
  return { api, ...renderWithProviders(<SubscribersScreen />) };
}

/** A list of counts ('Subscribers by state') as name → number. */
const counts = (name: string) =>
  Object.fromEntries(
    [...screen.getByLabelText(name).querySelectorAll('div')].map((entry) => [
      entry.querySelector('dt')!.textContent,
      Number(entry.querySelector('dd')!.textContent),
    ]),
  );

afterEach(() => {
  vi.useRealTimers();
  document.documentElement.lang = 'en';
  document.documentElement.dir = 'ltr';
});

describe('Subscribers tab', () => {
  it('lists the subscribers (address, language, topics, state, since) and counts them by state and by language', async () => {
    const { api } = setup();
    const omar = await screen.findByRole('row', { name: /omar@example.com/ });
    expect(within(omar).getByText('العربية')).toBeTruthy();
    expect(within(omar).getByText('Books')).toBeTruthy();
    expect(within(screen.getByRole('row', { name: /layla@example.com/ })).getByText('Essays, News')).toBeTruthy();
    expect(within(screen.getByRole('row', { name: /sami@example.com/ })).getByText('Pending')).toBeTruthy();
    expect(counts('Subscribers by state')).toEqual({ Confirmed: 2, Pending: 1, Paused: 0, Unsubscribed: 4 });
    expect(counts('Confirmed subscribers by mail language')).toEqual({ English: 1, العربية: 1 });
    const [call] = api.callsTo('GET', '/api/subscribers');
    expect(call.search.get('page')).toBe('1');
    expect(call.search.get('pageSize')).toBe('50');
    expect(call.search.has('search')).toBe(false);
  });

  it('searches by a part of the address and filters by state, from the first page', async () => {
    const { api, user } = setup();
    await screen.findByRole('row', { name: /omar@example.com/ });
    await user.type(screen.getByRole('searchbox', { name: 'Search by address' }), 'layla');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(screen.queryByRole('row', { name: /omar@example.com/ })).toBeNull());
    expect(screen.getByRole('row', { name: /layla@example.com/ })).toBeTruthy();
    expect(api.callsTo('GET', '/api/subscribers').at(-1)!.search.get('search')).toBe('layla');
    await user.clear(screen.getByRole('searchbox', { name: 'Search by address' }));
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await user.selectOptions(screen.getByRole('combobox', { name: 'State' }), 'Pending');
    await waitFor(() => expect(screen.queryByRole('row', { name: /layla@example.com/ })).toBeNull());
    expect(screen.getByRole('row', { name: /sami@example.com/ })).toBeTruthy();
    const last = api.callsTo('GET', '/api/subscribers').at(-1)!.search;
    expect([last.get('state'), last.get('page'), last.has('search')]).toEqual(['pending', '1', false]);
  });

  it('moves between pages of 50', async () => {
    const { api, user } = setup();
    api.routes['GET /api/subscribers'] = ({ search }) => ({ ...answer(everyone, search), total: 120 });
    await user.click(await screen.findByRole('button', { name: 'Search' }));
    const pages = await screen.findByRole('navigation', { name: 'Pages of subscribers' });
    expect(pages.textContent).toContain('Page 1 of 3 (120 subscribers)');
    expect((within(pages).getByRole('button', { name: 'Previous page' }) as HTMLButtonElement).disabled).toBe(true);
    await user.click(within(pages).getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(pages.textContent).toContain('Page 2 of 3'));
    expect(api.callsTo('GET', '/api/subscribers').at(-1)!.search.get('page')).toBe('2');
  });

  it('removes someone only after the confirmation that everything stored about them goes', async () => {
    const { api, user } = setup();
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(false);
    await user.click(await screen.findByRole('button', { name: 'Remove omar@example.com' }));
    expect(confirm).toHaveBeenCalledWith('Remove omar@example.com? This removes this person and everything stored about them.');
    expect(api.callsTo('DELETE', '/api/subscribers/2')).toHaveLength(0);
    confirm.mockReturnValue(true);
    await user.click(screen.getByRole('button', { name: 'Remove omar@example.com' }));
    expect(await screen.findByText('Subscriber removed')).toBeTruthy();
    expect(api.callsTo('DELETE', '/api/subscribers/2')).toHaveLength(1);
    await waitFor(() => expect(screen.queryByRole('row', { name: /omar@example.com/ })).toBeNull());
  });

  it('says why a removal failed', async () => {
    const { api, user } = setup();
    api.routes['DELETE /api/subscribers/2'] = apiError(404, 'Subscriber not found');
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    await user.click(await screen.findByRole('button', { name: 'Remove omar@example.com' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Could not remove the subscriber');
    expect(alert.textContent).toContain('404: Subscriber not found');
  });

  it('imports a CSV only once the consent is ticked, and shows created, updated, skipped and the refused lines', async () => {
    const { api, user } = setup();
    api.routes['POST /api/subscribers/import'] = {
      created: 2,
      updated: 1,
      skipped: 1,
      errors: [{ line: 4, message: 'Not an e-mail address' }],
    };
    await screen.findByRole('row', { name: /omar@example.com/ });
    const button = screen.getByRole('button', { name: 'Import CSV' }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    const file = new File(['email,language\nnew@example.com,ar\n'], 'list.csv', { type: 'text/csv' });
    await user.upload(screen.getByLabelText('CSV file'), file);
    expect(button.disabled).toBe(true);
    await user.click(button);
    expect(api.callsTo('POST', '/api/subscribers/import')).toHaveLength(0);
    await user.click(screen.getByRole('checkbox', { name: 'Everyone in this file agreed to receive my mails' }));
    expect(button.disabled).toBe(false);
    const lists = api.callsTo('GET', '/api/subscribers').length;
    await user.click(button);
    expect(await screen.findByText('Created: 2. Updated: 1. Skipped: 1.')).toBeTruthy();
    expect(screen.getByText('Line 4: Not an e-mail address')).toBeTruthy();
    expect(screen.getByText('Lines not imported: 1')).toBeTruthy();
    const [call] = api.callsTo('POST', '/api/subscribers/import');
    const form = call.body as FormData;
    expect(form.get('consent')).toBe('true');
    expect((form.get('file') as File).name).toBe('list.csv');
    await waitFor(() => expect(api.callsTo('GET', '/api/subscribers').length).toBeGreaterThan(lists));
  });

  it('shows an import the API refuses as the other refusals', async () => {
    const { api, user } = setup();
    api.routes['POST /api/subscribers/import'] = apiError(400, 'Choose a CSV file with a header line starting with email.');
    await screen.findByRole('row', { name: /omar@example.com/ });
    await user.upload(screen.getByLabelText('CSV file'), new File(['name\n'], 'list.csv', { type: 'text/csv' }));
    await user.click(screen.getByRole('checkbox', { name: 'Everyone in this file agreed to receive my mails' }));
    await user.click(screen.getByRole('button', { name: 'Import CSV' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Import failed');
    expect(alert.textContent).toContain('400: Choose a CSV file with a header line starting with email.');
  });

  it('exports the subscribers as a CSV download', async () => {
    const { api, user } = setup();
    api.routes['GET /api/subscribers/export'] = () =>
      new Response('email,language\n', {
        headers: { 'Content-Type': 'text/csv', 'Content-Disposition': 'attachment; filename="subscribers.csv"' },
      });
    const createObjectURL = vi.fn(() => 'blob:subscribers');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    await user.click(await screen.findByRole('button', { name: 'Export CSV' }));
    expect(await screen.findByText('Subscribers exported')).toBeTruthy();
    expect(click).toHaveBeenCalledTimes(1);
    expect((click.mock.contexts[0] as HTMLAnchorElement).download).toBe('subscribers.csv');
  });

  it("lists what was sent, and a campaign's progress updates every 2 s while it is sending", async () => {
    vi.useFakeTimers();
    const answers = [
      campaign({ state: 'sending', sent: 2, failed: 1, remaining: 7, total: 10, finishedAt: null }),
      campaign({ state: 'done', sent: 9, failed: 1, remaining: 0, total: 10 }),
    ];
    const { api } = setup([
      campaign({ id: 5, title: 'Spring news', state: 'sending', sent: 0, remaining: 10, total: 10, finishedAt: null }),
      campaign(),
    ]);
    api.routes['GET /api/newsletter/campaigns/5'] = () => ({ ...answers.shift()!, id: 5, title: 'Spring news' });
    await act(() => vi.advanceTimersByTimeAsync(0));
    const row = () => screen.getByRole('row', { name: /Spring news/ });
    const bar = () => within(row()).getByRole('progressbar', { name: 'Sending “\u2068Spring news\u2069”' }) as HTMLProgressElement;
    expect(within(row()).getByText('Sending')).toBeTruthy();
    expect(within(row()).getByText('Sent 0 · failed 0 · remaining 10')).toBeTruthy();
    expect([bar().value, bar().max]).toEqual([0, 10]);
    expect(within(screen.getByRole('row', { name: /The sea remembers/ })).getByText('Done')).toBeTruthy();
    await act(() => vi.advanceTimersByTimeAsync(CAMPAIGN_POLL_MS));
    expect(within(row()).getByText('Sent 2 · failed 1 · remaining 7')).toBeTruthy();
    expect(bar().value).toBe(3);
    await act(() => vi.advanceTimersByTimeAsync(CAMPAIGN_POLL_MS));
    expect(within(row()).getByText('Sent 9 · failed 1 · remaining 0')).toBeTruthy();
    expect(within(row()).getByText('Done')).toBeTruthy();
    await act(() => vi.advanceTimersByTimeAsync(CAMPAIGN_POLL_MS * 3));
    expect(api.callsTo('GET', '/api/newsletter/campaigns/5')).toHaveLength(2);
    expect(api.callsTo('GET', '/api/newsletter/campaigns/4')).toHaveLength(0);
  });

  it('says before anything is sent when the links in mails would lead to this computer (no PUBLIC_URL), in both languages', async () => {
    const local = { base: 'http://localhost:3000', local: true };
    const first = setup(undefined, local);
    const warning = await screen.findByRole('alert');
    expect(warning.textContent).toBe(
      'Links in mails would lead nowhere' +
        `The site address is \u2068http://localhost:3000\u2069, an address of this computer only: readers could not open the links in your mails. Set the site address in Settings (or PUBLIC_URL before the first start) before sending.`,
    );
    first.unmount();
    document.documentElement.lang = 'ar';
    document.documentElement.dir = 'rtl';
    setup(undefined, local);
    expect((await screen.findByRole('alert')).textContent).toContain('الروابط في الرسائل لن تؤدي إلى أي مكان');
  });

  it('shows no warning when the links in mails lead to the public site', async () => {
    setup();
    await screen.findByRole('row', { name: /omar@example.com/ });
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('speaks Arabic, right to left', async () => {
    document.documentElement.lang = 'ar';
    document.documentElement.dir = 'rtl';
    setup();
    expect(await screen.findByRole('heading', { name: 'المشتركون' })).toBeTruthy();
    expect(await screen.findByRole('button', { name: 'إزالة omar@example.com' })).toBeTruthy();
    expect(screen.getByRole('checkbox', { name: 'وافق كل من في هذا الملف على تلقّي رسائلي' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'ما أُرسل إلى المشتركين' })).toBeTruthy();
    expect(screen.getByLabelText('المشتركون حسب الحالة').textContent).toContain('مؤكَّد');
  });
});
