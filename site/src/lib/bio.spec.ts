import { describe, expect, it } from 'vitest';

import { firstSentences } from './bio';

describe('firstSentences', () => {
  it('takes whole sentences of the first paragraph up to the limit', () => {
    expect(firstSentences('Born in Gaza. She writes. She paints.\n\nSecond paragraph.', 30)).toBe('Born in Gaza. She writes.');
    expect(firstSentences('وُلدت في غزة. تكتب وترسم؟ نعم!', 100)).toBe('وُلدت في غزة. تكتب وترسم؟ نعم!');
  });

  it("leaves out the placeholder's bracketed note, and shortens a first sentence longer than the limit", () => {
    expect(firstSentences('A writer from Gaza. (Placeholder biography: the author replaces this text.)')).toBe('A writer from Gaza.');
    expect(firstSentences('one two three four five six', 12)).toBe('one two…');
    expect(firstSentences('')).toBe('');
  });
});
