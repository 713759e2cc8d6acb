import type { BackupStatus } from '@portfolio/contract/types';

import { api, ApiError } from './client';

export const backupsApi = {
  /** null while the API has no backups endpoint (404). */
  status: async (): Promise<BackupStatus | null> => {
    try {
      return await api.get<BackupStatus>('/api/admin/backups');
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return null;
      throw error;
    }
  },
};
