import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { detectLanguage, isTranslated, itemLanguage, missingLanguages, textFor, type Translatable } from './translations.js';

const item = (over: Record<string, unknown> = {}) =>
  ({ title: 'The Sea', excerpt: 'Short', content: 'Text', contentLanguage: null, translations: {}, ...over }) as unknown as Translatable;

describe('detectLanguage', () => {
  it('is Arabic when Arabic letters outnumber Latin ones, else English', () => {
    assert.equal(detectLanguage('البحر يتذكّر'), 'ar');
    assert.equal(detectLanguage('The Sea Remembers'), 'en');
    assert.equal(detectLanguage('غزة Gaza City غزة'), 'en');
    assert.equal(detectLanguage('رواية novel رواية طويلة'), 'ar');
    assert.equal(detectLanguage('2024'), 'en');
  });
});

describe('itemLanguage', () => {
  it('takes contentLanguage when set, else detects from the translated fields', () => {
    assert.equal(itemLanguage('essays', item({ contentLanguage: 'ar' })), 'ar');
    assert.equal(itemLanguage('essays', item()), 'en');
    assert.equal(itemLanguage('essays', item({ title: 'عنوان', excerpt: 'مقتطف', content: 'نص عربي' })), 'ar');
  });
});

describe('textFor', () => {
  const both = item({ contentLanguage: 'en', translations: { ar: { title: 'البحر', excerpt: '  ' } } });
  it("gives the reader's language when there is a version, else the item's own text in its own language", () => {
    assert.deepEqual(textFor('essays', both, 'title', 'ar'), { text: 'البحر', lang: 'ar' });
    assert.deepEqual(textFor('essays', both, 'title', 'en'), { text: 'The Sea', lang: 'en' });
    assert.deepEqual(textFor('essays', both, 'excerpt', 'ar'), { text: 'Short', lang: 'en' }, 'a blank version is none');
    assert.equal(textFor('essays', item({ publication: null }), 'publication', 'ar'), null);
  });
  it("ignores a version in the item's own language (its own fields are that version)", () => {
    assert.deepEqual(textFor('essays', item({ contentLanguage: 'en', translations: { en: { title: 'Other' } } }), 'title', 'en'), {
      text: 'The Sea',
      lang: 'en',
    });
  });
  it("takes a play's arabicTitle as its Arabic title when there is no translated one", () => {
    const play = item({ arabicTitle: 'مسرحية', description: null, genre: null });
    assert.deepEqual(textFor('plays', play, 'title', 'ar'), { text: 'مسرحية', lang: 'ar' });
  });
});

describe('missingLanguages', () => {
  it('names the other language until every filled field has a version in it', () => {
    assert.deepEqual(missingLanguages('essays', item()), ['ar']);
    assert.deepEqual(missingLanguages('essays', item({ title: 'عنوان', excerpt: 'مقتطف', content: 'نص' })), ['en']);
    const partly = item({ contentLanguage: 'en', translations: { ar: { title: 'البحر' } } });
    assert.deepEqual(missingLanguages('essays', partly), ['ar']);
    const whole = item({ contentLanguage: 'en', translations: { ar: { title: 'البحر', excerpt: 'قصير', content: 'نص' } } });
    assert.deepEqual(missingLanguages('essays', whole), []);
    assert.equal(isTranslated('essays', whole), true);
  });
});
