import { describe, expect, it } from 'vitest';

import { essayReadingMinutes, readingMinutes, readingTimeText, wordCount, WORDS_PER_MINUTE } from './reading-time';

const words = (n: number, word = 'word') => Array.from({ length: n }, () => word).join(' ');

describe('wordCount', () => {
  it('counts the words of plain text in both languages', () => {
    expect(wordCount('One two three.\n\nFour, five!')).toBe(5);
    expect(wordCount('وُلدت في غزة.\n\nتكتب وترسم.')).toBe(5);
    expect(wordCount('Café au lait, 1948 — naïve.')).toBe(5);
  });

  it('does not count punctuation standing alone as words, in either script', () => {
    expect(wordCount('كتبت — «قصيدة» ، ثم نامت …')).toBe(4);
    expect(wordCount('She wrote — “a poem” … then slept * # > -')).toBe(6);
  });

  it('leaves out image lines, image and link addresses, and marks that are no words', () => {
    const text = [
      '# A heading',
      '![A harbour at dawn](/uploads/essays/harbour.jpg)',
      '> quoted *words* and [a link](https://example.com/a/very/long/address) here',
      '- item',
      '* * *',
      'Inline ![alt](/uploads/x.png) picture.',
    ].join('\n');
    // A heading | quoted words and a link here | item | Inline picture.
    expect(wordCount(text)).toBe(2 + 6 + 1 + 2);
  });
});

describe('readingMinutes', () => {
  it('reads English at 200 words a minute and Arabic at 180, one minute at least', () => {
    expect(WORDS_PER_MINUTE).toEqual({ en: 200, ar: 180 });
    expect(readingMinutes('', 'en')).toBe(1);
    expect(readingMinutes(words(50), 'en')).toBe(1);
    expect(readingMinutes(words(1000), 'en')).toBe(5);
    expect(readingMinutes(words(900, 'كلمة'), 'ar')).toBe(5);
    expect(readingMinutes(`![x](/uploads/a.jpg)\n\n${words(400)}`, 'en')).toBe(2);
  });
});

describe('readingTimeText', () => {
  it('writes each of the six Arabic plural forms, with the digits the site writes dates with', () => {
    const digits = new Intl.DateTimeFormat('ar', { year: 'numeric', timeZone: 'UTC' }).format(new Date('2025-06-01'));
    const arabicDigits = digits !== '2025';
    const n = (value: number) => new Intl.NumberFormat('ar').format(value);
    expect(new Intl.PluralRules('ar').resolvedOptions().pluralCategories.sort()).toEqual(['few', 'many', 'one', 'other', 'two', 'zero']);
    expect(readingTimeText(0, 'ar')).toBe(`${n(0)} دقيقة للقراءة`); // zero
    expect(readingTimeText(1, 'ar')).toBe('دقيقة واحدة للقراءة'); // one
    expect(readingTimeText(2, 'ar')).toBe('دقيقتان للقراءة'); // two
    expect(readingTimeText(3, 'ar')).toBe(`${n(3)} دقائق للقراءة`); // few (3–10)
    expect(readingTimeText(10, 'ar')).toBe(`${n(10)} دقائق للقراءة`);
    expect(readingTimeText(11, 'ar')).toBe(`${n(11)} دقيقة للقراءة`); // many (11–99)
    expect(readingTimeText(99, 'ar')).toBe(`${n(99)} دقيقة للقراءة`);
    expect(readingTimeText(100, 'ar')).toBe(`${n(100)} دقيقة للقراءة`); // other (100–102)
    expect(readingTimeText(103, 'ar')).toBe(`${n(103)} دقائق للقراءة`); // few again
    // On this Node (as in Chromium) Intl writes Arabic dates with Western digits, and so does the reading time.
    expect(arabicDigits).toBe(false);
    expect(readingTimeText(11, 'ar')).toBe('11 دقيقة للقراءة');
  });

  it('writes English as "N min read"', () => {
    expect(readingTimeText(1, 'en')).toBe('1 min read');
    expect(readingTimeText(12, 'en')).toBe('12 min read');
    expect(readingTimeText(1200, 'en')).toBe('1,200 min read');
  });
});

describe('essayReadingMinutes', () => {
  it("counts the version a reader is shown, at its language's speed: a reader of Arabic shown the English text reads it at 200", () => {
    const essay = {
      id: 1,
      title: 'T',
      content: words(1000),
      contentLanguage: 'en' as const,
      translations: { ar: { content: words(540, 'كلمة') } },
    };
    expect(essayReadingMinutes(essay, 'en')).toBe(5);
    expect(essayReadingMinutes(essay, 'ar')).toBe(3);
    const untranslated = { id: 2, title: 'T', content: words(1000), contentLanguage: 'en' as const, translations: {} };
    expect(essayReadingMinutes(untranslated, 'ar')).toBe(5);
  });
});
