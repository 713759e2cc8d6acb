import rss from '@astrojs/rss';

import { loadSite } from '../../config/site';
import { api } from '../../lib/api';
import { newsExcerpt } from '../../lib/content';
import { plainText } from '../../lib/lang';

/** The news feed: each item's English version (or its own text when it has none). */
export async function GET() {
  const author = await loadSite();
  const news = await api.news();
  return rss({
    title: `${author.author.en} — Latest News`,
    description: 'Exhibitions, publications and awards.',
    site: author.url.toString(),
    items: news.map((n) => ({
      title: plainText('news', n, 'title', 'en'),
      description: newsExcerpt(plainText('news', n, 'excerpt', 'en'), plainText('news', n, 'content', 'en')),
      link: `/news/${n.id}`,
      pubDate: new Date(n.publishedDate),
      categories: [n.category],
    })),
  });
}
