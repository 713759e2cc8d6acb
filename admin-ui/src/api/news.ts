import type { News, NewsInput } from '@portfolio/admin-api/contract';
import { contentApi } from './content';

export const newsApi = contentApi<News, NewsInput>('/api/news');
