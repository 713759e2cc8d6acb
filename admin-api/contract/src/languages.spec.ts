import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { DEFAULT_LANG, LANGUAGE_INFO, languageOfPath, LANGUAGES, pathFor, unprefixedPath } from './languages.js';

describe('language addresses', () => {
  it('keeps the specification’s addresses for English and prefixes Arabic ones with /ar', () => {
    assert.equal(pathFor('en', '/books/3'), '/books/3');
    assert.equal(pathFor('en', '/'), '/');
    assert.equal(pathFor('ar', '/books/3'), '/ar/books/3');
    assert.equal(pathFor('ar', '/'), '/ar');
  });

  it('reads the language of an address from its prefix, whole segments only', () => {
    assert.equal(languageOfPath('/ar/books/3'), 'ar');
    assert.equal(languageOfPath('/ar'), 'ar');
    assert.equal(languageOfPath('/ar/'), 'ar');
    assert.equal(languageOfPath('/books/3'), 'en');
    assert.equal(languageOfPath('/'), 'en');
    assert.equal(languageOfPath('/arts'), 'en');
    assert.equal(languageOfPath('/books/ar'), 'en');
  });

  it('takes the prefix off an address', () => {
    assert.equal(unprefixedPath('/ar/books/3'), '/books/3');
    assert.equal(unprefixedPath('/ar'), '/');
    assert.equal(unprefixedPath('/ar/'), '/');
    assert.equal(unprefixedPath('/arts'), '/arts');
    assert.equal(unprefixedPath('/'), '/');
  });

  it('goes both ways for every language of the list, the first without a prefix', () => {
    assert.equal(LANGUAGE_INFO[DEFAULT_LANG].prefix, '');
    for (const lang of LANGUAGES)
      for (const path of ['/', '/books', '/books/3/reviews', '/rss/essays.xml']) {
        assert.equal(languageOfPath(pathFor(lang, path)), lang, `${lang} ${path}`);
        assert.equal(unprefixedPath(pathFor(lang, path)), path, `${lang} ${path}`);
      }
  });
});
