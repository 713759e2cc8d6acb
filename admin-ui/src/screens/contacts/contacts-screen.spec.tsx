import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { apiError, mockApi, signIn } from '../../test/api-mock';
import { contact } from '../../test/fixtures';
import { renderWithProviders } from '../../test/render';
import { ContactsScreen } from './contacts-screen';

function setup() {
  let read = false;
  let deleted = false;
  const api = mockApi({
    'GET /api/contacts': ({ search }) =>
      search.get('includeDeleted') === 'true'
        ? [contact(7, 'About the book', { read, isDeleted: deleted }), contact(8, 'Old message', { isDeleted: true })]
        : deleted
          ? []
          : [contact(7, 'About the book', { read })],
    'PATCH /api/contacts/7/read': () => {
      read = true;
      return contact(7, 'About the book', { read: true });
    },
    'DELETE /api/contacts/7': () => {
      deleted = true;
      return null;
    },
  });
  signIn(api);
  return { api, ...renderWithProviders(<ContactsScreen />) };
}

describe('Manage Contacts', () => {
  it("reads a message and marks it read: 'Contact marked as read'", async () => {
    const { api, user } = setup();
    await user.click(await screen.findByRole('button', { name: 'View About the book' }));
    const dialog = screen.getByRole('dialog', { name: 'About the book' });
    expect(within(dialog).getByText(/I loved the book/)).toBeTruthy();
    expect(within(dialog).getByText('layla@example.com')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Mark as Read' }));
    expect(await screen.findByText('Contact marked as read')).toBeTruthy();
    expect(api.callsTo('PATCH', '/api/contacts/7/read')).toHaveLength(1);
    await waitFor(() => expect(within(dialog).queryByRole('button', { name: 'Mark as Read' })).toBeNull());
    expect(screen.getByRole('row', { name: /About the book/ }).textContent).toContain('Read');
  });

  it("deletes a message: 'Contact deleted successfully', then 'No contacts found'", async () => {
    const { api, user } = setup();
    await user.click(await screen.findByRole('button', { name: 'Delete About the book' }));
    expect(await screen.findByText('Contact deleted successfully')).toBeTruthy();
    expect(api.callsTo('DELETE', '/api/contacts/7')).toHaveLength(1);
    expect(await screen.findByText('No contacts found')).toBeTruthy();
  });

  it('Show Deleted asks the server with includeDeleted and lists deleted messages without actions that change them', async () => {
    const { api, user } = setup();
    await screen.findByRole('button', { name: 'View About the book' });
    await user.click(screen.getByRole('switch', { name: 'Show Deleted' }));
    expect(await screen.findByRole('button', { name: 'View Old message' })).toBeTruthy();
    expect(api.callsTo('GET', '/api/contacts').at(-1)!.search.get('includeDeleted')).toBe('true');
    expect(screen.queryByRole('button', { name: 'View About the book' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete Old message' })).toBeNull();
  });

  it('says when a delete fails', async () => {
    const { api, user } = setup();
    api.routes['DELETE /api/contacts/7'] = apiError(404, 'Contact not found');
    await user.click(await screen.findByRole('button', { name: 'Delete About the book' }));
    expect((await screen.findByRole('alert')).textContent).toContain('404: Contact not found');
  });
});
