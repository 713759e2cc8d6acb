import rss from '@astrojs/rss';
import { loadSite } from '../../config/site';
import { api } from '../../lib/api';

export async function GET() {
  const author = await loadSite();
  const essays = await api.essays();
  return rss({
    title: `${author.author.en} — Essays & Commentary`,
    description: 'Essays and commentary on literature, art and life in Gaza.',
    site: author.url.toString(),
    items: essays.map((e) => ({
      title: e.title,
      description: e.excerpt,
      link: `/essays/${e.id}`,
      pubDate: new Date(e.publishedDate ?? e.createdAt),
    })),
  });
}
