import { PASSWORD_MIN_LENGTH } from '@portfolio/contract/rules';

import { compact, isBlank } from '../../lib/validation';

/** Specification, section 5: the reset form's rules. */
export function validateResetPassword(values: { token: string; password: string; confirmPassword: string }) {
  return compact({
    token: isBlank(values.token) ? 'validation.tokenRequired' : undefined,
    password: values.password.length < PASSWORD_MIN_LENGTH ? 'validation.passwordMin' : undefined,
    confirmPassword:
      values.confirmPassword === ''
        ? 'validation.confirmRequired'
        : values.confirmPassword !== values.password
          ? 'validation.mismatch'
          : undefined,
  });
}

/** Specification, section 5: the password change form's rules. */
export function validateChangePassword(values: { currentPassword: string; newPassword: string; confirmPassword: string }) {
  return compact({
    currentPassword: values.currentPassword === '' ? 'validation.currentRequired' : undefined,
    newPassword: values.newPassword.length < PASSWORD_MIN_LENGTH ? 'validation.newPasswordMin' : undefined,
    confirmPassword:
      values.confirmPassword === ''
        ? 'validation.confirmRequired'
        : values.confirmPassword !== values.newPassword
          ? 'validation.mismatch'
          : undefined,
  });
}
