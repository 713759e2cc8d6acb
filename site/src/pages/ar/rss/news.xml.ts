import rss from '@astrojs/rss';

import { loadSite } from '../../../config/site';
import { api } from '../../../lib/api';
import { newsExcerpt } from '../../../lib/content';
import { plainText } from '../../../lib/lang';

/** The Arabic news feed: each item's Arabic version (or its own text when it has none), linking to /ar/ pages. */
export async function GET() {
  const author = await loadSite();
  const news = await api.news();
  return rss({
    title: `${author.author.ar} — آخر الأخبار`,
    description: 'معارض وإصدارات وجوائز.',
    site: author.url.toString(),
    customData: '<language>ar</language>',
    items: news.map((n) => ({
      title: plainText('news', n, 'title', 'ar'),
      description: newsExcerpt(plainText('news', n, 'excerpt', 'ar'), plainText('news', n, 'content', 'ar')),
      link: `/ar/news/${n.id}`,
      pubDate: new Date(n.publishedDate),
      categories: [n.category],
    })),
  });
}
