import type { SiteSettings, SiteSettingsInput } from '@portfolio/contract/types';

import { api } from './client';

/** The site settings (the author's details): GET and PATCH /api/admin/settings. */
export const settingsApi = {
  get: () => api.get<SiteSettings>('/api/admin/settings'),
  save: (input: SiteSettingsInput) => api.patch<SiteSettings>('/api/admin/settings', input),
};
