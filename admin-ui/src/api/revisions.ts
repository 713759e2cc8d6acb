import type { ContentKind, RemovedItem, Revision, RevisionList, RevisionRestoreResponse } from '@portfolio/contract/types';

import { api } from './client';

const base = (kind: ContentKind, id: number) => `/api/admin/revisions/${kind}/${id}`;

/** Saved versions of content items (admins only). */
export const revisionsApi = {
  /** Newest first. */
  list: (kind: ContentKind, id: number, page: { limit?: number; offset?: number } = {}) => api.get<RevisionList>(base(kind, id), page),
  get: (kind: ContentKind, id: number, revision: number) => api.get<Revision>(`${base(kind, id)}/${revision}`),
  /** A new save of that version (published like any change); brings a removed play back. */
  restore: (kind: ContentKind, id: number, revision: number) => api.post<RevisionRestoreResponse>(`${base(kind, id)}/${revision}/restore`),
  /** Items removed for good whose history is kept (plays). */
  removed: (kind: ContentKind) => api.get<RemovedItem[]>(`/api/admin/revisions/${kind}/removed`),
};
