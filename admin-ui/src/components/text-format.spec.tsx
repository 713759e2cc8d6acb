import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { BookForm } from '../screens/books/book-form';
import { EssayForm } from '../screens/essays/essay-form';
import { NewsForm } from '../screens/news/news-form';
import { PlayForm } from '../screens/plays/play-form';
import { mockApi, signIn } from '../test/api-mock';
import { book, essay, news, play } from '../test/fixtures';
import { renderWithProviders } from '../test/render';

const FORMS = [
  ['essays', EssayForm, 'Content'],
  ['news', NewsForm, 'Content'],
  ['books', BookForm, 'Description'],
  ['plays', PlayForm, 'Description'],
] as const;

function setup(ui: React.ReactElement, kind: string, id = 4) {
  const api = mockApi({ [`PATCH /api/${kind}/${id}`]: ({ body }) => body as object });
  signIn(api);
  const onClose = vi.fn();
  return { api, onClose, ...renderWithProviders(ui) };
}

const toolbars = () => screen.queryAllByRole('toolbar', { name: /^Formatting: / });

afterEach(() => {
  document.documentElement.lang = 'en';
  document.documentElement.dir = 'ltr';
});

describe('formatted text in the forms', () => {
  for (const [kind, Form, field] of FORMS) {
    it(`a new ${kind} item is written with the formatting bar, in both languages' fields`, () => {
      setup(<Form item={null} onSaved={vi.fn()} onClose={vi.fn()} />, kind);
      expect(toolbars().map((bar) => bar.getAttribute('aria-label'))).toEqual([`Formatting: ${field}`, `Formatting: ${field} (Arabic)`]);
      expect(screen.queryByRole('button', { name: 'Turn on formatting' })).toBeNull();
    });
  }

  it('a new essay is saved as Markdown', async () => {
    const api = mockApi({ 'POST /api/essays': ({ body }) => ({ ...essay(9, 'x'), ...(body as object) }) });
    signIn(api);
    const onSaved = vi.fn();
    const { user } = renderWithProviders(<EssayForm item={null} onSaved={onSaved} onClose={vi.fn()} />);
    await user.type(screen.getByLabelText('Title'), 'Sea');
    await user.type(screen.getByLabelText('Excerpt'), 'Short');
    await user.type(screen.getByLabelText('Content'), 'The sea');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(api.callsTo('POST', '/api/essays')[0].body).toMatchObject({ content: 'The sea', textFormat: 'markdown' });
  });

  it('an essay written as plain says it is shown as typed, in place of the bar; turning on formatting escapes its text and its translation, saved with the form', async () => {
    const item = essay(4, 'Sea', {
      content: 'Prices *rise* 5 * 3\n# not a heading',
      contentLanguage: 'en',
      translations: { ar: { title: 'البحر', excerpt: 'قصير', content: '١. ليست قائمة\n- ولا *هذه*' } },
    });
    const { api, user } = setup(<EssayForm item={item} onSaved={vi.fn()} onClose={vi.fn()} />, 'essays');
    expect(toolbars()).toEqual([]);
    expect(screen.getByText('This text is shown exactly as typed.')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Turn on formatting' }));
    expect(toolbars()).toHaveLength(2);
    expect(screen.queryByText('This text is shown exactly as typed.')).toBeNull();
    expect((screen.getByLabelText('Content') as HTMLTextAreaElement).value).toBe('Prices \\*rise\\* 5 \\* 3\n\\# not a heading');

    await user.click(screen.getByRole('button', { name: 'Update' }));
    await waitFor(() => expect(api.callsTo('PATCH', '/api/essays/4')).toHaveLength(1));
    expect(api.callsTo('PATCH', '/api/essays/4')[0].body).toMatchObject({
      textFormat: 'markdown',
      content: 'Prices \\*rise\\* 5 \\* 3\n\\# not a heading',
      translations: { ar: { content: '١. ليست قائمة\n\\- ولا \\*هذه\\*' } },
    });
  });

  it('a plain news item’s lines become paragraphs when formatting is turned on', async () => {
    const item = news(4, 'Award', { content: 'First line\nSecond line' });
    const { api, user } = setup(<NewsForm item={item} onSaved={vi.fn()} onClose={vi.fn()} />, 'news');
    await user.click(screen.getByRole('button', { name: 'Turn on formatting' }));
    await user.click(screen.getByRole('button', { name: 'Update' }));
    await waitFor(() => expect(api.callsTo('PATCH', '/api/news/4')).toHaveLength(1));
    expect(api.callsTo('PATCH', '/api/news/4')[0].body).toMatchObject({ textFormat: 'markdown', content: 'First line\n\nSecond line' });
  });

  it('a plain item saved without turning formatting on stays plain, its text as it was', async () => {
    const item = book(4, 'Novel', { description: 'A *novel*' });
    const { api, user } = setup(<BookForm item={item} onSaved={vi.fn()} onClose={vi.fn()} />, 'books');
    await user.click(screen.getByRole('button', { name: 'Update' }));
    await waitFor(() => expect(api.callsTo('PATCH', '/api/books/4')).toHaveLength(1));
    expect(api.callsTo('PATCH', '/api/books/4')[0].body).toMatchObject({ textFormat: 'plain', description: 'A *novel*' });
  });

  it('a Markdown item keeps its bar and no note', () => {
    setup(
      <PlayForm item={play(4, 'Play', { description: '**x**', textFormat: 'markdown' })} onSaved={vi.fn()} onClose={vi.fn()} />,
      'plays',
    );
    expect(toolbars()).toHaveLength(2);
    expect(screen.queryByText('This text is shown exactly as typed.')).toBeNull();
  });

  it('says it in Arabic', () => {
    document.documentElement.lang = 'ar';
    document.documentElement.dir = 'rtl';
    setup(<EssayForm item={essay(4, 'Sea')} onSaved={vi.fn()} onClose={vi.fn()} />, 'essays');
    expect(screen.getByText('يُعرض هذا النص كما كُتب تمامًا.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'فعّل التنسيق' })).toBeTruthy();
  });
});
