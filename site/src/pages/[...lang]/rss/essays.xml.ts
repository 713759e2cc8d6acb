import type { APIContext } from 'astro';

import { essaysFeed } from '../../../lib/feeds';

export const GET = ({ locals }: APIContext) => essaysFeed(locals.lang);
