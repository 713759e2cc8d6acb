import type { AdminUser } from '@portfolio/contract/types';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { adminUser, apiError, mockApi, signIn } from '../../test/api-mock';
import { renderWithProviders } from '../../test/render';
import { UsersScreen } from './users-screen';

function setup(users: AdminUser[]) {
  const api = mockApi({ 'GET /api/admin/users': users });
  signIn(api, adminUser({ id: 2, username: 'rana', name: 'Rana', isSuperadmin: false }));
  return { api, ...renderWithProviders(<UsersScreen />) };
}

const editor = adminUser({ id: 3, username: 'samir', name: 'Samir', email: 'samir@example.com', isSuperadmin: false });

describe('Manage Users', () => {
  it('hides the superadmin and offers no deactivation of oneself', async () => {
    setup([
      adminUser({ id: 1, username: 'admin', name: 'Main' }),
      adminUser({ id: 2, username: 'rana', name: 'Rana', isSuperadmin: false }),
      editor,
    ]);
    expect(await screen.findByRole('rowheader', { name: 'Samir' })).toBeTruthy();
    expect(screen.queryByRole('rowheader', { name: 'Main' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Deactivate samir' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Deactivate rana' })).toBeNull();
  });

  it("deactivates: PATCH {isActive: false}, 'User status updated successfully'", async () => {
    const { api, user } = setup([editor]);
    api.routes['PATCH /api/admin/users/3'] = { ...editor, isActive: false };
    await user.click(await screen.findByRole('button', { name: 'Deactivate samir' }));
    expect(await screen.findByText('User status updated successfully')).toBeTruthy();
    expect(api.callsTo('PATCH', '/api/admin/users/3')[0].body).toEqual({ isActive: false });
  });

  it("'Failed to update user status'", async () => {
    const { api, user } = setup([{ ...editor, isActive: false }]);
    api.routes['PATCH /api/admin/users/3'] = apiError(500, 'x');
    await user.click(await screen.findByRole('button', { name: 'Activate samir' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Failed to update user status');
  });

  it("adds a user after validation: 'User added successfully'; a taken name goes on its field", async () => {
    const { api, user } = setup([]);
    expect(await screen.findByText('No users found')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Add User' }));
    const dialog = screen.getByRole('dialog', { name: 'Add New User' });
    await user.click(dialog.querySelector('button[type="submit"]')!);
    expect(screen.getByText('Username is required')).toBeTruthy();
    expect(screen.getByText('Email is required')).toBeTruthy();
    expect(screen.getByText('Name is required')).toBeTruthy();
    expect(screen.getByText('Password must be at least 6 characters')).toBeTruthy();

    await user.type(screen.getByLabelText('Username'), 'samir');
    await user.type(screen.getByLabelText('Email'), 'samir@example.com');
    await user.type(screen.getByLabelText('Name'), 'Samir');
    await user.type(screen.getByLabelText('Password'), '12345');
    expect(screen.getByText('Password must be at least 6 characters')).toBeTruthy();
    await user.type(screen.getByLabelText('Password'), '6');

    api.routes['POST /api/admin/users'] = apiError(409, 'This username is already taken', { username: 'This username is already taken' });
    await user.click(dialog.querySelector('button[type="submit"]')!);
    expect(await screen.findByText('This username is already taken', { selector: '.ao-field-error' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toContain('Failed to add user');

    api.routes['POST /api/admin/users'] = editor;
    api.routes['GET /api/admin/users'] = [editor];
    await user.click(dialog.querySelector('button[type="submit"]')!);
    expect(await screen.findByText('User added successfully')).toBeTruthy();
    expect(api.callsTo('POST', '/api/admin/users').at(-1)!.body).toEqual({
      username: 'samir',
      email: 'samir@example.com',
      name: 'Samir',
      password: '123456',
    });
    await waitFor(() => expect(screen.getByRole('rowheader', { name: 'Samir' })).toBeTruthy());
  });
});

describe('Manage Users: two-factor sign-in', () => {
  it('shows who has it and lets an admin reset it for another, after a confirmation', async () => {
    const withTwoFactor = { ...editor, twoFactorEnabled: true };
    const { api, user } = setup([
      withTwoFactor,
      { ...adminUser({ id: 4, username: 'huda', name: 'Huda', isSuperadmin: false }), twoFactorEnabled: false },
    ]);
    expect(await screen.findByRole('rowheader', { name: 'Samir' })).toBeTruthy();
    expect(screen.getAllByText('On').length).toBe(1);
    expect(screen.queryByRole('button', { name: 'Reset two-factor huda' })).toBeNull();
    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValueOnce(true);
    api.routes['DELETE /api/admin/users/3/two-factor'] = null;
    await user.click(screen.getByRole('button', { name: 'Reset two-factor samir' }));
    expect(api.callsTo('DELETE', '/api/admin/users/3/two-factor')).toHaveLength(0);
    api.routes['GET /api/admin/users'] = [{ ...editor, twoFactorEnabled: false }];
    await user.click(screen.getByRole('button', { name: 'Reset two-factor samir' }));
    expect(confirm).toHaveBeenLastCalledWith(
      'Turn off two-factor sign-in for Samir? They will sign in with their password alone until they set it up again.',
    );
    expect(await screen.findByText('Two-factor sign-in turned off for Samir')).toBeTruthy();
    expect(api.callsTo('DELETE', '/api/admin/users/3/two-factor')).toHaveLength(1);
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Reset two-factor samir' })).toBeNull());
    confirm.mockRestore();
  });
});
