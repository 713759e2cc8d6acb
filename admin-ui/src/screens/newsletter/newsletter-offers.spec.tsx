import type { MailPreview, NewsletterOffer } from '@portfolio/contract/newsletter';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { NewsletterOffersProvider } from '../../hooks/use-newsletter-offers';
import { type ApiCall, apiError, mockApi, signIn } from '../../test/api-mock';
import { campaign, subscriber } from '../../test/fixtures';
import { renderWithProviders } from '../../test/render';
import { CAMPAIGN_POLL_MS } from './campaign-progress';
import { NewsletterOffers } from './newsletter-offers';
import { withDirection } from './send-offer-modal';

/** A title inside a sentence, as the overlay isolates it. */
const i = (text: string) => `\u2068${text}\u2069`;

const mail = (subject: string, body: string): MailPreview => ({
  subject,
  html: `<!doctype html><html><body><h1>${body}</h1></body></html>`,
  text: `${body}\n\nRead it on the site`,
});

const offer = { kind: 'essays', id: 3, title: 'The sea remembers', liveAt: '2026-04-01T09:00:00.000Z' } as const;

function setup() {
  let offers = [offer];
  const api = mockApi({
    'GET /api/newsletter/offers': () => offers,
    'GET /api/newsletter/preview': {
      en: mail('New essay: The sea remembers', 'The sea remembers'),
      ar: mail('مقال جديد: البحر يتذكّر', 'البحر يتذكّر'),
    },
    // Two confirmed subscribers follow essays: the API counts them (a page of one, its total).
    'GET /api/subscribers': ({ search }: ApiCall) =>
      search.get('state') === 'confirmed' && search.get('topic') === 'essays' && search.get('pageSize') === '1'
        ? { items: [subscriber(3, 'sami@example.com', { topics: ['essays'] })], total: 2, page: 1, pageSize: 1, counts: COUNTS }
        : apiError(400, 'unexpected query'),
    'POST /api/newsletter/test': () => new Response(null, { status: 202 }),
    'POST /api/newsletter/campaigns': () => {
      offers = [];
      return campaign({ id: 9, state: 'sending', sent: 0, remaining: 2, total: 2, finishedAt: null });
    },
    'POST /api/newsletter/offers/essays/3/dismiss': () => {
      offers = [];
      return null;
    },
  });
  signIn(api);
  const view = renderWithProviders(
    <NewsletterOffersProvider>
      <NewsletterOffers />
    </NewsletterOffersProvider>,
  );
  return { api, ...view };
}

const sent = (api: ReturnType<typeof setup>['api']) => api.callsTo('POST', '/api/newsletter/campaigns');

afterEach(() => {
  vi.useRealTimers();
  document.documentElement.lang = 'en';
  document.documentElement.dir = 'ltr';
});

const COUNTS = { byState: { pending: 0, confirmed: 3, unsubscribed: 0, paused: 0 }, byLanguage: { en: 3, ar: 0 } };

