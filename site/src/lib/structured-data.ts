import type { Site } from '../config/site';
import type { Artwork, Book, News, Play } from './api';
import { imagePath } from '@portfolio/contract/rules';
import { summary } from './content';

const abs = (path: string | null | undefined, base: URL) => {
  const p = imagePath(path);
  return p ? new URL(p, base).toString() : undefined;
};

export const personLd = (site: Site) => ({
  '@context': 'https://schema.org',
  '@type': 'Person',
  name: site.author.en,
  alternateName: site.author.ar,
  jobTitle: 'Writer and visual artist',
  homeLocation: site.location.en || site.location.ar ? { '@type': 'Place', name: site.location.en || site.location.ar } : undefined,
  image: abs(site.portrait, site.url),
  url: site.url.toString(),
  email: `mailto:${site.email}`,
  sameAs: site.social.map((link) => link.url),
});

/** The author, as the works' structured data name her. */
export const authorLd = (site: Site) => ({ '@type': 'Person', name: site.author.en });

export const bookLd = (book: Book, site: Site) => ({
  '@context': 'https://schema.org',
  '@type': 'Book',
  name: book.title,
  author: authorLd(site),
  description: summary(book.description, 300),
  isbn: book.isbn ?? undefined,
  numberOfPages: book.pages ?? undefined,
  bookFormat: 'https://schema.org/Paperback',
  inLanguage: book.language,
  genre: book.genre ?? undefined,
  datePublished: String(book.year),
  publisher: { '@type': 'Organization', name: book.publisher },
  image: abs(book.coverImage, site.url),
  award: book.awards.length ? book.awards : undefined,
  url: new URL(`/books/${book.id}`, site.url).toString(),
});

export const artworkLd = (art: Artwork, site: Site) => ({
  '@context': 'https://schema.org',
  '@type': 'VisualArtwork',
  name: art.title,
  creator: authorLd(site),
  artMedium: art.medium,
  dateCreated: String(art.year),
  description: art.description ?? undefined,
  image: abs(art.image, site.url),
});

export const playLd = (play: Play, site: Site) => ({
  '@context': 'https://schema.org',
  '@type': 'CreativeWork',
  additionalType: 'https://schema.org/Play',
  name: play.title,
  alternateName: play.arabicTitle ?? undefined,
  author: authorLd(site),
  genre: play.genre ?? undefined,
  dateCreated: play.year ? String(play.year) : undefined,
  description: summary(play.description, 300) || undefined,
  image: abs(play.image, site.url),
  url: new URL(`/plays/${play.id}`, site.url).toString(),
});

export const newsLd = (item: News, site: Site) => ({
  '@context': 'https://schema.org',
  '@type': 'NewsArticle',
  headline: item.title,
  description: summary(item.excerpt || item.content, 300),
  datePublished: item.publishedDate,
  dateModified: item.updatedAt,
  author: authorLd(site),
  image: abs(item.imageUrl, site.url),
  url: new URL(`/news/${item.id}`, site.url).toString(),
});
