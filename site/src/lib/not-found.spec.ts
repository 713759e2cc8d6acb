import { describe, expect, it } from 'vitest';

import { ITEM_SEGMENTS, PREFIX_PATTERN } from './not-found';

describe('the not-found script’s address patterns', () => {
  it('are made from the kinds’ item pages and the languages’ prefixes', () => {
    expect(ITEM_SEGMENTS).toBe('books?|essays|news|plays');
    expect(PREFIX_PATTERN).toBe('\\/ar');
    const item = new RegExp(`^\\/(${ITEM_SEGMENTS})\\/(\\d+)(\\/reviews)?$`);
    const section = (path: string) => item.exec(path.replace(new RegExp(`^${PREFIX_PATTERN}(?=\\/)`), ''))?.[1];
    const paths = ['/books/3', '/ar/book/3/reviews', '/essays/1', '/ar/news/2', '/plays/4', '/gallery/1'];
    expect(paths.map(section)).toEqual(['books', 'book', 'essays', 'news', 'plays', undefined]);
  });
});
