import { describe, expect, it } from 'vitest';

import { reviewCards } from './reviews';

describe('reviews page cards', () => {
  it("shows an entry's own title as written, even when it is a number", () => {
    const cards = reviewCards([
      JSON.stringify({ title: '1984', url: 'https://example.com/orwell' }),
      JSON.stringify({ title: '  2  ', url: 'https://example.com/two' }),
    ]);
    expect(cards.map((c) => c.heading)).toEqual(['1984', '2']);
  });

  it('numbers the entries without a title by their place in the list, in each language', () => {
    const cards = reviewCards([
      JSON.stringify({ title: 'The Guardian', url: 'https://drive.google.com/file/d/abc/view' }),
      'https://example.com/press/interview.PDF',
      JSON.stringify({ title: '   ', url: 'https://example.com/review' }),
      JSON.stringify({ title: 'مراجعة الجزيرة', url: '/uploads/general/press.pdf' }),
    ]);
    expect(cards).toEqual([
      { heading: 'The Guardian', url: 'https://drive.google.com/file/d/abc/view', kind: 'drive' },
      { heading: { en: 'Review 2', ar: 'مراجعة 2' }, url: 'https://example.com/press/interview.PDF', kind: 'pdf' },
      { heading: { en: 'Review 3', ar: 'مراجعة 3' }, url: 'https://example.com/review', kind: 'link' },
      { heading: 'مراجعة الجزيرة', url: '/uploads/general/press.pdf', kind: 'pdf' },
    ]);
  });

  it('leaves out entries the page cannot link, keeping the numbers of the others', () => {
    const cards = reviewCards(['{not json', JSON.stringify({ title: 'No link' }), 'javascript:alert(1)', 'https://example.com/a']);
    expect(cards).toEqual([{ heading: { en: 'Review 4', ar: 'مراجعة 4' }, url: 'https://example.com/a', kind: 'link' }]);
  });
});
