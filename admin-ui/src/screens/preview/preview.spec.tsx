import type { PreviewRequest, PreviewResponse } from '@portfolio/contract/types';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { keyedApiError, mockApi, signIn } from '../../test/api-mock';
import { book, news } from '../../test/fixtures';
import { renderWithProviders } from '../../test/render';
import { BookForm } from '../books/book-form';
import { ScheduledList } from '../dashboard/scheduled-list';
import { NewsForm } from '../news/news-form';

const page = (path: string, text: string) => ({
  path,
  status: 200,
  html: `<!doctype html><html lang="${path.startsWith('/ar') ? 'ar' : 'en'}"><head></head><body><h1>${text}</h1></body></html>`,
});

function answer(request: PreviewRequest): PreviewResponse {
  const title = String(request.item.title);
  return {
    kind: request.kind,
    id: request.id ?? 9,
    pages: [
      page('/news/4', `EN ${title}`),
      page('/news', 'EN list'),
      // A category named by a number: its archive is no item page.
      page('/news/category/2024', 'EN category'),
      page('/', 'EN home'),
      page('/ar/news/4', `AR ${title}`),
      page('/ar/news', 'AR list'),
      page('/ar/news/category/2024', 'AR category'),
      page('/ar', 'AR home'),
    ],
  };
}

function setupNews(item: ReturnType<typeof news> | null) {
  const api = mockApi({
    'POST /api/admin/preview': ({ body }) => answer(body as PreviewRequest),
    'PATCH /api/news/4': ({ body }) => ({ ...news(4, 'x'), ...(body as object) }),
    'POST /api/news': ({ body }) => ({ ...news(5, 'x'), ...(body as object) }),
  });
  signIn(api);
  return { api, ...renderWithProviders(<NewsForm item={item} onSaved={vi.fn()} onClose={vi.fn()} />) };
}

const frame = () => screen.getByTitle(/^Preview: /) as HTMLIFrameElement;

afterEach(() => {
  document.documentElement.lang = 'en';
  document.documentElement.dir = 'ltr';
});

describe('Preview in a content form', () => {
  it('sends the unsaved form to POST /api/admin/preview and shows the item page, then the list, in English and Arabic', async () => {
    const { api, user } = setupNews(news(4, 'Award'));
    await user.clear(screen.getByLabelText('Title'));
    await user.type(screen.getByLabelText('Title'), 'Unsaved title');
    await user.click(screen.getByRole('button', { name: 'Preview' }));

    const dialog = await screen.findByRole('dialog', { name: 'Preview' });
    const [call] = api.callsTo('POST', '/api/admin/preview');
    expect(call.body).toMatchObject({ kind: 'news', id: 4, item: { title: 'Unsaved title', category: 'award', published: true } });
    expect(api.callsTo('PATCH', '/api/news/4')).toHaveLength(0);
    expect(within(dialog).getByText(/Nothing is saved or published/)).toBeTruthy();
    expect(frame().getAttribute('srcdoc')).toContain('EN Unsaved title');

    await user.click(within(dialog).getByRole('button', { name: 'العربية' }));
    expect(frame().getAttribute('srcdoc')).toContain('AR Unsaved title');
    expect(within(dialog).getByRole('button', { name: 'العربية' }).getAttribute('aria-pressed')).toBe('true');

    await user.click(within(dialog).getByRole('tab', { name: 'List page' }));
    expect(frame().getAttribute('srcdoc')).toContain('AR list');
    await user.click(within(dialog).getByRole('button', { name: 'English' }));
    expect(frame().getAttribute('srcdoc')).toContain('EN list');
    await user.click(within(dialog).getByRole('tab', { name: 'Category page' }));
    expect(frame().getAttribute('srcdoc')).toContain('EN category');
    await user.click(within(dialog).getByRole('tab', { name: 'Item page' }));
    expect(frame().getAttribute('srcdoc')).toContain('EN Unsaved title');
    expect(
      within(dialog)
        .getAllByRole('tab')
        .map((tab) => tab.textContent),
    ).toEqual(['Item page', 'List page', 'Category page', 'Home page']);
  });

  it("opens from the content's formatting bar too: the unsaved formatting in the site's own pages", async () => {
    const { api, user } = setupNews(news(4, 'Award', { textFormat: 'markdown' }));
    const content = screen.getByRole('textbox', { name: 'Content' }) as HTMLTextAreaElement;
    await user.clear(content);
    await user.type(content, 'A prize');
    content.setSelectionRange(2, 7);
    await user.keyboard('{Control>}b{/Control}');
    const bar = screen.getByRole('toolbar', { name: 'Formatting: Content' });
    await user.click(within(bar).getByRole('button', { name: 'Preview the formatting on the site' }));
    await screen.findByRole('dialog', { name: 'Preview' });
    expect(api.callsTo('POST', '/api/admin/preview')[0]!.body).toMatchObject({ kind: 'news', item: { content: 'A **prize**' } });
  });

  it('checks the form first: nothing is sent while a required field is empty', async () => {
    const { api, user } = setupNews(null);
    await user.click(screen.getByRole('button', { name: 'Preview' }));
    expect(screen.getAllByText('Required')).toHaveLength(4);
    expect(api.callsTo('POST', '/api/admin/preview')).toHaveLength(0);
  });

  it("says why when this installation cannot preview (the API's message, in Arabic too)", async () => {
    document.documentElement.lang = 'ar';
    document.documentElement.dir = 'rtl';
    const api = mockApi({ 'POST /api/admin/preview': keyedApiError(409, 'error.previewUnavailable') });
    signIn(api);
    const { user } = renderWithProviders(<BookForm item={book(3, 'Gaza Notebook')} onSaved={vi.fn()} onClose={vi.fn()} />);
    await user.click(screen.getByRole('button', { name: 'معاينة' }));
    const toast = await screen.findByRole('alert');
    expect(toast.textContent).toContain('تعذّرت المعاينة');
    expect(toast.textContent).toContain('المعاينة غير متاحة هنا');
    expect(screen.queryByRole('dialog', { name: 'معاينة' })).toBeNull();
  });
});

