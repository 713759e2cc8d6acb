import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { apiError, keyedApiError, mockApi, noticeAnswer, signIn } from '../../test/api-mock';
import { renderWithProviders } from '../../test/render';
import { ChangePasswordModal } from './change-password-modal';
import { ForgotPasswordModal } from './forgot-password-modal';
import { validateChangePassword, validateResetPassword } from './password-rules';
import { ResetPasswordModal } from './reset-password-modal';

describe('password rules (specification, section 5)', () => {
  it('reset password', () => {
    expect(validateResetPassword({ token: '', password: '12345', confirmPassword: '' })).toEqual({
      token: 'validation.tokenRequired',
      password: 'validation.passwordMin',
      confirmPassword: 'validation.confirmRequired',
    });
    expect(validateResetPassword({ token: 't', password: '123456', confirmPassword: '1234567' })).toEqual({
      confirmPassword: 'validation.mismatch',
    });
    expect(validateResetPassword({ token: 't', password: '123456', confirmPassword: '123456' })).toEqual({});
  });

  it('password change', () => {
    expect(validateChangePassword({ currentPassword: '', newPassword: 'abc', confirmPassword: '' })).toEqual({
      currentPassword: 'validation.currentRequired',
      newPassword: 'validation.newPasswordMin',
      confirmPassword: 'validation.confirmRequired',
    });
    expect(validateChangePassword({ currentPassword: 'x', newPassword: 'abcdef', confirmPassword: 'abcdeg' })).toEqual({
      confirmPassword: 'validation.mismatch',
    });
  });
});

describe('Forgot Password', () => {
  it('needs a valid e-mail address, then shows the API answer', async () => {
    const api = mockApi({ 'POST /api/admin/forgot-password': noticeAnswer('notice.resetLinkSent') });
    const { user } = renderWithProviders(<ForgotPasswordModal onClose={vi.fn()} onBack={vi.fn()} />);
    await user.type(screen.getByLabelText('Email'), 'not-an-address');
    await user.click(screen.getByRole('button', { name: 'Send Reset Link' }));
    expect(screen.getByText('Please enter a valid email address')).toBeTruthy();
    expect(api.callsTo('POST', '/api/admin/forgot-password')).toHaveLength(0);
    await user.clear(screen.getByLabelText('Email'));
    await user.type(screen.getByLabelText('Email'), 'rana@example.com{Enter}');
    expect(await screen.findByText('If this address belongs to an admin, a reset link has been sent to it.')).toBeTruthy();
    expect(api.callsTo('POST', '/api/admin/forgot-password')[0].body).toEqual({ email: 'rana@example.com' });
  });
});

describe('Reset Password', () => {
  it('checks the fields, sends the token and reports success', async () => {
    const api = mockApi({ 'POST /api/admin/reset-password': noticeAnswer('notice.passwordReset') });
    const onDone = vi.fn();
    const { user } = renderWithProviders(<ResetPasswordModal token="tok-1" onClose={vi.fn()} onDone={onDone} onRequestNewLink={vi.fn()} />);
    expect(screen.getByRole('dialog', { name: 'Reset Password' })).toBeTruthy();
    await user.type(screen.getByLabelText('New Password'), 'abc');
    await user.click(screen.getByRole('button', { name: 'Reset Password' }));
    expect(screen.getByText('Password must be at least 6 characters')).toBeTruthy();
    expect(screen.getByText('Please confirm your password')).toBeTruthy();
    await user.type(screen.getByLabelText('New Password'), 'def');
    await user.type(screen.getByLabelText('Confirm Password'), 'abcdeg');
    expect(screen.getByText("Passwords don't match")).toBeTruthy();
    await user.clear(screen.getByLabelText('Confirm Password'));
    await user.type(screen.getByLabelText('Confirm Password'), 'abcdef{Enter}');
    await vi.waitFor(() => expect(onDone).toHaveBeenCalledWith({ key: 'notice.passwordReset' }));
    expect(api.callsTo('POST', '/api/admin/reset-password')[0].body).toEqual({
      token: 'tok-1',
      password: 'abcdef',
      confirmPassword: 'abcdef',
    });
  });

  it('without a token says so and offers a new link', async () => {
    mockApi();
    const onRequestNewLink = vi.fn();
    const { user } = renderWithProviders(
      <ResetPasswordModal token="" onClose={vi.fn()} onDone={vi.fn()} onRequestNewLink={onRequestNewLink} />,
    );
    await user.type(screen.getByLabelText('New Password'), 'abcdef');
    await user.type(screen.getByLabelText('Confirm Password'), 'abcdef{Enter}');
    expect(screen.getByRole('alert').textContent).toContain('Reset token is required');
    await user.click(screen.getByRole('button', { name: 'Ask for a new link' }));
    expect(onRequestNewLink).toHaveBeenCalled();
  });

  it('shows an expired link as such', async () => {
    const message = 'This reset link is invalid or has expired. Please ask for a new one.';
    mockApi({ 'POST /api/admin/reset-password': apiError(400, message, { token: message }) });
    const { user } = renderWithProviders(<ResetPasswordModal token="old" onClose={vi.fn()} onDone={vi.fn()} onRequestNewLink={vi.fn()} />);
    await user.type(screen.getByLabelText('New Password'), 'abcdef');
    await user.type(screen.getByLabelText('Confirm Password'), 'abcdef{Enter}');
    expect((await screen.findByRole('alert')).textContent).toContain(message);
  });
});

describe('Change Password', () => {
  it('validates, and puts the API’s “incorrect” on the current password', async () => {
    const api = mockApi({
      'POST /api/admin/password': keyedApiError(400, 'validation.currentIncorrect', { currentPassword: 'validation.currentIncorrect' }),
    });
    signIn(api);
    const { user } = renderWithProviders(<ChangePasswordModal onClose={vi.fn()} />);
    await user.click(screen.getByRole('button', { name: 'Change Password' }));
    expect(screen.getByText('Current password is required')).toBeTruthy();
    expect(screen.getByText('New password must be at least 6 characters')).toBeTruthy();
    expect(screen.getByText('Please confirm your password')).toBeTruthy();
    await user.type(screen.getByLabelText('Current Password'), 'old-pass');
    await user.type(screen.getByLabelText('New Password'), 'new-pass');
    await user.type(screen.getByLabelText('Confirm New Password'), 'new-pass{Enter}');
    expect(await screen.findByText('Current password is incorrect', { selector: '.ao-field-error' })).toBeTruthy();
    expect(await screen.findByText('Failed to change password')).toBeTruthy();
  });

  it("toasts 'Password changed successfully' and closes", async () => {
    const api = mockApi({ 'POST /api/admin/password': { message: 'Password changed successfully' } });
    signIn(api);
    const onClose = vi.fn();
    const { user } = renderWithProviders(<ChangePasswordModal onClose={onClose} />);
    await user.type(screen.getByLabelText('Current Password'), 'old-pass');
    await user.type(screen.getByLabelText('New Password'), 'new-pass');
    await user.type(screen.getByLabelText('Confirm New Password'), 'new-pass{Enter}');
    expect(await screen.findByText('Password changed successfully')).toBeTruthy();
    expect(onClose).toHaveBeenCalled();
    expect(api.callsTo('POST', '/api/admin/password')[0].body).toEqual({
      currentPassword: 'old-pass',
      newPassword: 'new-pass',
      confirmPassword: 'new-pass',
    });
  });
});
