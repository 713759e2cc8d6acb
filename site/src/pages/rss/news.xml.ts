import rss from '@astrojs/rss';
import { loadSite } from '../../config/site';
import { api } from '../../lib/api';
import { newsExcerpt } from '../../lib/content';

export async function GET() {
  const author = await loadSite();
  const news = await api.news();
  return rss({
    title: `${author.author.en} — Latest News`,
    description: 'Exhibitions, publications and awards.',
    site: author.url.toString(),
    items: news.map((n) => ({
      title: n.title,
      description: newsExcerpt(n.excerpt, n.content),
      link: `/news/${n.id}`,
      pubDate: new Date(n.publishedDate),
      categories: [n.category],
    })),
  });
}
