import rss from '@astrojs/rss';
import type { APIContext } from 'astro';
import { site as author } from '../../config/site';
import { api } from '../../lib/api';

export async function GET(context: APIContext) {
  const essays = await api.essays();
  return rss({
    title: `${author.author.en} — Essays & Commentary`,
    description: 'Essays and commentary on literature, art and life in Gaza.',
    site: context.site!,
    items: essays.map((e) => ({
      title: e.title,
      description: e.excerpt,
      link: `/essays/${e.id}`,
      pubDate: new Date(e.publishedDate ?? e.createdAt),
    })),
  });
}
