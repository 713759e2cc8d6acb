import type { News, NewsInput } from '@portfolio/contract/types';

import { contentApi } from './content';

export const newsApi = contentApi<News, NewsInput>('news');
