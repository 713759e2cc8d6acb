import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { apiError, mockApi, signIn } from '../../test/api-mock';
import { book } from '../../test/fixtures';
import { renderWithProviders } from '../../test/render';
import { BooksScreen } from './books-screen';

function setup() {
  const api = mockApi({
    'GET /api/books': ({ search }) =>
      search.get('includeDeleted') === 'true'
        ? [book(1, 'Gaza Nights'), book(2, 'Old Draft', { isDeleted: true })]
        : [book(1, 'Gaza Nights'), book(3, 'Olive Trees', { published: false })],
  });
  signIn(api);
  return { api, ...renderWithProviders(<BooksScreen />) };
}

describe('Manage Books', () => {
  it("shows 'Loading...' with skeletons, then the books", async () => {
    setup();
    expect(screen.getByRole('heading', { name: 'Manage Books' })).toBeTruthy();
    expect(screen.getByText('Loading...')).toBeTruthy();
    expect(document.querySelectorAll('.ao-skeleton-row')).toHaveLength(6);
    expect(await screen.findByRole('rowheader', { name: 'Gaza Nights' })).toBeTruthy();
    const row = screen.getByRole('row', { name: /Olive Trees/ });
    expect(within(row).getByText('Draft')).toBeTruthy();
    expect(screen.queryByText('Loading...')).toBeNull();
  });

  it('Show Deleted asks the server with includeDeleted and lists only deleted books, without Edit', async () => {
    const { api, user } = setup();
    await screen.findByRole('rowheader', { name: 'Gaza Nights' });
    await user.click(screen.getByRole('switch', { name: 'Show Deleted' }));
    expect(await screen.findByRole('rowheader', { name: 'Old Draft' })).toBeTruthy();
    expect(screen.queryByRole('rowheader', { name: 'Gaza Nights' })).toBeNull();
    expect(api.callsTo('GET', '/api/books').at(-1)!.search.get('includeDeleted')).toBe('true');
    const row = screen.getByRole('row', { name: /Old Draft/ });
    expect(within(row).queryByRole('button', { name: /Edit/ })).toBeNull();
    expect(within(row).getByRole('button', { name: 'Restore Old Draft' })).toBeTruthy();
    expect(screen.getByText('Deleted books cannot be edited. Restore the book first.')).toBeTruthy();
  });

  it("moves a book to trash with PATCH {isDeleted: true}: 'Book moved to trash'", async () => {
    const { api, user } = setup();
    api.routes['PATCH /api/books/1'] = book(1, 'Gaza Nights', { isDeleted: true });
    await user.click(await screen.findByRole('button', { name: 'Delete Gaza Nights' }));
    expect(await screen.findByText('Book moved to trash')).toBeTruthy();
    expect(api.callsTo('PATCH', '/api/books/1')[0].body).toEqual({ isDeleted: true });
    await waitFor(() => expect(api.callsTo('GET', '/api/books')).toHaveLength(2));
  });

  it("restores a book: 'Book restored successfully'", async () => {
    const { api, user } = setup();
    api.routes['PATCH /api/books/2'] = book(2, 'Old Draft');
    await screen.findByRole('rowheader', { name: 'Gaza Nights' });
    await user.click(screen.getByRole('switch', { name: 'Show Deleted' }));
    await user.click(await screen.findByRole('button', { name: 'Restore Old Draft' }));
    expect(await screen.findByText('Book restored successfully')).toBeTruthy();
    expect(api.callsTo('PATCH', '/api/books/2')[0].body).toEqual({ isDeleted: false });
  });

  it("says 'Failed to delete book' with the reason", async () => {
    const { api, user } = setup();
    api.routes['PATCH /api/books/1'] = apiError(503, 'The database is unavailable right now. Please try again in a moment.');
    await user.click(await screen.findByRole('button', { name: 'Delete Gaza Nights' }));
    const toast = await screen.findByRole('alert');
    expect(toast.textContent).toContain('Failed to delete book');
    expect(toast.textContent).toContain('503: The database is unavailable right now. Please try again in a moment.');
  });

  it("'Failed to restore book' when a restore fails", async () => {
    const { api, user } = setup();
    api.routes['PATCH /api/books/2'] = apiError(500, 'boom');
    await screen.findByRole('rowheader', { name: 'Gaza Nights' });
    await user.click(screen.getByRole('switch', { name: 'Show Deleted' }));
    await user.click(await screen.findByRole('button', { name: 'Restore Old Draft' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Failed to restore book');
  });

  it('shows the empty states', async () => {
    const api = mockApi({ 'GET /api/books': [] });
    signIn(api);
    const { user } = renderWithProviders(<BooksScreen />);
    expect(await screen.findByText('No books found')).toBeTruthy();
    await user.click(screen.getByRole('switch', { name: 'Show Deleted' }));
    expect(await screen.findByText('No deleted books found')).toBeTruthy();
  });

  it("says 'Error loading books. Please try again later.' when the list fails", async () => {
    const api = mockApi({ 'GET /api/books': apiError(500, 'boom') });
    signIn(api);
    renderWithProviders(<BooksScreen />);
    expect((await screen.findByRole('alert')).textContent).toContain('Error loading books. Please try again later.');
  });

  it('opens Add New Book and Edit Book forms', async () => {
    const { user } = setup();
    await user.click(screen.getByRole('button', { name: 'Add Book' }));
    expect(screen.getByRole('dialog', { name: 'Add New Book' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await user.click(await screen.findByRole('button', { name: 'Edit Gaza Nights' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit Book' });
    expect((within(dialog).getByLabelText('Title') as HTMLInputElement).value).toBe('Gaza Nights');
  });
});
