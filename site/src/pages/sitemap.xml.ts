import { categorySlug, CONTENT_KINDS, type KindDefinition, KINDS, SITE_ORDER } from '@portfolio/contract/kinds';
import { DEFAULT_LANG, LANGUAGES } from '@portfolio/contract/languages';
import type { APIRoute } from 'astro';

import { loadSite } from '../config/site';
import { api } from '../lib/api';
import { langPath } from '../lib/lang';
import { allKept, keptMarkup, laterMarkup } from '../lib/render-context';

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

export const GET: APIRoute = async () => {
  const site = (await loadSite()).url;
  // Every list page, then every item's pages kind by kind (only kinds whose items have pages are read).
  const withPages = CONTENT_KINDS.filter((kind) => KINDS[kind].itemPages.length);
  const lists = await Promise.all(withPages.map((kind) => api[kind]()));
  const entries: [string, string?][] = [['/'], ...SITE_ORDER.map((kind): [string] => [KINDS[kind].listPage]), ['/contact']];
  withPages.forEach((kind, i) => {
    for (const page of (KINDS[kind] as KindDefinition).itemPages) {
      for (const item of lists[i])
        if (!page.when || page.when(item as unknown as Record<string, unknown>)) entries.push([page.path(item.id), item.updatedAt]);
    }
    // The archive of each category that has items, in the order of its newest item.
    const category = (KINDS[kind] as KindDefinition).category;
    if (category?.archive) {
      const slugs = new Set(lists[i].map((item) => categorySlug((item as unknown as Record<string, unknown>)[category.field])));
      for (const slug of slugs) if (slug) entries.push([category.archive(slug)]);
    }
  });
  // Every language: each page at its address in each language, each naming the others (and x-default).
  // Every path starts with / and is plain ASCII: the address is the origin and the path, as new URL(path, site) gives it, without parsing a URL per address (100,000 of them at 20,000 books).
  const origin = escape(new URL(site).origin);
  const url = (path: string) => origin + (/[&<]/.test(path) ? escape(path) : path);
  // Each address's two entries are kept between publishes (keptMarkup, by address and date): a
  // publish of a site of 20,000 books makes the entries of the items that changed and joins the rest.
  const lines = await allKept(
    entries.map(([path, lastmod]) =>
      keptMarkup(`sitemap\0${origin}`, `${path}\0${lastmod ?? ''}`, () => {
        const urls = LANGUAGES.map((lang) => url(lang === DEFAULT_LANG ? path : langPath(lang, path)));
        const links =
          LANGUAGES.map((lang, i) => `<xhtml:link rel="alternate" hreflang="${lang}" href="${urls[i]}"/>`).join('') +
          `<xhtml:link rel="alternate" hreflang="x-default" href="${urls[0]}"/>`;
        const mod = lastmod ? `<lastmod>${lastmod}</lastmod>` : '';
        return urls.map((address) => `<url><loc>${address}</loc>${mod}${links}</url>\n`).join('');
      }),
    ),
  );
  // 100,000 addresses at 20,000 books: the bytes go in after the response (laterMarkup).
  const head = Buffer.from(
    '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n',
  );
  return new Response(laterMarkup([head, ...lines, Buffer.from('</urlset>\n')]), {
    headers: { 'content-type': 'application/xml; charset=utf-8' },
  });
};
