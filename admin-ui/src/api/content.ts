import { api } from './client';

/** The calls shared by the content types: list, create, edit, and the soft-delete switch. */
export function contentApi<T, Input>(path: string) {
  return {
    list: () => api.get<T[]>(path),
    create: (input: Input) => api.post<T>(path, input),
    update: (id: number, input: Partial<Input>) => api.patch<T>(`${path}/${id}`, input),
    /** `{isDeleted}` alone: true moves to trash, false restores. */
    setDeleted: (id: number, isDeleted: boolean) => api.patch<T>(`${path}/${id}`, { isDeleted }),
  };
}