describe('Publish at', () => {
  it('sends the local date and time as UTC, shows when it goes live, and clears', async () => {
    const { api, user } = setupNews(news(4, 'Award'));
    const input = screen.getByLabelText('Publish at') as HTMLInputElement;
    expect(input.type).toBe('datetime-local');
    expect(input.value).toBe('');
    await user.type(input, '2031-03-05T14:30');
    expect(screen.getByText(/Visitors see it from .*2031.*: it goes live by itself\./)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Update' }));
    await waitFor(() => expect(api.callsTo('PATCH', '/api/news/4')).toHaveLength(1));
    expect((api.callsTo('PATCH', '/api/news/4')[0].body as { publishAt: string }).publishAt).toBe(
      new Date('2031-03-05T14:30').toISOString(),
    );
  });

  it('warns when the item is not published (a time alone does not publish it)', async () => {
    const { user } = setupNews(null);
    await user.type(screen.getByLabelText('Publish at'), '2031-03-05T14:30');
    expect(screen.getByText(/It is not published yet: mark it published, or it stays hidden after that time too\./)).toBeTruthy();
    await user.click(screen.getByLabelText('Published'));
    expect(screen.queryByText(/It is not published yet/)).toBeNull();
  });

  it('keeps a stored time unchanged, and Clear the time sends null', async () => {
    const { api, user } = setupNews(news(4, 'Award', { publishAt: '2031-03-05T12:30:45.000Z' }));
    await user.click(screen.getByRole('button', { name: 'Update' }));
    await waitFor(() => expect(api.callsTo('PATCH', '/api/news/4')).toHaveLength(1));
    expect((api.callsTo('PATCH', '/api/news/4')[0].body as { publishAt: string }).publishAt).toBe('2031-03-05T12:30:45.000Z');
    await user.click(screen.getByRole('button', { name: 'Clear the time' }));
    expect((screen.getByLabelText('Publish at') as HTMLInputElement).value).toBe('');
    await user.click(screen.getByRole('button', { name: 'Update' }));
    await waitFor(() => expect(api.callsTo('PATCH', '/api/news/4')).toHaveLength(2));
    expect((api.callsTo('PATCH', '/api/news/4')[1].body as { publishAt: string | null }).publishAt).toBeNull();
  });
});

describe('the dashboard list of scheduled items', () => {
  const items = [
    { kind: 'news', id: 2, title: 'Prize announced', publishAt: '2031-01-02T09:00:00.000Z' },
    { kind: 'books', id: 7, title: 'يوميات غزة', publishAt: '2031-02-03T18:15:00.000Z' },
  ];

  it('lists what goes live later, with its kind and time (English)', async () => {
    const api = mockApi({ 'GET /api/admin/scheduled': items });
    signIn(api);
    const { user } = renderWithProviders(<ScheduledList />);
    await user.click(await screen.findByText('Scheduled to go live: 2'));
    const rows = screen.getAllByRole('listitem');
    expect(rows[0].textContent).toContain('News');
    expect(rows[0].textContent).toContain('Prize announced');
    expect(rows[0].querySelector('time')!.getAttribute('datetime')).toBe('2031-01-02T09:00:00.000Z');
    expect(rows[1].textContent).toContain('Book');
  });

  it('in Arabic', async () => {
    document.documentElement.lang = 'ar';
    const api = mockApi({ 'GET /api/admin/scheduled': items });
    signIn(api);
    renderWithProviders(<ScheduledList />);
    expect(await screen.findByText('مجدول للنشر: 2')).toBeTruthy();
    expect(screen.getAllByRole('listitem', { hidden: true })[1].textContent).toContain('كتاب');
  });

  it('shows nothing when nothing is scheduled', async () => {
    const api = mockApi({ 'GET /api/admin/scheduled': [] });
    signIn(api);
    const { container } = renderWithProviders(<ScheduledList />);
    await waitFor(() => expect(api.callsTo('GET', '/api/admin/scheduled')).toHaveLength(1));
    expect(container.textContent).toBe('');
  });
});
