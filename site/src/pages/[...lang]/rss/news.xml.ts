import type { APIContext } from 'astro';

import { newsFeed } from '../../../lib/feeds';

export const GET = ({ locals }: APIContext) => newsFeed(locals.lang);
