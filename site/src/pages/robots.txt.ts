import type { APIRoute } from 'astro';

import { loadSite } from '../config/site';

export const GET: APIRoute = async () =>
  new Response(`User-agent: *\nAllow: /\nDisallow: /admin-ui/\n\nSitemap: ${new URL('/sitemap.xml', (await loadSite()).url)}\n`, {
    headers: { 'content-type': 'text/plain; charset=utf-8' },
  });
