/**
 * The cards of list pages as plain markup functions, kept between publishes (render-context.ts's
 * keptMarkup): /books with thousands of books renders again only the cards of the books that changed.
 */
import { safeUrl } from '@portfolio/contract/rules';
import type { Lang } from '@portfolio/contract/translations';

import type { Book } from './api';
import { summary } from './content';
import { imgHtml } from './image-variants';
import { escapeHtml, fieldHtml, localHref, uiTextHtml } from './lang';
import { allKept, contentKey, keptMarkup } from './render-context';

export interface BookCardOptions {
  /** Description lines shown: 3 on the home grid, 4 on /books. */
  clamp: 3 | 4;
  sizes: string;
  eager?: boolean;
  /** h3 under a section heading (home), h2 directly under the page's h1 (/books). */
  level?: 2 | 3;
}

/** A book's card on `/`, `/books` and their /ar/ pages (`lang`: the page's fixed language, or null). */
export function bookCardHtml(book: Book, options: BookCardOptions, lang: Lang | null): Uint8Array | Promise<Uint8Array> {
  const { clamp, sizes, eager = false, level = 2 } = options;
  return keptMarkup(`book-card\0${lang}\0${clamp}\0${level}\0${eager}\0${sizes}`, contentKey(book), async () => {
    const href = localHref(lang, `/books/${book.id}`);
    const title = fieldHtml('books', book, 'title', lang);
    const cover = await imgHtml({ src: book.coverImage, alt: '', width: 600, height: 900, sizes, eager });
    const purchase = book.purchaseUrl ? safeUrl(book.purchaseUrl) : undefined;
    const purchaseHref = purchase && localHref(lang, purchase);
    const heading = `h${level}`;
    return (
      `<article class="card"><a href="${href}" class="media media-cover" tabindex="-1" aria-hidden="true">${cover}</a>` +
      `<div class="card-body"><${heading} class="card-title"><a href="${href}">${title}</a></${heading}>` +
      `<p class="meta">${fieldHtml('books', book, 'publisher', lang)} · ${escapeHtml(String(book.year ?? ''))}</p>` +
      fieldHtml('books', book, 'description', lang, { as: 'p', class: `clamp-${clamp}`, shorten: (d) => summary(d, 600) }) +
      `<div class="button-row"><a class="button" href="${href}">${uiTextHtml('books.readMore')}<span class="visually-hidden">: ${title}</span></a>` +
      (book.purchaseUrl
        ? `<a class="button secondary"${purchaseHref ? ` href="${escapeHtml(purchaseHref)}"` : ''} target="_blank" rel="noopener">${uiTextHtml('books.purchase')}<span class="visually-hidden">: ${title}</span></a>`
        : '') +
      `</div></div></article>`
    );
  });
}

const LI = Buffer.from('<li>');
const LI_END = Buffer.from('</li>');

/** Cards as the items of a list (`<li>` each), as pieces of UTF-8 for laterMarkup. */
export async function cardList(items: (Uint8Array | Promise<Uint8Array>)[]): Promise<Uint8Array[]> {
  const cards = await allKept(items);
  const parts: Uint8Array[] = new Array(cards.length * 3);
  cards.forEach((card, i) => {
    parts[3 * i] = LI;
    parts[3 * i + 1] = card;
    parts[3 * i + 2] = LI_END;
  });
  return parts;
}
