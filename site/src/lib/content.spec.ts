import { describe, expect, it } from 'vitest';
import {
  driveDownloadUrl,
  drivePreviewUrl,
  essayParagraphs,
  imagePath,
  imageSizeFromName,
  newsExcerpt,
  newsParagraphs,
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

describe('image size from an uploaded image name', () => {
  it('reads the width and height the API puts before the extension', () => {
    expect(imageSizeFromName('/uploads/artworks/mf3k2a-0123456789abcdef-1200x800.jpg')).toEqual({ width: 1200, height: 800 });
    expect(imageSizeFromName('/uploads/books/mf3k2a-0123456789abcdef-600x900.jpeg')).toEqual({ width: 600, height: 900 });
    for (const ext of ['png', 'gif', 'webp', 'avif']) {
      expect(imageSizeFromName(`/uploads/general/mf3k2a-0123456789abcdef-1x2.${ext}`)).toEqual({ width: 1, height: 2 });
    }
    expect(imageSizeFromName('/uploads/demo/demo-artwork-1-1200x900.jpg')).toEqual({ width: 1200, height: 900 });
  });
  it('gives nothing for names without a size, so the size is read from the file', () => {
    expect(imageSizeFromName('/uploads/artworks/1712345678-painting.jpg')).toBeNull();
    expect(imageSizeFromName('/uploads/cover.jpg')).toBeNull();
    expect(imageSizeFromName('/uploads/general/mf3k2a-0123456789abcdef.pdf')).toBeNull();
    expect(imageSizeFromName('/uploads/general/scan-1200x800.pdf')).toBeNull();
    expect(imageSizeFromName('/uploads/general/a-1200x800.jpg.bak')).toBeNull();
    expect(imageSizeFromName('/uploads/general/a1200x800.jpg')).toBeNull();
    expect(imageSizeFromName('/uploads/general/a-1200x.jpg')).toBeNull();
    expect(imageSizeFromName('/uploads/general/a-0x800.jpg')).toBeNull();
    expect(imageSizeFromName(null)).toBeNull();
  });
});

describe('unsafe links', () => {
  it('never lets javascript:, data: or protocol-relative addresses through', () => {
    for (const bad of ['javascript:alert(1)', ' JavaScript:alert(1)//x.pdf', 'data:text/html,<script>alert(1)</script>', '//evil.example/x.png', 'vbscript:x']) {
      expect(imagePath(bad)).toBeNull();
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
