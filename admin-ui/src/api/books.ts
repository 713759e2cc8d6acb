import type { Book, BookInput } from '@portfolio/contract/types';

import { api } from './client';
import { contentApi, contentPath } from './content';

const path = contentPath('books');

export const booksApi = {
  ...contentApi<Book, BookInput>('books'),
  /** Unlike the other lists, the server leaves deleted books out unless asked. */
  list: (includeDeleted = false) => api.get<Book[]>(path, includeDeleted ? { includeDeleted: true } : undefined),
};
