import type { Essay, EssayInput } from '@portfolio/contract/types';

import { contentApi } from './content';

export const essaysApi = contentApi<Essay, EssayInput>('essays');
