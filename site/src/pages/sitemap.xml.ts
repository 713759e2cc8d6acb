import type { APIRoute } from 'astro';
import { api } from '../lib/api';

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

export const GET: APIRoute = async ({ site }) => {
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
  const urls = entries
    .map(([path, lastmod]) => `<url><loc>${escape(new URL(path, site).toString())}</loc>${lastmod ? `<lastmod>${lastmod}</lastmod>` : ''}</url>`)
    .join('\n');
  return new Response(`<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`, {
    headers: { 'content-type': 'application/xml; charset=utf-8' },
  });
};
