import { site } from '../config/site';
import type { Artwork, Book, News, Play } from './api';
import { imagePath } from '@portfolio/contract/rules';
import { summary } from './content';

const abs = (path: string | null | undefined, base: URL | undefined) => {
  const p = imagePath(path);
  return p && base ? new URL(p, base).toString() : (p ?? undefined);
};

export const personLd = (base: URL | undefined) => ({
  '@context': 'https://schema.org',
  '@type': 'Person',
  name: site.author.en,
  alternateName: site.author.ar,
  jobTitle: 'Writer and visual artist',
  homeLocation: { '@type': 'Place', name: 'Gaza City, Palestine' },
  url: base?.toString(),
  email: `mailto:${site.email}`,
  sameAs: Object.values(site.social),
});

const author = { '@type': 'Person', name: site.author.en };

export const bookLd = (book: Book, base: URL | undefined) => ({
  '@context': 'https://schema.org',
  '@type': 'Book',
  name: book.title,
  author,
  description: summary(book.description, 300),
  isbn: book.isbn ?? undefined,
  numberOfPages: book.pages ?? undefined,
  bookFormat: 'https://schema.org/Paperback',
  inLanguage: book.language,
  genre: book.genre ?? undefined,
  datePublished: String(book.year),
  publisher: { '@type': 'Organization', name: book.publisher },
  image: abs(book.coverImage, base),
  award: book.awards.length ? book.awards : undefined,
  url: base ? new URL(`/books/${book.id}`, base).toString() : undefined,
});

export const artworkLd = (art: Artwork, base: URL | undefined) => ({
  '@context': 'https://schema.org',
  '@type': 'VisualArtwork',
  name: art.title,
  creator: author,
  artMedium: art.medium,
  dateCreated: String(art.year),
  description: art.description ?? undefined,
  image: abs(art.image, base),
});

export const playLd = (play: Play, base: URL | undefined) => ({
  '@context': 'https://schema.org',
  '@type': 'CreativeWork',
  additionalType: 'https://schema.org/Play',
  name: play.title,
  alternateName: play.arabicTitle ?? undefined,
  author,
  genre: play.genre ?? undefined,
  dateCreated: play.year ? String(play.year) : undefined,
  description: summary(play.description, 300) || undefined,
  image: abs(play.image, base),
  url: base ? new URL(`/plays/${play.id}`, base).toString() : undefined,
});

export const newsLd = (item: News, base: URL | undefined) => ({
  '@context': 'https://schema.org',
  '@type': 'NewsArticle',
  headline: item.title,
  description: summary(item.excerpt || item.content, 300),
  datePublished: item.publishedDate,
  dateModified: item.updatedAt,
  author,
  image: abs(item.imageUrl, base),
  url: base ? new URL(`/news/${item.id}`, base).toString() : undefined,
});
