import type { MessageKey } from '@portfolio/contract/messages';
import { parseReviewEntry, reviewEntryFields, serializeReviewEntry } from '@portfolio/contract/rules';

/**
 * A book's review as its card in the book form holds it: the two fields as typed. Stored entries are
 * read, written and judged by the contract's rules (specification, section 2), as the site reads them.
 */
export type ReviewFields = ReturnType<typeof reviewEntryFields>;

/** A stored entry as a card's fields; broken JSON is kept as the link, so the author can fix it. */
export const reviewFields = (entry: string): ReviewFields => reviewEntryFields(entry);

const isEmpty = (review: ReviewFields) => review.title.trim() === '' && review.url.trim() === '';

/**
 * Why the site would leave this card's review out (parseReviewEntry gives null): no link, or a link
 * that is neither a web link nor a path on this site. An empty card has no problem: it is dropped.
 */
export function reviewProblem(review: ReviewFields): MessageKey | undefined {
  if (isEmpty(review) || parseReviewEntry(serializeReviewEntry(review))) return undefined;
  return review.url.trim() === '' ? 'validation.reviewLinkRequired' : 'validation.reviewLink';
}

/** The stored entries, empty cards dropped. The form sends them only when no card has a problem. */
export const reviewEntries = (reviews: ReviewFields[]): string[] => reviews.filter((review) => !isEmpty(review)).map(serializeReviewEntry);
