import type { Play, PlayInput } from '@portfolio/contract/types';
import { api } from './client';
import { contentApi } from './content';

const path = '/api/plays';

export const playsApi = {
  ...contentApi<Play, PlayInput>(path),
  /** Plays are removed for good. */
  remove: (id: number) => api.delete(`${path}/${id}`),
};
