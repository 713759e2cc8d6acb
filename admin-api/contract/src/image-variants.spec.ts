import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { shareCardFile, storedVariantPath, uploadVariantSet, variantFile, variantWidths } from './image-variants.js';

describe('image variants', () => {
  it('keeps the names that published sites already carry (a new name would re-render and re-upload every page)', () => {
    assert.equal(variantFile('/uploads/books/abc-600x900.jpg', 360), '_astro/abc-600x900-360w.bf38458d03.webp');
    assert.equal(shareCardFile('/uploads/books/abc-600x900.jpg'), '_astro/abc-600x900-1200x630.3e733d2889.jpg');
  });

  it('stores a variant beside its original, under the original folder of the uploads storage', () => {
    assert.equal(
      storedVariantPath('/uploads/books/abc-600x900.jpg', '_astro/abc-600x900-360w.bf38458d03.webp'),
      '/uploads/_variants/books/abc-600x900-360w.bf38458d03.webp',
    );
  });

  it('never makes a variant wider than the original, and makes each width once', () => {
    assert.deepEqual(variantWidths(500), [160, 240, 360, 400, 480, 500]);
    assert.deepEqual(variantWidths(100), [100]);
    const set = uploadVariantSet('/uploads/art/x-300x150.png', { width: 300, height: 150 });
    assert.deepEqual(
      set.map((v) => [v.kind, v.width, v.height]),
      [
        ['webp', 160, 80],
        ['webp', 240, 120],
        ['webp', 300, 150],
        ['card', 1200, 630],
      ],
    );
    assert.ok(set.every((v) => v.stored.startsWith('/uploads/_variants/art/')));
  });
});
