import { describe, expect, it } from 'vitest';
import { imageSrc } from './image-path';

describe('imageSrc (specification, section 7)', () => {
  it('prefixes a bare name with /uploads/ and leaves known paths and URLs alone', () => {
    expect(imageSrc('cover.jpg')).toBe('/uploads/cover.jpg');
    expect(imageSrc('/uploads/books/a.jpg')).toBe('/uploads/books/a.jpg');
    expect(imageSrc('/objects/a.jpg')).toBe('/objects/a.jpg');
    expect(imageSrc('/public-objects/a.jpg')).toBe('/public-objects/a.jpg');
    expect(imageSrc('https://cdn.example/a.jpg')).toBe('https://cdn.example/a.jpg');
  });
});
