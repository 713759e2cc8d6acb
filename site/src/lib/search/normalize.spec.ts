import { describe, expect, it } from 'vitest';

import { fold, normalize, queryTerms } from './normalize';

describe('Arabic folding', () => {
  it('drops diacritics (tashkeel, shadda, sukun, tanween, superscript alef)', () => {
    expect(normalize('كَتَبَ الشّاعِرُ عَنْ غَزَّةَ كِتَاباً')).toBe(normalize('كتب الشاعر عن غزة كتابا'));
    expect(normalize('هٰذا')).toBe('هذا');
  });
  it('drops tatweel', () => {
    expect(normalize('طويـــلة')).toBe(normalize('طويلة'));
  });
  it('folds alef forms أ إ آ ٱ to ا', () => {
    expect(normalize('أحمد إلى آمال ٱلبحر')).toBe('احمد الي امال البحر');
  });
  it('folds taa marbuta with haa and alef maqsura with yaa', () => {
    expect(normalize('مكتبة')).toBe(normalize('مكتبه'));
    expect(normalize('على')).toBe(normalize('علي'));
    expect(normalize('مدرسة')).toBe('مدرسه');
  });
  it('folds hamza carriers and Arabic-Indic digits', () => {
    expect(normalize('سؤال مسائل')).toBe('سوال مسايل');
    expect(normalize('عام ٢٠٢٤')).toBe('عام 2024');
  });
  it('folds presentation forms to letters', () => {
    expect(normalize('\uFEFB')).toBe('لا');
  });
});

describe('Latin folding', () => {
  it('lower-cases, drops accents and folds ligatures', () => {
    expect(normalize('Café NAÏVE ﬁne')).toBe('cafe naive fine');
  });
  it('turns punctuation and runs of space into one space, none at the ends', () => {
    expect(normalize('  Hello,   world!  — «غزة»  ')).toBe('hello world غزه');
  });
});

describe('positions back into the original', () => {
  it('maps each folded character to where it came from, across dropped marks', () => {
    const original = 'عن غَزَّةَ اليوم';
    const { text, from } = fold(original);
    const at = text.indexOf('غزه');
    expect(original.slice(from[at], from[at + 2] + 1)).toBe('غَزَّة');
    expect(from).toHaveLength(text.length);
  });
});

describe('the fast fold (whole index, queries)', () => {
  it('gives the same text as the mapped fold, character for character', () => {
    const samples = [
      'كَتَبَ الشّاعِرُ عن غَزَّةَ والمدينةِ القديمة ـــ أحلام إلى آمال ٱلبحر ۀ ی ک ١٢٣ ۴۵',
      'Café NAÏVE ﬁne — ΟΔΟΣ Σίσυφος İstanbul straße ½ ① Ｆｕｌｌ',
      '\uFEFB \uFE8D \uFEEF «quotes» (brackets) e-mail 3.14',
    ];
    // And every character of the Arabic, Latin-1, Latin Extended and Greek blocks, one by one and together.
    let all = '';
    for (const [from, to] of [
      [0x20, 0x2ff],
      [0x370, 0x3ff],
      [0x600, 0x6ff],
      [0xfb50, 0xfdff],
      [0xfe70, 0xfeff],
    ])
      for (let c = from; c <= to; c++) all += String.fromCodePoint(c);
    for (const text of [...samples, all, ...[...all].map((c) => `a${c}b`)])
      expect(normalize(text), JSON.stringify(text)).toBe(fold(text).text);
  });
});

describe('query words', () => {
  it('folds, removes repeats, longest first, one-letter words only when nothing longer', () => {
    expect(queryTerms('the  Sea sea a')).toEqual(['the', 'sea']);
    expect(queryTerms('أ')).toEqual(['ا']);
    expect(queryTerms('  ')).toEqual([]);
  });
});
