import type { APIRoute } from 'astro';
import { api } from '../lib/api';
import { loadSite } from '../config/site';
import { arabicPath } from '../lib/lang';
import { laterMarkup } from '../lib/render-context';

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
  const urls = entries
    .flatMap(([path, lastmod]) => {
      const en = url(path);
      const ar = url(arabicPath(path));
      const links = `<xhtml:link rel="alternate" hreflang="en" href="${en}"/><xhtml:link rel="alternate" hreflang="ar" href="${ar}"/><xhtml:link rel="alternate" hreflang="x-default" href="${en}"/>`;
      const mod = lastmod ? `<lastmod>${lastmod}</lastmod>` : '';
      return [`<url><loc>${en}</loc>${mod}${links}</url>`, `<url><loc>${ar}</loc>${mod}${links}</url>`];
    })
    .join('\n');
  // 100,000 addresses at 20,000 books: the text goes in as bytes after the response (laterMarkup).
  return new Response(laterMarkup(`<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n${urls}\n</urlset>\n`), {
    headers: { 'content-type': 'application/xml; charset=utf-8' },
  });
};
