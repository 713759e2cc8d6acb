import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { apiError, mockApi, signIn } from '../../test/api-mock';
import { news } from '../../test/fixtures';
import { renderWithProviders } from '../../test/render';
import { NewsForm } from './news-form';
import { NewsScreen } from './news-screen';

function setup(item: ReturnType<typeof news> | null = null) {
  const api = mockApi({
    'POST /api/news': ({ body }) => ({ ...news(4, 'x'), ...(body as object) }),
    'PATCH /api/news/4': ({ body }) => ({ ...news(4, 'x'), ...(body as object) }),
  });
  signIn(api);
  const onSaved = vi.fn();
  return { api, onSaved, ...renderWithProviders(<NewsForm item={item} onSaved={onSaved} onClose={vi.fn()} />) };
}

describe('news form', () => {
  it("'Add New News': Published unchecked, excerpt 2 rows, content 6 rows, today's date", () => {
    setup();
    expect(screen.getByRole('dialog', { name: 'Add New News' })).toBeTruthy();
    expect((screen.getByLabelText('Published') as HTMLInputElement).checked).toBe(false);
    expect(screen.getByLabelText('Excerpt').getAttribute('rows')).toBe('2');
    expect(screen.getByLabelText('Content').getAttribute('rows')).toBe('6');
    expect((screen.getByLabelText('Published Date') as HTMLInputElement).value).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it("says 'Required' for title, excerpt, content and category", async () => {
    const { api, user } = setup();
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(screen.getAllByText('Required')).toHaveLength(4);
    expect(api.callsTo('POST', '/api/news')).toHaveLength(0);
  });

  it('creates news with the Published checkbox and an ISO date', async () => {
    const { api, user, onSaved } = setup();
    await user.type(screen.getByLabelText('Title'), 'Exhibition in Ramallah');
    await user.type(screen.getByLabelText('Excerpt'), 'Short');
    await user.type(screen.getByLabelText('Content'), 'Long text');
    await user.selectOptions(screen.getByLabelText('Category'), 'exhibition');
    await user.click(screen.getByLabelText('Published'));
    await user.click(screen.getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    const body = api.callsTo('POST', '/api/news')[0].body as Record<string, unknown>;
    expect(body).toMatchObject({
      title: 'Exhibition in Ramallah',
      excerpt: 'Short',
      content: 'Long text',
      category: 'exhibition',
      published: true,
      imageUrl: null,
      newsUrl: null,
    });
    expect(new Date(body.publishedDate as string).toISOString()).toBe(body.publishedDate);
    expect(await screen.findByText('News created successfully')).toBeTruthy();
  });

  it("'News updated successfully', keeping the stored date when unchanged", async () => {
    const { api, user } = setup(news(4, 'Award'));
    expect(screen.getByRole('dialog', { name: 'Edit News' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Update' }));
    expect(await screen.findByText('News updated successfully')).toBeTruthy();
    expect((api.callsTo('PATCH', '/api/news/4')[0].body as { publishedDate: string }).publishedDate).toBe('2025-02-01T09:30:00.000Z');
  });

  it('upload toasts of the news form', async () => {
    const { api, user } = setup();
    const image = screen.getByRole('tablist', { name: 'Image' });
    await user.click(within(image).getByRole('tab', { name: 'Upload' }));
    const input = () => document.querySelector<HTMLInputElement>('input[type="file"]')!;

    api.routes['POST /api/upload'] = { url: '/uploads/news/a-12345678.png', folder: 'news' };
    await user.upload(input(), new File(['x'], 'a.png', { type: 'image/png' }));
    expect(await screen.findByText('Image uploaded successfully')).toBeTruthy();
    expect(screen.queryByText('Saved to news')).toBeNull();
    expect((api.callsTo('POST', '/api/upload')[0].body as FormData).get('contentType')).toBe('news');

    await user.click(within(image).getByRole('tab', { name: 'Upload' }));
    api.routes['POST /api/upload'] = apiError(415, 'Only images (JPEG, PNG, GIF, WebP, AVIF) and PDF files can be uploaded');
    await user.upload(input(), new File(['x'], 'b.png', { type: 'image/png' }));
    let toast = await screen.findByRole('alert');
    expect(toast.textContent).toContain('Upload failed');
    expect(toast.textContent).toContain('Please try again');

    api.routes['POST /api/upload'] = () => Promise.reject(new TypeError('Failed to fetch'));
    await user.upload(input(), new File(['x'], 'c.png', { type: 'image/png' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toContain('Upload error'));
    toast = screen.getByRole('alert');
    expect(toast.textContent).toContain('Please try again');
  });
});

describe('Manage News', () => {
  it('filters deleted news on the client', async () => {
    const api = mockApi({ 'GET /api/news': [news(1, 'Live item'), news(2, 'Trashed item', { isDeleted: true })] });
    signIn(api);
    const { user } = renderWithProviders(<NewsScreen />);
    expect(await screen.findByRole('rowheader', { name: 'Live item' })).toBeTruthy();
    expect(screen.queryByRole('rowheader', { name: 'Trashed item' })).toBeNull();
    await user.click(screen.getByRole('switch', { name: 'Show Deleted' }));
    expect(await screen.findByRole('rowheader', { name: 'Trashed item' })).toBeTruthy();
    expect(api.callsTo('GET', '/api/news').every((call) => !call.search.has('includeDeleted'))).toBe(true);
  });

  it("'Failed to delete news item' and 'Failed to restore news item'", async () => {
    const api = mockApi({
      'GET /api/news': [news(1, 'Live item'), news(2, 'Trashed item', { isDeleted: true })],
      'PATCH /api/news/1': apiError(500, 'x'),
      'PATCH /api/news/2': apiError(500, 'x'),
    });
    signIn(api);
    const { user } = renderWithProviders(<NewsScreen />);
    await user.click(await screen.findByRole('button', { name: 'Delete Live item' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Failed to delete news item');
    await user.click(screen.getByRole('switch', { name: 'Show Deleted' }));
    await user.click(await screen.findByRole('button', { name: 'Restore Trashed item' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toContain('Failed to restore news item'));
  });
});
