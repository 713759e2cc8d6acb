import { describe, expect, it } from 'vitest';
import {
  driveDownloadUrl,
  drivePreviewUrl,
  essayParagraphs,
  imagePath,
  newsExcerpt,
  newsParagraphs,
  parseReviews,
  parseScript,
} from './content';

describe('image paths (spec §7)', () => {
  it('leaves /uploads/, /objects/, /public-objects/ and full URLs as they are', () => {
    expect(imagePath('/uploads/books/a.jpg')).toBe('/uploads/books/a.jpg');
    expect(imagePath('/objects/x.png')).toBe('/objects/x.png');
    expect(imagePath('/public-objects/y.png')).toBe('/public-objects/y.png');
    expect(imagePath('https://cdn.example.com/z.png')).toBe('https://cdn.example.com/z.png');
  });
  it('puts a bare name under /uploads/', () => {
    expect(imagePath('cover.jpg')).toBe('/uploads/cover.jpg');
  });
  it('gives nothing for empty values', () => {
    expect(imagePath('')).toBeNull();
    expect(imagePath('   ')).toBeNull();
    expect(imagePath(null)).toBeNull();
  });
});

describe('unsafe links', () => {
  it('never lets javascript:, data: or protocol-relative addresses through', () => {
    for (const bad of ['javascript:alert(1)', ' JavaScript:alert(1)//x.pdf', 'data:text/html,<script>alert(1)</script>', '//evil.example/x.png', 'vbscript:x']) {
      expect(imagePath(bad)).toBeNull();
      expect(parseReviews([bad, JSON.stringify({ title: 't', url: bad })], (n) => `Review ${n}`)).toEqual([]);
    }
  });
});

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

describe('reviews list', () => {
  const n = (i: number) => `Review ${i}`;
  it('reads JSON entries and bare URLs; titles fall back to Review N', () => {
    const reviews = parseReviews(
      [
        JSON.stringify({ title: 'The Guardian', url: 'https://drive.google.com/file/d/abc/view' }),
        'https://example.com/press/interview.PDF',
        JSON.stringify({ title: '', url: 'https://example.com/review' }),
      ],
      n,
    );
    expect(reviews).toEqual([
      { title: 'The Guardian', url: 'https://drive.google.com/file/d/abc/view', kind: 'drive' },
      { title: 'Review 2', url: 'https://example.com/press/interview.PDF', kind: 'pdf' },
      { title: 'Review 3', url: 'https://example.com/review', kind: 'link' },
    ]);
  });
  it('skips broken entries instead of failing the page', () => {
    expect(parseReviews(['{not json', JSON.stringify({ title: 'No link' })], n)).toEqual([]);
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
