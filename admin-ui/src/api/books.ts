import type { Book, BookInput } from '@portfolio/contract/types';
import { api } from './client';
import { contentApi } from './content';

const path = '/api/books';

export const booksApi = {
  ...contentApi<Book, BookInput>(path),
  /** Unlike the other lists, the server leaves deleted books out unless asked. */
  list: (includeDeleted = false) => api.get<Book[]>(path, includeDeleted ? { includeDeleted: true } : undefined),
};
