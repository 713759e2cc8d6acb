import type { ContentKind } from '@portfolio/contract/types';

import { api } from './client';

/** Where a kind of content lives in the API: /api/books, /api/artworks (the Gallery tab), ... */
export const contentPath = (kind: ContentKind) => `/api/${kind}`;

/** The calls shared by the content types: list, create, edit, and the soft-delete switch. */
export function contentApi<T, Input>(kind: ContentKind) {
  const path = contentPath(kind);
  return {
    list: () => api.get<T[]>(path),
    create: (input: Input) => api.post<T>(path, input),
    update: (id: number, input: Partial<Input>) => api.patch<T>(`${path}/${id}`, input),
    /** `{isDeleted}` alone: true moves to trash, false restores. */
    setDeleted: (id: number, isDeleted: boolean) => api.patch<T>(`${path}/${id}`, { isDeleted }),
  };
}
