import type { AdminUser, LoginResponse, NoticeBody } from '@portfolio/contract/types';

import { api } from './client';

export interface ChangePasswordInput {
  currentPassword: string;
  newPassword: string;
  confirmPassword: string;
}

export interface ResetPasswordInput {
  token: string;
  password: string;
  confirmPassword: string;
}

export const authApi = {
  me: () => api.get<AdminUser>('/api/admin/me'),
  login: (username: string, password: string) => api.post<LoginResponse>('/api/admin/login', { username, password }),
  logout: () => api.post<void>('/api/admin/logout'),
  changePassword: (input: ChangePasswordInput) => api.post<NoticeBody>('/api/admin/password', input),
  forgotPassword: (email: string) => api.post<NoticeBody>('/api/admin/forgot-password', { email }),
  resetPassword: (input: ResetPasswordInput) => api.post<NoticeBody>('/api/admin/reset-password', input),
};
