import type { APIRoute } from 'astro';

import { loadSiteUrl } from '../config/site';

export const GET: APIRoute = async () =>
  new Response(`User-agent: *\nAllow: /\nDisallow: /admin-ui/\n\nSitemap: ${new URL('/sitemap.xml', await loadSiteUrl())}\n`, {
    headers: { 'content-type': 'text/plain; charset=utf-8' },
  });
