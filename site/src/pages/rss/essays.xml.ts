import rss from '@astrojs/rss';

import { loadSite } from '../../config/site';
import { api } from '../../lib/api';
import { plainText } from '../../lib/lang';

/** The essays feed: each essay's English version (or its own text when it has none). */
export async function GET() {
  const author = await loadSite();
  const essays = await api.essays();
  return rss({
    title: `${author.author.en} — Essays & Commentary`,
    description: 'Essays and commentary on literature, art and life in Gaza.',
    site: author.url.toString(),
    items: essays.map((e) => ({
      title: plainText('essays', e, 'title', 'en'),
      description: plainText('essays', e, 'excerpt', 'en'),
      link: `/essays/${e.id}`,
      pubDate: new Date(e.publishedDate ?? e.createdAt),
    })),
  });
}
