import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { adminUser, apiError, json, keyedApiError, mockApi } from '../../test/api-mock';
import { renderWithProviders } from '../../test/render';
import { LoginModal } from './login-modal';

function renderLogin() {
  const onClose = vi.fn();
  const onForgotPassword = vi.fn();
  const view = renderWithProviders(<LoginModal onClose={onClose} onForgotPassword={onForgotPassword} />);
  return { ...view, onClose, onForgotPassword };
}

describe('Admin Login', () => {
  it('shows the dialog with username, password and Sign In, username focused', async () => {
    mockApi();
    renderLogin();
    expect(screen.getByRole('dialog', { name: 'Admin Login' })).toBeTruthy();
    expect(screen.getByLabelText('Username')).toBe(document.activeElement);
    expect(screen.getByLabelText('Password').getAttribute('type')).toBe('password');
    expect(screen.getByRole('button', { name: 'Sign In' })).toBeTruthy();
  });

  it('requires username and password', async () => {
    const api = mockApi();
    const { user } = renderLogin();
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(screen.getByText('Username is required')).toBeTruthy();
    expect(screen.getByText('Password is required')).toBeTruthy();
    expect(screen.getByLabelText('Username').getAttribute('aria-invalid')).toBe('true');
    expect(api.callsTo('POST', '/api/admin/login')).toHaveLength(0);
    await user.type(screen.getByLabelText('Username'), 'admin');
    expect(screen.queryByText('Username is required')).toBeNull();
  });

  it('shows and hides the password', async () => {
    mockApi();
    const { user } = renderLogin();
    const password = screen.getByLabelText('Password');
    await user.click(screen.getByRole('button', { name: 'Show password' }));
    expect(password.getAttribute('type')).toBe('text');
    await user.click(screen.getByRole('button', { name: 'Hide password' }));
    expect(password.getAttribute('type')).toBe('password');
  });

  it("says 'Invalid username or password' in a red alert when the login is refused", async () => {
    mockApi({ 'POST /api/admin/login': apiError(401, 'Invalid username or password') });
    const { user } = renderLogin();
    await user.type(screen.getByLabelText('Username'), 'admin');
    await user.type(screen.getByLabelText('Password'), 'wrong-pass');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Invalid username or password');
  });

  it("says 'An error occurred during login' when the call fails", async () => {
    mockApi({ 'POST /api/admin/login': () => Promise.reject(new TypeError('Failed to fetch')) });
    const { user } = renderLogin();
    await user.type(screen.getByLabelText('Username'), 'admin');
    await user.type(screen.getByLabelText('Password'), 'secret1{Enter}');
    expect((await screen.findByRole('alert')).textContent).toBe('An error occurred during login');
  });

  it('adds the wait time when there were too many attempts', async () => {
    mockApi({ 'POST /api/admin/login': apiError(429, 'Too many attempts. Please try again in 15 minutes.') });
    const { user } = renderLogin();
    await user.type(screen.getByLabelText('Username'), 'admin');
    await user.type(screen.getByLabelText('Password'), 'secret1{Enter}');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('An error occurred during login');
    expect(alert.textContent).toContain('Too many attempts. Please try again in 15 minutes.');
  });

  it('signs in: the session id is stored', async () => {
    const api = mockApi({ 'POST /api/admin/login': { user: adminUser(), sessionId: 'sid-1' } });
    const { user } = renderLogin();
    await user.type(screen.getByLabelText('Username'), ' admin ');
    await user.type(screen.getByLabelText('Password'), 'secret1');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    await waitFor(() => expect(localStorage.getItem('admin_session')).toBe('sid-1'));
    expect(api.callsTo('POST', '/api/admin/login')[0].body).toEqual({ username: 'admin', password: 'secret1' });
  });

  it('Esc and the close button call onClose; the forgot link opens its screen', async () => {
    mockApi();
    const { user, onClose, onForgotPassword } = renderLogin();
    await user.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledTimes(1);
    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(onClose).toHaveBeenCalledTimes(2);
    await user.click(screen.getByRole('button', { name: 'Forgot password?' }));
    expect(onForgotPassword).toHaveBeenCalled();
  });

  it('keeps Tab inside the dialog', async () => {
    mockApi();
    const { user } = renderLogin();
    const dialog = screen.getByRole('dialog');
    for (let i = 0; i < 8; i++) {
      await user.tab();
      expect(dialog.contains(document.activeElement)).toBe(true);
    }
    await user.tab({ shift: true });
    expect(dialog.contains(document.activeElement)).toBe(true);
  });
});

describe('Admin Login with two-factor sign-in', () => {
  const challengeAnswer = () =>
    json(401, {
      statusCode: 401,
      message: 'Enter the code from your authenticator app to finish signing in.',
      messageKey: 'error.twoFactorRequired',
      challenge: 'challenge-token-0123456789abcdefghij',
      challengeExpiresAt: '2030-01-01T00:05:00.000Z',
    });

  async function toCodeStep() {
    const api = mockApi({ 'POST /api/admin/login': challengeAnswer() });
    const view = renderLogin();
    await view.user.type(screen.getByLabelText('Username'), 'admin');
    await view.user.type(screen.getByLabelText('Password'), 'secret1{Enter}');
    expect(await screen.findByLabelText('Authentication code')).toBeTruthy();
    return { api, ...view };
  }

  it('asks for the code after the password, then signs in with it', async () => {
    const { api, user } = await toCodeStep();
    expect(screen.getByText('Two-factor sign-in')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(screen.getByText('Enter the 6-digit code from your authenticator app')).toBeTruthy();
    api.routes['POST /api/admin/login/totp'] = { user: adminUser(), sessionId: 'session-after-code' };
    await user.type(screen.getByLabelText('Authentication code'), '123 456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(localStorage.getItem('admin_session')).toBe('session-after-code'));
    expect(api.callsTo('POST', '/api/admin/login/totp')[0].body).toEqual({
      challenge: 'challenge-token-0123456789abcdefghij',
      code: '123 456',
    });
  });

  it('says why a code is refused: used, expired, too many attempts', async () => {
    const { api, user } = await toCodeStep();
    api.routes['POST /api/admin/login/totp'] = keyedApiError(401, 'error.twoFactorCodeUsed', { code: 'error.twoFactorCodeUsed' });
    await user.type(screen.getByLabelText('Authentication code'), '123456{Enter}');
    expect((await screen.findByRole('alert')).textContent).toBe(
      'This code has already been used. Wait for the next code in your authenticator app.',
    );
    api.routes['POST /api/admin/login/totp'] = keyedApiError(429, { key: 'error.tooManyAttempts', params: { minutes: 15 } });
    await user.type(screen.getByLabelText('Authentication code'), '{Enter}');
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('Too many attempts. Please try again in 15 minutes.'));
  });

  it('goes back to the password step when the sign-in expired', async () => {
    const { api, user } = await toCodeStep();
    api.routes['POST /api/admin/login/totp'] = keyedApiError(401, 'error.twoFactorChallengeInvalid');
    await user.type(screen.getByLabelText('Authentication code'), '123456{Enter}');
    expect(await screen.findByText('This sign-in has expired. Please enter your username and password again.')).toBeTruthy();
    expect(screen.getByLabelText('Password')).toBeTruthy();
    expect((screen.getByLabelText('Password') as HTMLInputElement).value).toBe('');
  });
});
