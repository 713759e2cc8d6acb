import type { Contact } from '@portfolio/contract/types';

import { api } from './client';

export const contactsApi = {
  list: (includeDeleted = false) => api.get<Contact[]>(`/api/contacts${includeDeleted ? '?includeDeleted=true' : ''}`),
  markRead: (id: number) => api.patch<Contact>(`/api/contacts/${id}/read`, {}),
  remove: (id: number) => api.delete(`/api/contacts/${id}`),
};
