import rss from '@astrojs/rss';

import { loadSite } from '../../../config/site';
import { api } from '../../../lib/api';
import { plainText } from '../../../lib/lang';

/** The Arabic essays feed: each essay's Arabic version (or its own text when it has none), linking to /ar/ pages. */
export async function GET() {
  const author = await loadSite();
  const essays = await api.essays();
  return rss({
    title: `${author.author.ar} — مقالات وتعليقات`,
    description: 'مقالات وتعليقات في الأدب والفن والحياة في غزة.',
    site: author.url.toString(),
    customData: '<language>ar</language>',
    items: essays.map((e) => ({
      title: plainText('essays', e, 'title', 'ar'),
      description: plainText('essays', e, 'excerpt', 'ar'),
      link: `/ar/essays/${e.id}`,
      pubDate: new Date(e.publishedDate ?? e.createdAt),
    })),
  });
}
