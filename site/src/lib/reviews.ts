/** What a book's reviews page shows for each review entry (specification §2). */
import { parseReviewEntry, type ReviewEntry } from '@portfolio/contract/rules';

import { both, type Lang } from '../i18n';

export interface ReviewCard extends Omit<ReviewEntry, 'title'> {
  /**
   * The entry's own title, shown as written (in its own language, whatever it says: "1984" too), or,
   * for an entry without one, the numbered fallback in each language ('Review 2' / 'مراجعة 2').
   */
  heading: string | Record<Lang, string>;
}

/** The reviews the page can link, in order; an untitled one is numbered by its place among the book's entries. */
export function reviewCards(entries: string[]): ReviewCard[] {
  return entries.flatMap((entry, i) => {
    const review = parseReviewEntry(entry);
    if (!review) return [];
    const { title, ...rest } = review;
    return [{ ...rest, heading: title ?? both('reviews.fallback', { n: i + 1 }) }];
  });
}
