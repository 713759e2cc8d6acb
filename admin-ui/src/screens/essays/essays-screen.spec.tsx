import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { NewsletterOffersProvider } from '../../hooks/use-newsletter-offers';
import { apiError, mockApi, signIn } from '../../test/api-mock';
import { essay } from '../../test/fixtures';
import { renderWithProviders } from '../../test/render';
import { NewsletterOffers } from '../newsletter/newsletter-offers';
import { EssaysScreen } from './essays-screen';

describe('Manage Essays', () => {
  it("shows 'No essays found' and 'No deleted essays found'", async () => {
    const api = mockApi({ 'GET /api/essays': [] });
    signIn(api);
    const { user } = renderWithProviders(<EssaysScreen />);
    expect(await screen.findByText('No essays found')).toBeTruthy();
    await user.click(screen.getByRole('switch', { name: 'Show Deleted' }));
    expect(await screen.findByText('No deleted essays found')).toBeTruthy();
  });

  it("creates an essay: 'Essay created successfully'; the logo upload failure has its own toast", async () => {
    const api = mockApi({
      'GET /api/essays': [essay(1, 'On Memory')],
      'POST /api/essays': essay(2, 'New'),
      'POST /api/upload': apiError(413, 'This file is too large. The limit is 25 MB.'),
    });
    signIn(api);
    const { user } = renderWithProviders(<EssaysScreen />);
    await user.click(await screen.findByRole('button', { name: 'Add Essay' }));
    expect(screen.getByRole('dialog', { name: 'Add New Essay' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(screen.getByText('Title is required')).toBeTruthy();
    expect(screen.getByText('Excerpt is required')).toBeTruthy();
    expect(screen.getByText('Content is required')).toBeTruthy();

    const logoTabs = screen.getByRole('tablist', { name: 'Publication Logo' });
    await user.click(logoTabs.querySelector('[role="tab"]:last-child') as HTMLElement);
    await user.upload(document.querySelector<HTMLInputElement>('input[type="file"]')!, new File(['x'], 'logo.png', { type: 'image/png' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Failed to upload publication logo');
    expect(screen.getByText('This file is too large. The limit is 25 MB.')).toBeTruthy();
    expect((api.callsTo('POST', '/api/upload')[0].body as FormData).get('contentType')).toBe('essays');

    await user.type(screen.getByLabelText('Title'), 'New');
    await user.type(screen.getByLabelText('Excerpt'), 'E');
    await user.type(screen.getByLabelText('Content'), 'C');
    await user.type(screen.getByLabelText('Published Date'), '2025-03-01');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Essay created successfully')).toBeTruthy();
    expect(api.callsTo('POST', '/api/essays')[0].body).toMatchObject({
      title: 'New',
      publishedDate: '2025-03-01T00:00:00.000Z',
      featured: false,
      published: true,
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it("moves an essay to trash: 'Essay moved to trash', failure 'Failed to delete essay'", async () => {
    const api = mockApi({ 'GET /api/essays': [essay(1, 'On Memory')], 'PATCH /api/essays/1': essay(1, 'On Memory', { isDeleted: true }) });
    signIn(api);
    const { user } = renderWithProviders(<EssaysScreen />);
    await user.click(await screen.findByRole('button', { name: 'Delete On Memory' }));
    expect(await screen.findByText('Essay moved to trash')).toBeTruthy();
    api.routes['PATCH /api/essays/1'] = apiError(500, 'x');
    await user.click(await screen.findByRole('button', { name: 'Delete On Memory' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toContain('Failed to delete essay'));
  });

  it('a restore that makes an essay live brings the offer to send it to subscribers, and sends nothing by itself', async () => {
    let offers: unknown[] = [];
    const api = mockApi({
      'GET /api/essays': () => [essay(1, 'On Memory', { isDeleted: offers.length === 0 })],
      'PATCH /api/essays/1': () => {
        offers = [{ kind: 'essays', id: 1, title: 'On Memory', liveAt: '2026-04-01T09:00:00.000Z' }];
        return essay(1, 'On Memory');
      },
      'GET /api/newsletter/offers': () => offers,
    });
    signIn(api);
    const { user } = renderWithProviders(
      <NewsletterOffersProvider>
        <NewsletterOffers />
        <EssaysScreen />
      </NewsletterOffersProvider>,
    );
    await user.click(await screen.findByRole('switch', { name: 'Show Deleted' }));
    await user.click(await screen.findByRole('button', { name: 'Restore On Memory' }));
    expect(await screen.findByText('“\u2068On Memory\u2069” is live. Send it to your subscribers?')).toBeTruthy();
    expect(api.callsTo('GET', '/api/newsletter/offers').length).toBeGreaterThanOrEqual(2);
    expect(api.callsTo('POST', '/api/newsletter/campaigns')).toHaveLength(0);
  });
});

describe('Essays: sending to subscribers from the row', () => {
  it('a live essay (an imported one too, never offered) can be sent to subscribers from its row; a draft cannot', async () => {
    const api = mockApi({
      'GET /api/essays': [essay(1, 'Imported in 2024'), essay(2, 'A draft', { published: false })],
      'GET /api/newsletter/offers': [],
      'GET /api/newsletter/preview': {
        en: { subject: 'New essay', html: '<p>x</p>', text: 'x' },
        ar: { subject: 'مقال جديد', html: '<p>x</p>', text: 'x' },
      },
      'GET /api/subscribers': { items: [], total: 4, page: 1, pageSize: 1, counts: {} },
    });
    signIn(api);
    const { user } = renderWithProviders(
      <NewsletterOffersProvider>
        <NewsletterOffers />
        <EssaysScreen />
      </NewsletterOffersProvider>,
    );
    await user.click(await screen.findByRole('button', { name: 'Send to subscribers Imported in 2024' }));
    expect(screen.getByRole('dialog', { name: 'Send “\u2068Imported in 2024\u2069” to subscribers' })).toBeTruthy();
    expect(await screen.findByRole('button', { name: 'Send to 4 subscribers' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Send to subscribers A draft' })).toBeNull();
    expect(api.callsTo('POST', '/api/newsletter/campaigns')).toHaveLength(0);
  });
});
