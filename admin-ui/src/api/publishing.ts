import type { PublishingStatus } from '@portfolio/contract/types';

import { api, ApiError } from './client';

export const publishingApi = {
  /** null while the API has no publishing endpoint yet (404): changes are then only saved. */
  status: async (): Promise<PublishingStatus | null> => {
    try {
      return await api.get<PublishingStatus>('/api/admin/publishing');
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return null;
      throw error;
    }
  },
  publishNow: () => api.post<PublishingStatus | undefined>('/api/admin/publishing'),
};
