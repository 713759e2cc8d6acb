import { PASSWORD_MIN_LENGTH } from '@portfolio/contract/rules';
import { compact, isBlank } from '../../lib/validation';

/** Specification, section 5: the reset form's rules. */
export function validateResetPassword(values: { token: string; password: string; confirmPassword: string }) {
  return compact({
    token: isBlank(values.token) ? 'Reset token is required' : undefined,
    password: values.password.length < PASSWORD_MIN_LENGTH ? 'Password must be at least 6 characters' : undefined,
    confirmPassword:
      values.confirmPassword === '' ? 'Please confirm your password' : values.confirmPassword !== values.password ? "Passwords don't match" : undefined,
  });
}

/** Specification, section 5: the password change form's rules. */
export function validateChangePassword(values: { currentPassword: string; newPassword: string; confirmPassword: string }) {
  return compact({
    currentPassword: values.currentPassword === '' ? 'Current password is required' : undefined,
    newPassword: values.newPassword.length < PASSWORD_MIN_LENGTH ? 'New password must be at least 6 characters' : undefined,
    confirmPassword:
      values.confirmPassword === '' ? 'Please confirm your password' : values.confirmPassword !== values.newPassword ? "Passwords don't match" : undefined,
  });
}