describe('Send to subscribers', () => {
  it('offers what went live, and shows the mail in both languages in sandboxed frames, the Arabic right to left', async () => {
    const { api, user } = setup();
    const offers = await screen.findByRole('region', { name: 'Ready to send to subscribers' });
    expect(offers.textContent).toContain(`“${i('The sea remembers')}” is live. Send it to your subscribers?`);
    await user.click(within(offers).getByRole('button', { name: 'Send to subscribers The sea remembers' }));
    const dialog = screen.getByRole('dialog', { name: `Send “${i('The sea remembers')}” to subscribers` });
    const english = (await within(dialog).findByTitle('The mail in English')) as HTMLIFrameElement;
    const arabic = within(dialog).getByTitle('The mail in Arabic') as HTMLIFrameElement;
    expect(english.getAttribute('sandbox')).toBe('');
    expect(arabic.getAttribute('sandbox')).toBe('');
    expect(english.getAttribute('srcdoc')).toContain('<html lang="en" dir="ltr"><body><h1>The sea remembers</h1>');
    expect(arabic.getAttribute('srcdoc')).toContain('<html lang="ar" dir="rtl"><body><h1>البحر يتذكّر</h1>');
    expect(within(dialog).getByText(`Subject: ${i('مقال جديد: البحر يتذكّر')}`)).toBeTruthy();
    expect(within(dialog).getByText(/Read it on the site/, { selector: 'pre[lang="ar"][dir="rtl"]' })).toBeTruthy();
    expect(api.callsTo('GET', '/api/newsletter/preview')[0].search.toString()).toBe('kind=essays&id=3');
    // Followers of essays among the confirmed subscribers.
    expect(await within(dialog).findByRole('button', { name: 'Send to 2 subscribers' })).toBeTruthy();
    expect(api.callsTo('GET', '/api/subscribers')[0].search.get('state')).toBe('confirmed');
    expect(sent(api)).toHaveLength(0);
  });

  it('a test goes to the signed-in admin only; the campaign starts only on "Send to N subscribers", then its progress updates', async () => {
    const { api, user } = setup();
    await user.click(await screen.findByRole('button', { name: 'Send to subscribers The sea remembers' }));
    const dialog = screen.getByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Send a test to me' }));
    expect(await screen.findByText('Test sent')).toBeTruthy();
    expect(screen.getByText('Both languages, to admin@example.invalid.')).toBeTruthy();
    expect(api.callsTo('POST', '/api/newsletter/test')[0].body).toEqual({ kind: 'essays', id: 3 });
    expect(sent(api)).toHaveLength(0);

    const send = await within(dialog).findByRole('button', { name: 'Send to 2 subscribers' });
    vi.useFakeTimers();
    api.routes['GET /api/newsletter/campaigns/9'] = campaign({ id: 9, state: 'done', sent: 2, remaining: 0, total: 2 });
    fireEvent.click(send);
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(sent(api)).toHaveLength(1);
    expect(sent(api)[0].body).toEqual({ kind: 'essays', id: 3 });
    expect(screen.getByText('Sending to subscribers')).toBeTruthy();
    expect(within(dialog).getByText('Sent 0 · failed 0 · remaining 2')).toBeTruthy();
    expect(within(dialog).getByRole('progressbar', { name: `Sending “${i('The sea remembers')}”` })).toBeTruthy();
    // Sent: no longer offered, and no way to send it twice from here.
    expect(screen.queryByRole('region', { name: 'Ready to send to subscribers' })).toBeNull();
    expect(within(dialog).queryByRole('button', { name: /Send to 2 subscribers/ })).toBeNull();
    await act(() => vi.advanceTimersByTimeAsync(CAMPAIGN_POLL_MS));
    expect(within(dialog).getByText('Sent 2 · failed 0 · remaining 0')).toBeTruthy();
    expect(within(dialog).getByText('Done')).toBeTruthy();
  });

  it('"Not this one" dismisses the offer and sends nothing; closing the dialog sends nothing either', async () => {
    const { api, user } = setup();
    await user.click(await screen.findByRole('button', { name: 'Send to subscribers The sea remembers' }));
    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Send to subscribers The sea remembers' }));
    await user.click(screen.getByRole('button', { name: 'Not this one' }));
    expect(await screen.findByText('It will not be offered again')).toBeTruthy();
    expect(api.callsTo('POST', '/api/newsletter/offers/essays/3/dismiss')).toHaveLength(1);
    expect(screen.queryByRole('dialog')).toBeNull();
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Ready to send to subscribers' })).toBeNull());
    expect(sent(api)).toHaveLength(0);
    expect(api.callsTo('POST', '/api/newsletter/test')).toHaveLength(0);
  });

  it('an item already sent: the refusal is shown, and nothing else happens', async () => {
    const { api, user } = setup();
    api.routes['POST /api/newsletter/campaigns'] = apiError(409, 'This item has already been sent to subscribers.');
    await user.click(await screen.findByRole('button', { name: 'Send to subscribers The sea remembers' }));
    await user.click(await screen.findByRole('button', { name: 'Send to 2 subscribers' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Could not send to subscribers');
    expect(alert.textContent).toContain('409: This item has already been sent to subscribers.');
    expect(screen.getByRole('button', { name: 'Send to 2 subscribers' })).toBeTruthy();
  });

  it('nobody follows the topic: nothing to send; the count unknown: sending is still the explicit choice', async () => {
    const { api, user } = setup();
    api.routes['GET /api/subscribers'] = { items: [], total: 0, page: 1, pageSize: 1, counts: COUNTS };
    await user.click(await screen.findByRole('button', { name: 'Send to subscribers The sea remembers' }));
    expect(await screen.findByText('No confirmed subscriber follows Essays yet.')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Send to 0 subscribers' }) as HTMLButtonElement).disabled).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Close' }));
    api.routes['GET /api/subscribers'] = apiError(500, 'Internal server error');
    await user.click(screen.getByRole('button', { name: 'Send to subscribers The sea remembers' }));
    const dialog = screen.getByRole('dialog');
    const send = await within(dialog).findByRole('button', { name: 'Send to subscribers' });
    expect((send as HTMLButtonElement).disabled).toBe(false);
    expect(sent(api)).toHaveLength(0);
    await user.click(send);
    await waitFor(() => expect(sent(api)).toHaveLength(1));
  });

  it('speaks Arabic', async () => {
    document.documentElement.lang = 'ar';
    document.documentElement.dir = 'rtl';
    const { user } = setup();
    const offers = await screen.findByRole('region', { name: 'جاهز للإرسال إلى المشتركين' });
    // The admin is addressed in the masculine, as everywhere in the overlay (issue 32).
    expect(offers.textContent).toContain(`«${i('The sea remembers')}» منشور الآن. هل تريد إرساله إلى مشتركيك؟`);
    await user.click(within(offers).getByRole('button', { name: 'إرسال إلى المشتركين The sea remembers' }));
    expect(await screen.findByRole('button', { name: 'إرسال إلى المشتركين (2)' })).toBeTruthy();
    expect(screen.getByText('الرسالة كما سيتلقّاها مشتركوك، بكل لغة. لا يُرسل شيء حتى تختار الإرسال.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'ليس هذا' })).toBeTruthy();
  });

  it('warns before sending when the links in the mail would lead to this computer (issue 32)', async () => {
    const { api, user } = setup();
    api.routes['GET /api/subscribers'] = {
      items: [],
      total: 2,
      page: 1,
      pageSize: 1,
      counts: COUNTS,
      mailLinks: { base: 'http://localhost:3000', local: true },
    };
    await user.click(await screen.findByRole('button', { name: 'Send to subscribers The sea remembers' }));
    const dialog = screen.getByRole('dialog');
    const warning = await within(dialog).findByRole('alert');
    expect(warning.textContent).toContain('Links in mails would lead nowhere');
    expect(warning.textContent).toContain(`The site address is ${i('http://localhost:3000')}, an address of this computer only`);
  });

  it("a mail without a direction of its own gets its language's", () => {
    expect(withDirection('<p>مرحبا</p>', 'ar')).toBe('<div lang="ar" dir="rtl"><p>مرحبا</p></div>');
    expect(withDirection('<html dir="rtl"><body></body></html>', 'ar')).toBe('<html dir="rtl"><body></body></html>');
  });
});

describe('Dismiss all', () => {
  it('"Dismiss all" when several offers stand: one request naming the offers shown, their bars go, nothing is sent; in Arabic too', async () => {
    for (const lang of ['en', 'ar'] as const) {
      document.documentElement.lang = lang;
      document.documentElement.dir = lang === 'ar' ? 'rtl' : 'ltr';
      let offers: NewsletterOffer[] = [offer, { kind: 'news', id: 4, title: 'A prize', liveAt: '2024-02-01T09:00:00.000Z' }];
      const api = mockApi({
        'GET /api/newsletter/offers': () => offers,
        'POST /api/newsletter/offers/dismiss': ({ body }: ApiCall) => {
          const named = (body as { offers: { kind: string; id: number }[] }).offers;
          offers = offers.filter((o) => !named.some((n) => n.kind === o.kind && n.id === o.id));
          return null;
        },
      });
      signIn(api);
      const { user, unmount } = renderWithProviders(
        <NewsletterOffersProvider>
          <NewsletterOffers />
        </NewsletterOffersProvider>,
      );
      const words = lang === 'en' ? ['Ready to send to subscribers', 'Dismiss all'] : ['جاهز للإرسال إلى المشتركين', 'تجاهل الكل'];
      const region = await screen.findByRole('region', { name: words[0] });
      expect(within(region).getAllByRole('listitem')).toHaveLength(2);
      // An item goes live after the bar loaded its list: the admin has not seen it, so it is not dismissed.
      offers = [...offers, { kind: 'essays', id: 5, title: 'Came up later', liveAt: '2026-04-02T09:00:00.000Z' }];
      await user.click(within(region).getByRole('button', { name: words[1] }));
      expect(await screen.findByText(lang === 'en' ? 'None of them will be offered again' : 'لن يُعرض أيٌّ منها مرة أخرى')).toBeTruthy();
      expect(api.callsTo('POST', '/api/newsletter/offers/dismiss').map((call) => call.body)).toEqual([
        {
          offers: [
            { kind: 'essays', id: 3 },
            { kind: 'news', id: 4 },
          ],
        },
      ]);
      await waitFor(() =>
        expect(
          within(screen.getByRole('region', { name: words[0] }))
            .getAllByRole('listitem')
            .map((li) => li.textContent),
        ).toEqual([expect.stringContaining('Came up later')]),
      );
      expect(api.callsTo('POST', '/api/newsletter/campaigns')).toHaveLength(0);
      unmount();
    }
  });

  it('one offer alone has no "Dismiss all" (its dialog has "Not this one")', async () => {
    setup();
    const region = await screen.findByRole('region', { name: 'Ready to send to subscribers' });
    expect(within(region).queryByRole('button', { name: 'Dismiss all' })).toBeNull();
  });
});
