import type {
  LoginResponse,
  NoticeBody,
  RecoveryCodesResponse,
  TwoFactorRequiredBody,
  TwoFactorSetup,
  TwoFactorStatus,
} from '@portfolio/contract/types';

import { api, ApiError } from './client';

/** A code, or the password, that confirms a change to one's own two-factor sign-in. */
export type TwoFactorProof = { code: string } | { password: string };

export const twoFactorApi = {
  status: () => api.get<TwoFactorStatus>('/api/admin/two-factor'),
  startSetup: () => api.post<TwoFactorSetup>('/api/admin/two-factor/setup'),
  confirm: (code: string) => api.post<RecoveryCodesResponse>('/api/admin/two-factor/confirm', { code }),
  disable: (proof: TwoFactorProof) => api.post<NoticeBody>('/api/admin/two-factor/disable', proof),
  regenerate: (proof: TwoFactorProof) => api.post<RecoveryCodesResponse>('/api/admin/two-factor/recovery-codes', proof),
  /** Another admin's, from the users screen. */
  resetFor: (userId: number) => api.delete(`/api/admin/users/${userId}/two-factor`),
  /** The second step of a sign-in. */
  login: (challenge: string, code: string) => api.post<LoginResponse>('/api/admin/login/totp', { challenge, code }),
};

/** The login's 401 that asks for a code (the password was right): its challenge, else null. */
export function twoFactorChallenge(error: unknown): TwoFactorRequiredBody | null {
  if (!(error instanceof ApiError) || error.status !== 401 || error.body?.messageKey !== 'error.twoFactorRequired') return null;
  const body = error.body as Partial<TwoFactorRequiredBody>;
  return typeof body.challenge === 'string' ? (body as TwoFactorRequiredBody) : null;
}
