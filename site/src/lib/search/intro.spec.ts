import { SITE_ORDER } from '@portfolio/contract/kinds';
import { describe, expect, it } from 'vitest';

import { t } from '../../i18n';
import { searchIntroVars } from './intro';

describe('the search page lead', () => {
  it('names every kind of the registry in the site order, as a list in each language', () => {
    expect(t('en', 'search.intro', searchIntroVars('en'))).toBe('Books, essays, artworks, plays and news, in English and Arabic.');
    expect(t('ar', 'search.intro', searchIntroVars('ar'))).toBe(
      'الكتب والمقالات والأعمال الفنية والمسرحيات والأخبار، بالعربية والإنجليزية.',
    );
    expect(
      SITE_ORDER.every((kind) =>
        String(searchIntroVars('en').kinds)
          .toLowerCase()
          .includes(t('en', `search.intro.${kind}`)),
      ),
    ).toBe(true);
  });
});
