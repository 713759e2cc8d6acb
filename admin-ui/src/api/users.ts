import type { AdminUser, AdminUserListItem } from '@portfolio/contract/types';

import { api } from './client';

export interface NewAdminUser {
  username: string;
  email: string;
  name: string;
  password: string;
}

export const usersApi = {
  list: () => api.get<AdminUserListItem[]>('/api/admin/users'),
  create: (input: NewAdminUser) => api.post<AdminUser>('/api/admin/users', input),
  setActive: (id: number, isActive: boolean) => api.patch<AdminUser>(`/api/admin/users/${id}`, { isActive }),
};
