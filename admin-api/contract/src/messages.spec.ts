import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { isMessageKey, isMessageRef, type MessageKey, messagePlaceholders, MESSAGES, messageText } from './messages.js';

const entries = Object.entries(MESSAGES) as [MessageKey, { en: string; ar: string }][];

describe('MESSAGES', () => {
  it('has a non-empty English and Arabic text for every key', () => {
    for (const [key, { en, ar }] of entries) {
      assert.ok(en.trim(), `${key}: en`);
      assert.ok(ar.trim(), `${key}: ar`);
      assert.match(ar, /[\u0600-\u06FF]/, `${key}: the Arabic is Arabic`);
    }
  });

  it('uses the same placeholders in both languages', () => {
    for (const [key, { en, ar }] of entries) assert.deepEqual(messagePlaceholders(ar), messagePlaceholders(en), key);
  });

  it('gives no two keys the same English (the English is not a key)', () => {
    const seen = new Map<string, string>();
    for (const [key, { en }] of entries) {
      assert.equal(seen.get(en), undefined, `${key} and ${seen.get(en)} both say '${en}'`);
      seen.set(en, key);
    }
  });

  it('isolates the Latin links and paths of its Arabic, so they read left to right', () => {
    for (const [key, { ar }] of entries) {
      const bare = ar.replace(/\u2066[^\u2069]*\u2069/g, '');
      assert.doesNotMatch(bare, /https?:|\/|[A-Z_]{4,}/, key);
    }
  });
});

describe('messageText', () => {
  it('gives the text of a key in either language', () => {
    assert.equal(messageText('validation.titleRequired', 'en'), 'Title is required');
    assert.equal(messageText('validation.titleRequired', 'ar'), 'العنوان مطلوب');
    assert.equal(messageText({ key: 'validation.passwordMin' }, 'en'), 'Password must be at least 6 characters');
  });

  it('fills numbers in, and translates a label given as a ref', () => {
    const ref = { key: 'validation.atMost', params: { field: { key: 'label.year' }, max: 9999 } } as const;
    assert.equal(messageText(ref, 'en'), 'Year must be at most 9999');
    assert.equal(messageText(ref, 'ar'), 'يجب ألا تزيد قيمة السنة على 9999');
    assert.equal(messageText('validation.maxLength', 'en', { max: 300 }), 'Must be at most 300 characters');
  });

  it('leaves a placeholder without a value as it is', () => {
    assert.equal(messageText('validation.maxLength', 'en'), 'Must be at most {max} characters');
  });
});

describe('isMessageRef', () => {
  it('accepts known keys with number, string or ref parameters', () => {
    assert.equal(isMessageKey('validation.required'), true);
    assert.equal(isMessageRef({ key: 'validation.required' }), true);
    assert.equal(isMessageRef({ key: 'validation.wholeNumber', params: { field: { key: 'label.pages' } } }), true);
    assert.equal(isMessageRef({ key: 'validation.oneOf', params: { values: 'a, b' } }), true);
  });

  it('refuses unknown keys (a newer API) and other shapes', () => {
    for (const value of [
      null,
      'validation.required',
      { key: 'validation.nope' },
      { key: 'toString' },
      { key: 'validation.atMost', params: { field: { key: 'label.nope' } } },
      { key: 'validation.atMost', params: [1] },
    ]) {
      assert.equal(isMessageRef(value), false, JSON.stringify(value));
    }
  });
});
