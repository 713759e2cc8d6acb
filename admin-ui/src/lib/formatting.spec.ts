import { formattedHtml } from '@portfolio/contract/formatted-text';
import { describe, expect, it } from 'vitest';

import { image } from './formatting';

describe('a picture inserted from the formatting bar', () => {
  it('stays a picture when its alt text ends in a backslash or holds brackets (they leave the alt text)', () => {
    const edit = image('', { start: 0, end: 0 }, 'Boats [at] dawn \\', '/uploads/essays/boats.jpg');
    expect(edit.text).toBe('![Boats at dawn](/uploads/essays/boats.jpg)');
    expect(formattedHtml(edit.text, { format: 'markdown', layout: 'blank-lines' })).toContain(
      '<img src="/uploads/essays/boats.jpg" alt="Boats at dawn">',
    );
  });
});
