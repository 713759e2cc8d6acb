import { CONTENT_KINDS, type KindDefinition, KINDS } from '@portfolio/contract/kinds';
import { LANGUAGES } from '@portfolio/contract/languages';
import { describe, expect, it } from 'vitest';

import { dictionaries } from './index';

describe('the site catalogues', () => {
  // The registry names its labels by key (a string to the contract): a kind whose words are missing
  // here would render an empty navigation link or not-found page, and nothing else would notice.
  it('have the navigation, search and not-found words of every content kind, in every language', () => {
    const missing: string[] = [];
    for (const kind of CONTENT_KINDS) {
      const { labels } = KINDS[kind] as KindDefinition;
      const keys = [labels.nav, labels.search, ...(labels.notFoundPage ? [labels.notFoundPage.title, labels.notFoundPage.back] : [])];
      for (const lang of LANGUAGES)
        for (const key of keys) if (!(dictionaries[lang] as Record<string, string>)[key]) missing.push(`${lang} ${key} (${kind})`);
    }
    expect(missing).toEqual([]);
  });
});
