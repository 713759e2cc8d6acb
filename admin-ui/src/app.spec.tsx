import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';

import { mountAdminOverlay } from './admin-overlay';
import { App } from './app';
import { adminUser, mockApi, signIn } from './test/api-mock';
import { book } from './test/fixtures';
import { slowDevice } from './test/slow-device';

describe('the overlay', () => {
  it('checks the stored session, then opens Content Management with the books tab', async () => {
    const api = mockApi({ 'GET /api/books': [book(1, 'Gaza Nights')] });
    signIn(api, adminUser({ name: 'Rana' }));
    // The dialog is found as soon as it is in the DOM; focus must already be inside it then, even
    // when React yields before running effects (this failed now and then in full runs).
    slowDevice();
    render(<App onClose={vi.fn()} />);
    expect(screen.getByRole('status').textContent).toBe('Loading...');
    const dialog = await screen.findByRole('dialog', { name: 'Content Management' });
    expect(within(dialog).getByText('Welcome, Rana')).toBeTruthy();
    expect(within(dialog).getByRole('tab', { name: 'Books', selected: true })).toBe(document.activeElement);
    expect(
      within(dialog)
        .getAllByRole('tab')
        .map((tab) => tab.textContent),
    ).toEqual(['Books', 'Essays', 'Gallery', 'Plays', 'News', 'Contacts', 'Subscribers', 'Users', 'Settings', 'Import']);
    expect(await within(dialog).findByRole('rowheader', { name: 'Gaza Nights' })).toBeTruthy();
  });

  it('moves between tabs with the arrow keys', async () => {
    const api = mockApi({ 'GET /api/books': [], 'GET /api/essays': [], 'GET /api/imports': [] });
    signIn(api);
    slowDevice();
    render(<App onClose={vi.fn()} />);
    const user = userEvent.setup();
    await screen.findByRole('dialog', { name: 'Content Management' });
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'Essays', selected: true })).toBe(document.activeElement);
    expect(await screen.findByRole('heading', { name: 'Manage Essays' })).toBeTruthy();
    await user.keyboard('{End}');
    expect(screen.getByRole('tab', { name: 'Import', selected: true })).toBeTruthy();
    expect(await screen.findByRole('heading', { name: 'Import from another blog' })).toBeTruthy();
  });

  it('Esc closes only the innermost dialog; at the top it closes the overlay', async () => {
    const api = mockApi({ 'GET /api/books': [] });
    signIn(api);
    const onClose = vi.fn();
    render(<App onClose={onClose} />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Add Book' }));
    expect(screen.getByRole('dialog', { name: 'Add New Book' })).toBeTruthy();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog', { name: 'Add New Book' })).toBeNull();
    expect(onClose).not.toHaveBeenCalled();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Add Book' }));
    await user.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('Logout returns to Admin Login and forgets the session', async () => {
    const api = mockApi({ 'GET /api/books': [], 'POST /api/admin/logout': null });
    signIn(api);
    render(<App onClose={vi.fn()} />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Logout' }));
    expect(await screen.findByRole('dialog', { name: 'Admin Login' })).toBeTruthy();
    expect(localStorage.getItem('admin_session')).toBeNull();
  });

  it('a 401 while working ends the session: back to the login with a notice', async () => {
    const api = mockApi({ 'GET /api/books': [book(1, 'Gaza Nights')] });
    signIn(api);
    render(<App onClose={vi.fn()} />);
    const user = userEvent.setup();
    api.routes['PATCH /api/books/1'] = new Response(JSON.stringify({ statusCode: 401, message: 'Unauthorized' }), { status: 401 });
    await user.click(await screen.findByRole('button', { name: 'Delete Gaza Nights' }));
    expect(await screen.findByRole('dialog', { name: 'Admin Login' })).toBeTruthy();
    expect(screen.getByText('Your session has ended. Please sign in again.')).toBeTruthy();
  });

  it('opens the reset screen for a reset link, then the login with the confirmation', async () => {
    mockApi({ 'POST /api/admin/reset-password': { message: 'Your password has been reset. You can sign in now.' } });
    render(<App resetToken="tok" onClose={vi.fn()} />);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('New Password'), 'abcdef');
    await user.type(screen.getByLabelText('Confirm Password'), 'abcdef{Enter}');
    expect(await screen.findByRole('dialog', { name: 'Admin Login' })).toBeTruthy();
    expect(screen.getByText('Your password has been reset. You can sign in now.')).toBeTruthy();
  });

  it('speaks Arabic, right to left, when the page does', async () => {
    document.documentElement.lang = 'ar';
    document.documentElement.dir = 'rtl';
    mockApi();
    const { container } = render(<App onClose={vi.fn()} />);
    expect(await screen.findByRole('dialog', { name: 'تسجيل دخول المشرف' })).toBeTruthy();
    expect(container.querySelector('.ao-root')!.getAttribute('dir')).toBe('rtl');
    expect(screen.getByRole('button', { name: 'تسجيل الدخول' })).toBeTruthy();
  });
});

describe('mountAdminOverlay', () => {
  it('renders into a shadow root of the host, and unmounts cleanly', async () => {
    mockApi();
    const host = document.createElement('div');
    document.body.append(host);
    const onClose = vi.fn();
    let unmount = () => {};
    await act(async () => {
      unmount = mountAdminOverlay(host, { onClose });
    });
    const shadow = host.shadowRoot!;
    expect(shadow.querySelector('style')!.textContent).toContain('.ao-root');
    await waitFor(() => expect(shadow.querySelector('[role="dialog"]')?.textContent).toContain('Admin Login'));
    expect(document.documentElement.style.overflow).toBe('hidden');
    act(() => unmount());
    expect(shadow.childNodes).toHaveLength(0);
    expect(document.documentElement.style.overflow).toBe('');
    host.remove();
  });

  it('opens the reset screen when given a reset token', async () => {
    mockApi();
    const host = document.createElement('div');
    document.body.append(host);
    let unmount = () => {};
    await act(async () => {
      unmount = mountAdminOverlay(host, { resetToken: 'abc', onClose: vi.fn() });
    });
    await waitFor(() => expect(host.shadowRoot!.querySelector('[role="dialog"]')?.textContent).toContain('Reset Password'));
    act(() => unmount());
    host.remove();
  });
});
