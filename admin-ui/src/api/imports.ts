import type { ImportJob, ImportMapping } from '@portfolio/contract/imports';

import { api } from './client';

/** Imports from another blog (issue 26): upload an export, read the dry run, choose what is news, apply. */
export const importsApi = {
  /** Newest first: an import still applying can be opened again. */
  list: () => api.get<ImportJob[]>('/api/imports'),
  get: (id: number) => api.get<ImportJob>(`/api/imports/${id}`),
  /** The export file (WordPress WXR, Ghost JSON, Substack or Markdown ZIP) → the dry run with the default mapping. */
  upload: (file: File) => {
    const form = new FormData();
    form.append('file', file);
    return api.upload<ImportJob>('/api/imports', form);
  },
  /** The report comes back recomputed. */
  setMapping: (id: number, mapping: ImportMapping) => api.put<ImportJob>(`/api/imports/${id}/mapping`, mapping),
  apply: (id: number) => api.post<ImportJob>(`/api/imports/${id}/apply`),
  remove: (id: number) => api.delete(`/api/imports/${id}`),
};
