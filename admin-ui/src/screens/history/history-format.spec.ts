import { describe, expect, it } from 'vitest';

import { createI18n } from '../../i18n/i18n';
import { flattenTranslations, historyFieldLabel, historyFields } from './history-format';

describe('a version with other-language text', () => {
  const before = { title: 'The Sea', translations: { ar: { title: 'البحر', excerpt: 'قديم' } } };
  const after = { title: 'The Sea', translations: { ar: { title: 'البحر يتذكّر', excerpt: 'قديم' } } };

  it('compares each translated field on its own, not the translations as one line of JSON', () => {
    const [old, neu] = [flattenTranslations(before), flattenTranslations(after)];
    const changed = historyFields(old, neu).filter((f) => JSON.stringify(old[f] ?? null) !== JSON.stringify(neu[f] ?? null));
    expect(changed).toEqual(['translations.ar.title']);
    expect(neu['translations.ar.title']).toBe('البحر يتذكّر');
  });

  it('names the field and its language in either interface language', () => {
    expect(historyFieldLabel('translations.ar.title', createI18n('en').t)).toBe('Title (Arabic)');
    expect(historyFieldLabel('translations.en.title', createI18n('ar').t)).toBe(
      `${createI18n('ar').t('fields.title')} (${createI18n('ar').t('translation.language.en')})`,
    );
  });
});
