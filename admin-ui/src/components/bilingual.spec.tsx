import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';

import { EssaysScreen } from '../screens/essays/essays-screen';
import { mockApi, signIn } from '../test/api-mock';
import { essay } from '../test/fixtures';
import { renderWithProviders } from '../test/render';

const both = essay(1, 'The Sea Remembers', {
  contentLanguage: 'en',
  translations: { ar: { title: 'البحر يتذكّر', excerpt: 'مقتطف', content: 'نص', category: 'ثقافة' } },
});
const englishOnly = essay(2, 'Only In English');
const arabicOnly = essay(3, 'بالعربية فقط', { excerpt: 'مقتطف', content: 'نص', category: 'ثقافة' });

function setup() {
  const api = mockApi({ 'GET /api/essays': [both, englishOnly, arabicOnly], 'PATCH /api/essays/2': englishOnly });
  signIn(api);
  return { api, ...renderWithProviders(<EssaysScreen />) };
}
const rows = () => screen.getAllByRole('row').slice(1);
const rowOf = (title: string) => rows().find((row) => row.textContent?.includes(title))!;
const titles = () => rows().map((row) => [both, englishOnly, arabicOnly].find((e) => row.textContent?.includes(e.title))?.title);

afterEach(() => {
  document.documentElement.lang = 'en';
  document.documentElement.dir = 'ltr';
});

describe('translations in the lists', () => {
  it('marks items that lack a version in one language, and the Languages filter keeps them or the others', async () => {
    const { user } = setup();
    await screen.findAllByText('Only In English');
    expect(within(rowOf('Only In English')).getByText('No Arabic version')).toBeTruthy();
    expect(within(rowOf('بالعربية فقط')).getByText('No English version')).toBeTruthy();
    expect(within(rowOf('The Sea Remembers')).queryByText(/version/)).toBeNull();

    const filter = screen.getByLabelText('Languages');
    await user.selectOptions(filter, 'Missing a translation');
    expect(titles()).toEqual(['Only In English', 'بالعربية فقط']);
    await user.selectOptions(filter, 'In both languages');
    expect(titles()).toEqual(['The Sea Remembers']);
    await user.selectOptions(filter, 'All items');
    expect(titles()).toHaveLength(3);
  });

  it('edits the Arabic version beside the English one and sends it as translations.ar', async () => {
    const { user, api } = setup();
    await user.click(await screen.findByRole('button', { name: 'Edit Only In English' }));
    expect((screen.getByLabelText('Written in') as HTMLSelectElement).value).toBe('en');
    const arabicTitle = screen.getByLabelText('Title (Arabic)');
    expect([arabicTitle.getAttribute('lang'), arabicTitle.getAttribute('dir')]).toEqual(['ar', 'rtl']);
    await user.type(arabicTitle, 'بالإنجليزية فقط');
    await user.click(screen.getByRole('button', { name: 'Update' }));
    await screen.findByText('Essay updated successfully');
    const body = api.callsTo('PATCH', '/api/essays/2')[0].body as Record<string, unknown>;
    expect(body.contentLanguage).toBe('en');
    expect(body.translations).toEqual({
      ar: { title: 'بالإنجليزية فقط', excerpt: null, content: null, publication: null, category: null },
    });
  });

  it('speaks Arabic', async () => {
    document.documentElement.lang = 'ar';
    document.documentElement.dir = 'rtl';
    setup();
    await screen.findAllByText('Only In English');
    expect(within(rowOf('Only In English')).getByText('لا نسخة عربية')).toBeTruthy();
    expect(screen.getByLabelText('اللغات')).toBeTruthy();
  });
});
