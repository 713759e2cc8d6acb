import type { Lang, Translations } from '@portfolio/contract/translations';
import { describe, expect, expectTypeOf, it } from 'vitest';

import { type FieldValues, type FormBody, type FormValues, isoDate } from './form-values';

/** An input type shaped as the contract's (`EssayInput` …), so these checks do not move when a kind grows. */
interface SampleInput {
  title: string;
  year: number;
  note?: string | null;
  tags?: string[];
  featured?: boolean;
  contentLanguage?: Lang | null;
  translations?: Translations<'title' | 'note'>;
}

// Checked by the overlay's build (tsc covers the specs): a field the contract adds is one each form must handle.
describe('form values from the contract', () => {
  it('holds numbers and optional texts as the strings a form edits, lists and booleans as they are', () => {
    expectTypeOf<FieldValues<SampleInput>['year']>().toEqualTypeOf<string>();
    expectTypeOf<FieldValues<SampleInput>['note']>().toEqualTypeOf<string>();
    expectTypeOf<FieldValues<SampleInput>['tags']>().toEqualTypeOf<string[]>();
    expectTypeOf<FormValues<SampleInput>['featured']>().toEqualTypeOf<boolean>();
    expectTypeOf<keyof FormValues<SampleInput>>().toEqualTypeOf<'title' | 'year' | 'note' | 'tags' | 'featured' | 'bilingual'>();
    // The other language's part holds exactly the fields the input translates (kinds.ts).
    expectTypeOf<keyof FormValues<SampleInput>['bilingual']['translation']>().toEqualTypeOf<'title' | 'note'>();
  });

  it('refuses a form or a body that leaves out a field the contract gained', () => {
    type Grown = SampleInput & { subtitle?: string | null };
    // @ts-expect-error the form's values lack the new field
    const values: FormValues<Grown> = {} as FormValues<SampleInput>;
    // @ts-expect-error the request body lacks the new field
    const body: FormBody<Grown> = {} as FormBody<SampleInput>;
    expect([values, body]).toHaveLength(2);
  });

  it('keeps the stored timestamp of an unchanged date', () => {
    expect(isoDate('2024-03-01', '2024-03-01T10:20:30.000Z')).toBe('2024-03-01T10:20:30.000Z');
    expect(isoDate('2024-03-02', '2024-03-01T10:20:30.000Z')).toBe('2024-03-02T00:00:00.000Z');
  });
});
