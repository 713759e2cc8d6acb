import { describe, expect, it } from 'vitest';

import {
  contentImage,
  driveDownloadUrl,
  drivePreviewUrl,
  essayParagraphs,
  newsExcerpt,
  newsParagraphs,
  parseScript,
  withoutImageParagraphs,
} from './content';

describe('Google Drive links', () => {
  const view = 'https://drive.google.com/file/d/1AbC-d_E/view?usp=sharing';
  it('View PDF turns /view into /preview', () => {
    expect(drivePreviewUrl(view)).toBe('https://drive.google.com/file/d/1AbC-d_E/preview?usp=sharing');
    expect(drivePreviewUrl('https://drive.google.com/file/d/abc/view')).toBe('https://drive.google.com/file/d/abc/preview');
  });
  it('Download PDF becomes a direct download by file id', () => {
    expect(driveDownloadUrl(view)).toBe('https://drive.google.com/uc?export=download&id=1AbC-d_E');
    expect(driveDownloadUrl('https://drive.google.com/open?id=XYZ123')).toBe('https://drive.google.com/uc?export=download&id=XYZ123');
  });
  it('leaves a link without a file id alone', () => {
    expect(driveDownloadUrl('https://example.com/book.pdf')).toBe('https://example.com/book.pdf');
  });
});

describe('news and essays text', () => {
  it('news excerpt falls back to the first 150 characters of the content', () => {
    const content = 'x'.repeat(200);
    expect(newsExcerpt('', content)).toBe(`${'x'.repeat(150)}…`);
    expect(newsExcerpt(null, 'short')).toBe('short');
    expect(newsExcerpt('Given', content)).toBe('Given');
  });
  it('essays split on blank lines, news on every line break', () => {
    expect(essayParagraphs('One\nstill one\n\nTwo\n  \nThree')).toEqual(['One\nstill one', 'Two', 'Three']);
    expect(newsParagraphs('One\nTwo\n\nThree')).toEqual(['One', 'Two', 'Three']);
  });
});

describe('play script', () => {
  it('makes ACT/SCENE lines headings and Speaker: text lines dialogue', () => {
    expect(parseScript('ACT ONE\nSCENE 2\nA pier at night.\nMother: The ferry will come.\nSee https://example.com')).toEqual([
      { kind: 'heading', text: 'ACT ONE' },
      { kind: 'heading', text: 'SCENE 2' },
      { kind: 'text', text: 'A pier at night.' },
      { kind: 'dialogue', speaker: 'Mother', text: 'The ferry will come.' },
      { kind: 'text', text: 'See https://example.com' },
    ]);
  });
});

describe('images inside essay and news texts', () => {
  it('a paragraph that is exactly ![alt](/uploads/…) is an image', () => {
    expect(contentImage('![Olive trees at dawn](/uploads/essays/olive-1200x800.jpg)')).toEqual({
      src: '/uploads/essays/olive-1200x800.jpg',
      alt: 'Olive trees at dawn',
    });
    expect(contentImage('  ![](/uploads/news/a.png)  ')).toEqual({ src: '/uploads/news/a.png', alt: '' });
  });
  it('only uploads of this site: never another address, a way out of the folder or a paragraph with more in it', () => {
    for (const paragraph of [
      '![x](https://evil.example/a.jpg)',
      '![x](//evil.example/a.jpg)',
      '![x](javascript:alert(1))',
      '![x](/uploads/../secret)',
      '![x](/uploads/./a.jpg)',
      '![x](/api/admin/users)',
      '![x](/uploads/a.jpg "title")',
      '![x](/uploads/a.jpg) and a sentence',
      'Before ![x](/uploads/a.jpg)',
      '![x](/uploads/a.jpg)\n![y](/uploads/b.jpg)',
      '[x](/uploads/a.jpg)',
    ]) {
      expect(contentImage(paragraph), paragraph).toBeNull();
    }
  });
  it('the syntax is left out of excerpts, and kept as its alt text for search', () => {
    const content = '![Olive trees](/uploads/essays/olive.jpg)\nThe orchard in winter.\n  ![](https://example.com/x.png)  \nEnd.';
    expect(withoutImageParagraphs(content)).toBe('\nThe orchard in winter.\n\nEnd.');
    expect(withoutImageParagraphs(content, true)).toBe('Olive trees\nThe orchard in winter.\n\nEnd.');
    expect(withoutImageParagraphs('See ![x](/uploads/a.jpg) inline')).toBe('See ![x](/uploads/a.jpg) inline');
    expect(newsExcerpt(null, '![A photo](/uploads/news/p.jpg)\nThe exhibition opens on Friday.')).toBe('The exhibition opens on Friday.');
  });
});
