import type { PreviewRequest, PreviewResponse, ScheduledItem } from '@portfolio/contract/types';

import { api, ApiError } from './client';

export const previewApi = {
  /** The item's pages rendered by the site's templates with the form's values; nothing is saved. */
  render: (request: PreviewRequest) => api.post<PreviewResponse>('/api/admin/preview', request),
};

export const scheduledApi = {
  /** What goes live by itself later, soonest first; null while the API has no such endpoint (404). */
  list: async (): Promise<ScheduledItem[] | null> => {
    try {
      return await api.get<ScheduledItem[]>('/api/admin/scheduled');
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return null;
      throw error;
    }
  },
};
