import type { EssayInput, SiteSettingsInput } from '@portfolio/contract/types';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { isoDate, type FieldValues, type FormBody, type FormValues } from './form-values';

// Checked by the overlay's build (tsc covers the specs): a field the contract adds is one each form must handle.
describe('form values from the contract', () => {
  it('holds numbers and optional texts as the strings a form edits, booleans as they are', () => {
    expectTypeOf<FieldValues<SiteSettingsInput>['copyrightYear']>().toEqualTypeOf<string>();
    expectTypeOf<FieldValues<SiteSettingsInput>['subtitleAr']>().toEqualTypeOf<string>();
    expectTypeOf<FormValues<EssayInput>['featured']>().toEqualTypeOf<boolean>();
    expectTypeOf<keyof FormValues<EssayInput>>().toEqualTypeOf<
      | 'title' | 'excerpt' | 'content' | 'publication' | 'publicationLogoUrl' | 'publishedDate' | 'essayUrl' | 'imageUrl' | 'category'
      | 'featured' | 'published' | 'publishAt' | 'bilingual'
    >();
    // The other language's part holds exactly the kind's translated fields (kinds.ts).
    expectTypeOf<keyof FormValues<EssayInput>['bilingual']['translation']>().toEqualTypeOf<'title' | 'excerpt' | 'content' | 'publication' | 'category'>();
  });

  it('refuses a form or a body that leaves out a field the contract gained', () => {
    type Grown = EssayInput & { subtitle?: string | null };
    // @ts-expect-error the form's values lack the new field
    const values: FormValues<Grown> = {} as FormValues<EssayInput>;
    // @ts-expect-error the request body lacks the new field
    const body: FormBody<Grown> = {} as FormBody<EssayInput>;
    expect([values, body]).toHaveLength(2);
  });

  it('keeps the stored timestamp of an unchanged date', () => {
    expect(isoDate('2024-03-01', '2024-03-01T10:20:30.000Z')).toBe('2024-03-01T10:20:30.000Z');
    expect(isoDate('2024-03-02', '2024-03-01T10:20:30.000Z')).toBe('2024-03-02T00:00:00.000Z');
  });
});
