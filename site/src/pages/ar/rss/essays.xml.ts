import { essaysFeed } from '../../../lib/feeds';

export const GET = () => essaysFeed('ar');
