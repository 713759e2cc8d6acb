import type { Play, PlayInput } from '@portfolio/contract/types';

import { api } from './client';
import { contentApi, contentPath } from './content';

const path = contentPath('plays');

export const playsApi = {
  ...contentApi<Play, PlayInput>('plays'),
  /** Plays are removed for good. */
  remove: (id: number) => api.delete(`${path}/${id}`),
};
