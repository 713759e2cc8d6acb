import { DEFAULT_LANG, LANGUAGES } from '@portfolio/contract/languages';
import { imagePath } from '@portfolio/contract/rules';
import type { Lang } from '@portfolio/contract/translations';

import { hasText, inLanguage, type Site } from '../config/site';
import type { Artwork, Book, News, Play } from './api';
import { summary } from './content';
import { langPath, plainText } from './lang';

/** A page's own address in the page's language (/ar/… on the Arabic site). */
const pageUrl = (path: string, site: Site, lang: Lang) => new URL(langPath(lang, path), site.url).toString();

const abs = (path: string | null | undefined, base: URL) => {
  const p = imagePath(path);
  return p ? new URL(p, base).toString() : undefined;
};

export const personLd = (site: Site, lang: Lang = 'en') => ({
  '@context': 'https://schema.org',
  '@type': 'Person',
  name: site.author[lang],
  alternateName: site.author[LANGUAGES.find((other) => other !== lang)!],
  jobTitle: 'Writer and visual artist',
  homeLocation: hasText(site.location) ? { '@type': 'Place', name: inLanguage(site.location, DEFAULT_LANG)!.text } : undefined,
  image: abs(site.portrait, site.url),
  url: pageUrl('/', site, lang),
  email: `mailto:${site.email}`,
  sameAs: site.social.map((link) => link.url),
});

/** The author, as the works' structured data name her. */
export const authorLd = (site: Site, lang: Lang = 'en') => ({ '@type': 'Person', name: site.author[lang] });

/* The works in the page's language (`lang`): each field's version for that language, or the item's own text. */
export const bookLd = (book: Book, site: Site, lang: Lang = 'en') => ({
  '@context': 'https://schema.org',
  '@type': 'Book',
  name: plainText('books', book, 'title', lang),
  author: authorLd(site, lang),
  description: summary(plainText('books', book, 'description', lang), 300),
  isbn: book.isbn ?? undefined,
  numberOfPages: book.pages ?? undefined,
  bookFormat: 'https://schema.org/Paperback',
  inLanguage: book.language,
  genre: plainText('books', book, 'genre', lang) || undefined,
  datePublished: String(book.year),
  publisher: { '@type': 'Organization', name: plainText('books', book, 'publisher', lang) },
  image: abs(book.coverImage, site.url),
  award: book.awards.length ? book.awards : undefined,
  url: pageUrl(`/books/${book.id}`, site, lang),
});

export const artworkLd = (art: Artwork, site: Site, lang: Lang = 'en') => ({
  '@context': 'https://schema.org',
  '@type': 'VisualArtwork',
  name: plainText('artworks', art, 'title', lang),
  creator: authorLd(site, lang),
  artMedium: plainText('artworks', art, 'medium', lang),
  dateCreated: String(art.year),
  description: plainText('artworks', art, 'description', lang) || undefined,
  image: abs(art.image, site.url),
});

export const playLd = (play: Play, site: Site, lang: Lang = 'en') => ({
  '@context': 'https://schema.org',
  '@type': 'CreativeWork',
  additionalType: 'https://schema.org/Play',
  name: plainText('plays', play, 'title', lang),
  alternateName: play.arabicTitle ?? undefined,
  author: authorLd(site, lang),
  genre: plainText('plays', play, 'genre', lang) || undefined,
  dateCreated: play.year ? String(play.year) : undefined,
  description: summary(plainText('plays', play, 'description', lang), 300) || undefined,
  image: abs(play.image, site.url),
  url: pageUrl(`/plays/${play.id}`, site, lang),
});

export const newsLd = (item: News, site: Site, lang: Lang = 'en') => ({
  '@context': 'https://schema.org',
  '@type': 'NewsArticle',
  headline: plainText('news', item, 'title', lang),
  description: summary(plainText('news', item, 'excerpt', lang) || plainText('news', item, 'content', lang), 300),
  datePublished: item.publishedDate,
  dateModified: item.updatedAt,
  author: authorLd(site, lang),
  image: abs(item.imageUrl, site.url),
  url: pageUrl(`/news/${item.id}`, site, lang),
});
