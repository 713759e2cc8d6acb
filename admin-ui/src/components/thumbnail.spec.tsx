import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { Thumbnail } from './thumbnail';

const shown = (src: string | null) => {
  const { container, unmount } = render(<Thumbnail src={src} />);
  const img = container.querySelector('img')?.getAttribute('src') ?? null;
  unmount();
  return img;
};

describe('thumbnail', () => {
  it('loads the image from where the site does, and shows an empty box for one the site drops', () => {
    expect(shown('cover.jpg')).toBe('/uploads/cover.jpg');
    expect(shown('./cover.jpg')).toBe('/uploads/cover.jpg');
    expect(shown('https://cdn.example/a.jpg')).toBe('https://cdn.example/a.jpg');
    expect(shown('//cdn.example/x.jpg')).toBeNull();
    expect(shown('data:image/png;base64,iVBORw0KGgo=')).toBeNull();
    expect(shown(null)).toBeNull();
  });
});
