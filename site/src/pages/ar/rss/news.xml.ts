import { newsFeed } from '../../../lib/feeds';

export const GET = () => newsFeed('ar');
