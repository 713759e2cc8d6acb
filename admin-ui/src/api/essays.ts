import type { Essay, EssayInput } from '@portfolio/admin-api/contract';
import { contentApi } from './content';

export const essaysApi = contentApi<Essay, EssayInput>('/api/essays');
