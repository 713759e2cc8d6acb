/** A book's review entry: stored as a JSON string {"title","url"} or a bare URL (specification, section 2). */
export interface Review {
  title: string;
  url: string;
}

export function parseReview(entry: string): Review {
  try {
    const parsed = JSON.parse(entry) as unknown;
    if (parsed && typeof parsed === 'object') {
      const { title, url } = parsed as Partial<Record<'title' | 'url', unknown>>;
      return { title: typeof title === 'string' ? title : '', url: typeof url === 'string' ? url : '' };
    }
  } catch {
    // Not JSON: a bare URL.
  }
  return { title: '', url: entry };
}

/** Drops empty cards; a review without a title is kept as a bare URL. */
export function serializeReviews(reviews: Review[]): string[] {
  return reviews
    .map((review) => ({ title: review.title.trim(), url: review.url.trim() }))
    .filter((review) => review.title || review.url)
    .map((review) => (review.title ? JSON.stringify(review) : review.url));
}
