import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { ar } from '../../i18n/ar';
import { en } from '../../i18n/en';
import { apiError, keyedApiError, mockApi, signIn } from '../../test/api-mock';
import { book } from '../../test/fixtures';
import { renderWithProviders } from '../../test/render';
import { BookForm } from './book-form';

function setup(item = null as ReturnType<typeof book> | null) {
  const api = mockApi({
    'POST /api/books': ({ body }) => ({ ...book(9, 'x'), ...(body as object) }),
    'PATCH /api/books/5': ({ body }) => ({ ...book(5, 'x'), ...(body as object) }),
    'POST /api/upload': { url: '/uploads/books/cover-1a2b3c4d.jpg', folder: 'books' },
  });
  signIn(api);
  const onSaved = vi.fn();
  const view = renderWithProviders(<BookForm item={item} onSaved={onSaved} onClose={vi.fn()} />);
  return { api, onSaved, ...view };
}

const field = (label: string) => screen.getByLabelText(label) as HTMLInputElement;

describe('book form', () => {
  it('starts with this year, Arabic, published, and no reviews', () => {
    setup();
    expect(screen.getByRole('dialog', { name: 'Add New Book' })).toBeTruthy();
    expect(field('Year').value).toBe(String(new Date().getFullYear()));
    expect(field('Language').value).toBe('Arabic');
    expect(field('Published').checked).toBe(true);
    expect(field('Download Count').value).toBe('0');
    expect(screen.getByText('No reviews added yet')).toBeTruthy();
    expect(screen.getByLabelText('Title').getAttribute('dir')).toBe('auto');
  });

  it('names the missing required fields and checks numbers and links', async () => {
    const { api, user } = setup();
    await user.clear(field('Year'));
    await user.type(field('Pages'), 'many');
    await user.type(field('Purchase URL'), 'shop.example.com');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(screen.getByText('Title is required')).toBeTruthy();
    expect(screen.getByText('Description is required')).toBeTruthy();
    expect(screen.getByText('Publisher is required')).toBeTruthy();
    expect(screen.getByText('Year is required')).toBeTruthy();
    expect(screen.getByText('Pages must be a whole number')).toBeTruthy();
    expect(screen.getByText('Must be a link starting with http:// or https://')).toBeTruthy();
    expect(api.callsTo('POST', '/api/books')).toHaveLength(0);
    await waitFor(() => expect(document.activeElement).toBe(field('Title')));
  });

  it('edits reviews: Add First Review, Add Review, the Upload tab note, remove', async () => {
    const { user } = setup();
    await user.click(screen.getByRole('button', { name: 'Add First Review' }));
    const first = screen.getByRole('group', { name: 'Review 1' });
    expect(document.activeElement).toBe(within(first).getByLabelText('Review Title'));
    await user.click(within(first).getByRole('tab', { name: 'Upload' }));
    expect(within(first).getByText('For file uploads, please use the main file upload system in the admin panel')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: /^Add Review$/ }));
    expect(screen.getByRole('group', { name: 'Review 2' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Remove Review 2' }));
    expect(screen.queryByRole('group', { name: 'Review 2' })).toBeNull();
  });

  it('creates a book with every field, reviews as JSON strings, blank optionals as null', async () => {
    const { api, user, onSaved } = setup();
    await user.type(field('Title'), 'Gaza Nights');
    const arabicTitle = field('Title (Arabic)');
    expect([arabicTitle.getAttribute('lang'), arabicTitle.getAttribute('dir')]).toEqual(['ar', 'rtl']);
    await user.type(arabicTitle, 'ليالي غزة');
    await user.type(field('Description'), 'A novel of the sea.');
    await user.type(field('Publisher'), 'Dar Al-Adab');
    await user.type(field('Pages'), '240');
    await user.click(screen.getByRole('button', { name: 'Add Award' }));
    await user.type(screen.getByLabelText('Awards 1'), 'Palestine Book Award');
    await user.click(screen.getByRole('button', { name: 'Add First Review' }));
    const review = screen.getByRole('group', { name: 'Review 1' });
    await user.type(within(review).getByLabelText('Review Title'), 'The Guardian');
    await user.type(within(review).getByRole('textbox', { name: 'Link' }), 'https://example.com/review');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(api.callsTo('POST', '/api/books')[0].body).toEqual({
      title: 'Gaza Nights',
      description: 'A novel of the sea.',
      year: new Date().getFullYear(),
      publisher: 'Dar Al-Adab',
      isbn: null,
      pages: 240,
      genre: null,
      language: 'Arabic',
      awards: ['Palestine Book Award'],
      goodreadsUrl: null,
      purchaseUrl: null,
      youtubeUrl: null,
      googleDriveUrl: null,
      downloadCount: 0,
      coverImage: null,
      documents: [],
      reviews: ['{"title":"The Guardian","url":"https://example.com/review"}'],
      readingMaterials: [],
      published: true,
      textFormat: 'markdown',
      contentLanguage: 'en',
      translations: { ar: { title: 'ليالي غزة', description: null, publisher: null, genre: null } },
    });
    expect(await screen.findByText('Book created successfully')).toBeTruthy();
  });

  it('uploads a cover: contentType books, the URL is filled in and a preview shown', async () => {
    const { api, user } = setup();
    const cover = screen.getByRole('tablist', { name: 'Cover Image' });
    await user.click(within(cover).getByRole('tab', { name: 'Upload' }));
    const input = document.querySelector<HTMLInputElement>('input[type="file"]')!;
    expect(input.labels?.[0].textContent).toBe('Cover Image');
    expect(input.accept).toBe('image/*');
    await user.upload(input, new File(['x'], 'cover.jpg', { type: 'image/jpeg' }));
    expect(await screen.findByText('Image uploaded successfully')).toBeTruthy();
    expect(screen.getByText('Saved to books')).toBeTruthy();
    const form = api.callsTo('POST', '/api/upload')[0].body as FormData;
    expect(form.get('contentType')).toBe('books');
    expect((form.get('file') as File).name).toBe('cover.jpg');
    expect((screen.getByRole('textbox', { name: 'Cover Image' }) as HTMLInputElement).value).toBe('/uploads/books/cover-1a2b3c4d.jpg');
    expect(screen.getByRole('img', { name: 'Preview' }).getAttribute('src')).toBe('/uploads/books/cover-1a2b3c4d.jpg');
  });

  it.each([
    ['en', 'The site cannot show this image. Use a link starting with http:// or https://, a path starting with /, or a file name.'],
    [
      'ar',
      'لا يستطيع الموقع عرض هذه الصورة. استخدم رابطًا يبدأ بـ \u2066http://\u2069 أو \u2066https://\u2069، أو مسارًا يبدأ بـ \u2066/\u2069، أو اسم ملف.',
    ],
  ] as const)('refuses a cover image the site would drop, and sends nothing (%s)', async (lang, message) => {
    document.documentElement.lang = lang;
    const words = { en, ar }[lang];
    const { api, user } = setup(book(5, 'Gaza Nights', { coverImage: 'data:image/png;base64,iVBORw0KGgo=' }));
    const cover = screen.getByRole('textbox', { name: words['fields.coverImage'] });
    expect(screen.queryByRole('img')).toBeNull();
    await user.click(screen.getByRole('button', { name: words['common.update'] }));
    expect(screen.getByText(message)).toBeTruthy();
    expect(cover.getAttribute('aria-invalid')).toBe('true');
    await waitFor(() => expect(document.activeElement).toBe(cover));
    expect(api.callsTo('PATCH', '/api/books/5')).toHaveLength(0);
    await user.clear(cover);
    await user.type(cover, '//cdn.example/x.jpg');
    expect(screen.getByText(message)).toBeTruthy();
    await user.clear(cover);
    await user.type(cover, './cover.jpg');
    expect(screen.queryByText(message)).toBeNull();
    expect(screen.getByRole('img', { name: words['upload.preview'] }).getAttribute('src')).toBe('/uploads/cover.jpg');
    await user.click(screen.getByRole('button', { name: words['common.update'] }));
    await waitFor(() => expect(api.callsTo('PATCH', '/api/books/5')).toHaveLength(1));
    expect((api.callsTo('PATCH', '/api/books/5')[0].body as { coverImage: string }).coverImage).toBe('./cover.jpg');
  });

  it('edits an existing book with PATCH and parses its stored reviews', async () => {
    const existing = book(5, 'Gaza Nights', { reviews: ['{"title":"Haaretz","url":"https://h.example/r"}', 'https://bare.example/r.pdf'] });
    const { api, user } = setup(existing);
    expect(screen.getByRole('dialog', { name: 'Edit Book' })).toBeTruthy();
    expect((within(screen.getByRole('group', { name: 'Review 1' })).getByLabelText('Review Title') as HTMLInputElement).value).toBe(
      'Haaretz',
    );
    expect((within(screen.getByRole('group', { name: 'Review 2' })).getByRole('textbox', { name: 'Link' }) as HTMLInputElement).value).toBe(
      'https://bare.example/r.pdf',
    );
    await user.click(screen.getByRole('button', { name: 'Update' }));
    expect(await screen.findByText('Book updated successfully')).toBeTruthy();
    expect((api.callsTo('PATCH', '/api/books/5')[0].body as { reviews: string[] }).reviews).toEqual([
      '{"title":"Haaretz","url":"https://h.example/r"}',
      'https://bare.example/r.pdf',
    ]);
  });

  it.each([
    ['en', 'Review link must start with http:// or https://', 'Review link is required'],
    ['ar', 'يجب أن يبدأ رابط المراجعة بـ \u2066http://\u2069 أو \u2066https://\u2069', 'رابط المراجعة مطلوب'],
  ] as const)(
    'refuses review cards the site would leave out, says why on each, and saves nothing until fixed (%s)',
    async (lang, mustStart, required) => {
      document.documentElement.lang = lang;
      const words = { en, ar }[lang];
      const card = (n: number) => screen.getByRole('group', { name: words['reviews.item'].replace('{n}', String(n)) });
      const link = (n: number) => within(card(n)).getByRole('textbox', { name: words['reviews.link'] }) as HTMLInputElement;
      const stored = [
        'www.guardian.com/review',
        '{"title":"No link","url":""}',
        '{broken',
        '{"title":"Haaretz","url":"https://h.example/r"}',
      ];
      const { api, user } = setup(book(5, 'Gaza Nights', { reviews: stored }));
      expect(link(3).value).toBe('{broken');
      expect(screen.queryByText(mustStart)).toBeNull();
      await user.click(screen.getByRole('button', { name: words['common.update'] }));
      expect(within(card(1)).getByText(mustStart)).toBeTruthy();
      expect(within(card(2)).getByText(required)).toBeTruthy();
      expect(within(card(3)).getByText(mustStart)).toBeTruthy();
      expect(within(card(4)).queryByText(mustStart)).toBeNull();
      expect(link(1).getAttribute('aria-invalid')).toBe('true');
      expect(link(1).getAttribute('aria-describedby')).toBe(within(card(1)).getByText(mustStart).id);
      await waitFor(() => expect(document.activeElement).toBe(link(1)));
      expect(api.callsTo('PATCH', '/api/books/5')).toHaveLength(0);

      await user.clear(link(1));
      await user.type(link(1), 'https://www.guardian.com/review');
      expect(within(card(1)).queryByText(mustStart)).toBeNull();
      await user.type(link(2), '/uploads/books/review-1a2b3c4d.pdf');
      await user.click(screen.getByRole('button', { name: words['common.update'] }));
      expect(api.callsTo('PATCH', '/api/books/5')).toHaveLength(0);
      await user.click(within(card(3)).getByRole('button', { name: new RegExp(words['common.remove']) }));
      await user.click(screen.getByRole('button', { name: words['common.update'] }));
      await waitFor(() => expect(api.callsTo('PATCH', '/api/books/5')).toHaveLength(1));
      expect((api.callsTo('PATCH', '/api/books/5')[0].body as { reviews: string[] }).reviews).toEqual([
        'https://www.guardian.com/review',
        '{"title":"No link","url":"/uploads/books/review-1a2b3c4d.pdf"}',
        '{"title":"Haaretz","url":"https://h.example/r"}',
      ]);
    },
  );

  it('drops empty review cards silently', async () => {
    const { api, user } = setup(book(5, 'Gaza Nights'));
    await user.click(screen.getByRole('button', { name: 'Add First Review' }));
    await user.click(screen.getByRole('button', { name: /^Add Review$/ }));
    await user.type(within(screen.getByRole('group', { name: 'Review 2' })).getByLabelText('Review Title'), '   ');
    await user.click(screen.getByRole('button', { name: 'Update' }));
    await waitFor(() => expect(api.callsTo('PATCH', '/api/books/5')).toHaveLength(1));
    expect((api.callsTo('PATCH', '/api/books/5')[0].body as { reviews: string[] }).reviews).toEqual([]);
    expect(screen.queryByText('Review link is required')).toBeNull();
  });

  it('shows the API’s field errors on the fields', async () => {
    const { api, user } = setup(book(5, 'Gaza Nights'));
    api.routes['PATCH /api/books/5'] = apiError(409, 'Deleted books cannot be edited. Restore the book first.');
    await user.click(screen.getByRole('button', { name: 'Update' }));
    const toast = await screen.findByRole('alert');
    expect(toast.textContent).toContain('Failed to save book');
    expect(toast.textContent).toContain('409: Deleted books cannot be edited. Restore the book first.');
  });

  it('shows the API’s field errors in Arabic, from their keys', async () => {
    document.documentElement.lang = 'ar';
    const { api, user } = setup(book(5, 'Gaza Nights'));
    api.routes['PATCH /api/books/5'] = keyedApiError(400, 'validation.failed', {
      title: { key: 'validation.maxLength', params: { max: 300 } },
      year: { key: 'validation.atMost', params: { field: { key: 'label.year' }, max: 9999 } },
    });
    await user.click(screen.getByRole('button', { name: ar['common.update'] }));
    const title = await screen.findByText('يجب ألا يزيد عدد الأحرف على 300');
    expect(field(ar['fields.title']).getAttribute('aria-describedby')).toBe(title.id);
    expect(screen.getByText('يجب ألا تزيد قيمة السنة على 9999')).toBeTruthy();
    expect(screen.queryByText('Must be at most 300 characters')).toBeNull();
    expect((await screen.findByRole('alert')).textContent).toContain('400: فشل التحقق من صحة البيانات');
  });

  it('shows a message the overlay has no key for as the API sent it (an older API)', async () => {
    document.documentElement.lang = 'ar';
    const { api, user } = setup(book(5, 'Gaza Nights'));
    api.routes['PATCH /api/books/5'] = apiError(400, 'Title is too blue', { title: 'Title is too blue' });
    await user.click(screen.getByRole('button', { name: ar['common.update'] }));
    const problem = await screen.findByText('Title is too blue', { selector: '.ao-field-error' });
    expect(field(ar['fields.title']).getAttribute('aria-describedby')).toBe(problem.id);
    expect((await screen.findByRole('alert')).textContent).toContain('400: Title is too blue');
  });
});
