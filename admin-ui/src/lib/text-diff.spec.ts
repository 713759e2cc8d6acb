import { describe, expect, it } from 'vitest';

import { diffText } from './text-diff';

describe('diffText', () => {
  it('marks the changed words of a sentence, keeping the rest', () => {
    expect(diffText('The sea at Gaza is grey', 'The sea at Gaza is blue')).toEqual([
      { type: 'same', text: 'The sea at Gaza is ' },
      { type: 'removed', text: 'grey' },
      { type: 'added', text: 'blue' },
    ]);
  });

  it('compares Arabic word by word too', () => {
    expect(diffText('البحر في غزة رمادي', 'البحر في غزة أزرق')).toEqual([
      { type: 'same', text: 'البحر في غزة ' },
      { type: 'removed', text: 'رمادي' },
      { type: 'added', text: 'أزرق' },
    ]);
  });

  it('keeps unchanged lines whole and shows added and removed lines', () => {
    const parts = diffText('one\ntwo\nthree\n', 'one\nthree\nfour\n');
    expect(parts).toEqual([
      { type: 'same', text: 'one\n' },
      { type: 'removed', text: 'two\n' },
      { type: 'same', text: 'three\n' },
      { type: 'added', text: 'four\n' },
    ]);
  });

  it('gives back both texts whole: the old from kept and removed parts, the new from kept and added', () => {
    const before = 'Para one.\n\nPara two has words.\nEnd';
    const after = 'Para one, edited.\n\nPara two has more words.\nEnd\nExtra';
    const parts = diffText(before, after);
    expect(
      parts
        .filter((p) => p.type !== 'added')
        .map((p) => p.text)
        .join(''),
    ).toBe(before);
    expect(
      parts
        .filter((p) => p.type !== 'removed')
        .map((p) => p.text)
        .join(''),
    ).toBe(after);
  });

  it('shows a long passage rewritten whole as removed and added, without freezing', () => {
    const before = Array.from({ length: 5000 }, (_, i) => `old${i}`).join(' ');
    const after = Array.from({ length: 5000 }, (_, i) => `new${i}`).join(' ');
    expect(diffText(`Title\n${before}\n`, `Title\n${after}\n`)).toEqual([
      { type: 'same', text: 'Title\n' },
      { type: 'removed', text: `${before}\n` },
      { type: 'added', text: `${after}\n` },
    ]);
  });

  it('marks the one edited word of a very long paragraph', () => {
    const paragraph = Array.from({ length: 3000 }, (_, i) => `w${i}`);
    const edited = paragraph.with(1500, 'changed');
    expect(diffText(paragraph.join(' '), edited.join(' '))).toEqual([
      { type: 'same', text: `${paragraph.slice(0, 1500).join(' ')} ` },
      { type: 'removed', text: 'w1500' },
      { type: 'added', text: 'changed' },
      { type: 'same', text: ` ${paragraph.slice(1501).join(' ')}` },
    ]);
  });

  it('handles empty texts', () => {
    expect(diffText('', 'new')).toEqual([{ type: 'added', text: 'new' }]);
    expect(diffText('old', '')).toEqual([{ type: 'removed', text: 'old' }]);
    expect(diffText('', '')).toEqual([]);
  });
});
