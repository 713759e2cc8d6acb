import type { APIRoute } from 'astro';
import { api } from '../lib/api';
import { loadSite } from '../config/site';
import { arabicPath } from '../lib/lang';
import { allKept, keptMarkup, laterMarkup } from '../lib/render-context';

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

export const GET: APIRoute = async () => {
  const site = (await loadSite()).url;
  const [books, essays, news, plays] = await Promise.all([api.books(), api.essays(), api.news(), api.plays()]);
  const entries: [string, string?][] = [
    ['/'],
    ['/books'],
    ['/essays'],
    ['/gallery'],
    ['/plays'],
    ['/news'],
    ['/contact'],
    ...books.map((b): [string, string] => [`/books/${b.id}`, b.updatedAt]),
    ...books.filter((b) => b.reviews.length).map((b): [string, string] => [`/book/${b.id}/reviews`, b.updatedAt]),
    ...essays.map((e): [string, string] => [`/essays/${e.id}`, e.updatedAt]),
    ...news.map((n): [string, string] => [`/news/${n.id}`, n.updatedAt]),
    ...plays.map((p): [string, string] => [`/plays/${p.id}`, p.updatedAt]),
  ];
  // Both languages: each page at its address and its /ar/ address, each naming the other (and x-default).
  // Every path starts with / and is plain ASCII: the address is the origin and the path, as new URL(path, site) gives it, without parsing a URL per address (100,000 of them at 20,000 books).
  const origin = escape(new URL(site).origin);
  const url = (path: string) => origin + (/[&<]/.test(path) ? escape(path) : path);
  // Each address's two entries are kept between publishes (keptMarkup, by address and date): a
  // publish of a site of 20,000 books makes the entries of the items that changed and joins the rest.
  const lines = await allKept(
    entries.map(([path, lastmod]) =>
      keptMarkup(`sitemap\0${origin}`, `${path}\0${lastmod ?? ''}`, () => {
        const en = url(path);
        const ar = url(arabicPath(path));
        const links = `<xhtml:link rel="alternate" hreflang="en" href="${en}"/><xhtml:link rel="alternate" hreflang="ar" href="${ar}"/><xhtml:link rel="alternate" hreflang="x-default" href="${en}"/>`;
        const mod = lastmod ? `<lastmod>${lastmod}</lastmod>` : '';
        return `<url><loc>${en}</loc>${mod}${links}</url>\n<url><loc>${ar}</loc>${mod}${links}</url>\n`;
      }),
    ),
  );
  // 100,000 addresses at 20,000 books: the bytes go in after the response (laterMarkup).
  const head = Buffer.from('<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n');
  return new Response(laterMarkup([head, ...lines, Buffer.from('</urlset>\n')]), {
    headers: { 'content-type': 'application/xml; charset=utf-8' },
  });
};
