import { fireEvent, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { nextFootnote } from '../lib/formatting';
import { mockApi, signIn } from '../test/api-mock';
import { renderWithProviders } from '../test/render';
import { TextAreaField } from './field';

function Harness({ initial = '' }: { initial?: string }) {
  const [value, setValue] = useState(initial);
  return (
    <>
      <TextAreaField label="Content" format="essays" value={value} onChange={setValue} />
      <output data-testid="value">{value}</output>
    </>
  );
}

function setup(initial: string, select: [number, number]) {
  const view = renderWithProviders(<Harness initial={initial} />);
  const area = screen.getByRole('textbox', { name: 'Content' }) as HTMLTextAreaElement;
  area.focus();
  area.setSelectionRange(...select);
  return { ...view, area, value: () => screen.getByTestId('value').textContent };
}

const button = (name: string) => within(screen.getByRole('toolbar', { name: 'Formatting: Content' })).getByRole('button', { name });

describe('the formatting bar', () => {
  it('wraps the selection in bold and italic, the words still selected and the focus kept in the text area', () => {
    const { area, value } = setup('The old sea', [4, 7]);
    fireEvent.click(button('Bold (Ctrl+B)'));
    expect(value()).toBe('The **old** sea');
    expect([area.selectionStart, area.selectionEnd]).toEqual([6, 9]);
    expect(document.activeElement).toBe(area);
    fireEvent.click(button('Italic (Ctrl+I)'));
    expect(value()).toBe('The ***old*** sea');
  });

  it('keeps a space selected with a word outside the marks', () => {
    const { value } = setup('The old sea', [3, 8]);
    fireEvent.click(button('Bold (Ctrl+B)'));
    expect(value()).toBe('The **old** sea');
  });

  it('answers Ctrl+B, Ctrl+I and Ctrl+K (not ⌘, off a Mac)', () => {
    const { area, value } = setup('a b c', [0, 1]);
    fireEvent.keyDown(area, { key: 'b', code: 'KeyB', ctrlKey: true });
    expect(value()).toBe('**a** b c');
    area.setSelectionRange(6, 7);
    fireEvent.keyDown(area, { key: 'I', code: 'KeyI', ctrlKey: true });
    expect(value()).toBe('**a** *b* c');
    area.setSelectionRange(10, 11);
    fireEvent.keyDown(area, { key: 'k', code: 'KeyK', metaKey: true });
    expect(value()).toBe('**a** *b* c');
    fireEvent.keyDown(area, { key: 'k', code: 'KeyK', ctrlKey: true });
    expect(value()).toBe('**a** *b* [c](https://)');
    expect(area.value.slice(area.selectionStart, area.selectionEnd)).toBe('https://');
  });

  it('makes a link of the selection with the address selected to type over; with none, the link text selected', () => {
    const { area, value } = setup('Read the report.', [9, 15]);
    fireEvent.click(button('Link (Ctrl+K)'));
    expect(value()).toBe('Read the [report](https://).');
    expect(area.value.slice(area.selectionStart, area.selectionEnd)).toBe('https://');
    area.setSelectionRange(0, 0);
    fireEvent.click(button('Link (Ctrl+K)'));
    expect(value()).toBe('[link text](https://)Read the [report](https://).');
    expect(area.value.slice(area.selectionStart, area.selectionEnd)).toBe('link text');
  });

  it('makes a list of every line of the selection, and a second click takes it off', () => {
    const { area, value } = setup('Intro\nNets\nOars\n\nSails\nEnd', [8, 23]);
    fireEvent.click(button('Bulleted list'));
    expect(value()).toBe('Intro\n- Nets\n- Oars\n\n- Sails\nEnd');
    fireEvent.click(button('Bulleted list'));
    expect(value()).toBe('Intro\nNets\nOars\n\nSails\nEnd');
    area.setSelectionRange(6, 16);
    fireEvent.click(button('Numbered list'));
    expect(value()).toBe('Intro\n1. Nets\n2. Oars\n\nSails\nEnd');
  });

  it('makes a heading or a quote of the line the caret is on', () => {
    const { area, value } = setup('Title\nText', [2, 2]);
    fireEvent.click(button('Heading'));
    expect(value()).toBe('## Title\nText');
    area.setSelectionRange(10, 10);
    fireEvent.click(button('Quote'));
    expect(value()).toBe('## Title\n> Text');
  });
});

describe('the formatting bar: shortcuts on other keyboards and systems', () => {
  it('answers Ctrl+B with an Arabic keyboard layout (the key where B is gives لا, not b)', () => {
    const { value, area } = setup('بحر', [0, 3]);
    fireEvent.keyDown(area, { key: 'لا', code: 'KeyB', ctrlKey: true });
    expect(value()).toBe('**بحر**');
    area.setSelectionRange(2, 5);
    fireEvent.keyDown(area, { key: 'ه', code: 'KeyI', ctrlKey: true });
    expect(value()).toBe('***بحر***');
  });

  describe('on a Mac', () => {
    beforeEach(() => {
      Object.defineProperty(navigator, 'platform', { value: 'MacIntel', configurable: true });
    });
    afterEach(() => {
      delete (navigator as { platform?: string }).platform;
    });

    it("answers ⌘B and ⌘K; Ctrl+B (the system's own key there) does nothing", () => {
      const { area, value } = setup('a b', [0, 1]);
      fireEvent.keyDown(area, { key: 'b', code: 'KeyB', ctrlKey: true });
      expect(value()).toBe('a b');
      fireEvent.keyDown(area, { key: 'b', code: 'KeyB', metaKey: true });
      expect(value()).toBe('**a** b');
      area.setSelectionRange(6, 7);
      fireEvent.keyDown(area, { key: 'k', code: 'KeyK', ctrlKey: true });
      expect(value()).toBe('**a** b');
      fireEvent.keyDown(area, { key: 'k', code: 'KeyK', metaKey: true });
      expect(value()).toBe('**a** [b](https://)');
      expect(button('Bold (⌘B)')).toBeTruthy();
    });
  });
});

describe('the formatting bar: footnotes, pictures, languages', () => {
  it('adds a footnote with the next free number: the reference at the caret, the note at the end with the caret in it', () => {
    const text = 'One[^1] and two[^3].\n\n[^1]: A.\n\n[^3]: C.';
    expect(nextFootnote(text)).toBe(4);
    expect(nextFootnote('No notes.')).toBe(1);
    const { area, value } = setup(text, [3, 3]);
    fireEvent.click(button('Footnote'));
    expect(value()).toBe('One[^4][^1] and two[^3].\n\n[^1]: A.\n\n[^3]: C.\n\n[^4]: ');
    expect(area.selectionStart).toBe(area.value.length);
  });

  it('inserts a picture uploaded from the bar as its own paragraph, with the alt text typed', async () => {
    const api = mockApi({ 'POST /api/upload': { url: '/uploads/essays/boats-12345678.jpg', folder: 'essays' } });
    signIn(api);
    const { area, value, user } = setup('Before.\nAfter.', [7, 7]);
    fireEvent.click(button('Picture from your uploads'));
    const dialog = await screen.findByRole('dialog', { name: 'Insert a picture' });
    const insert = within(dialog).getByRole('button', { name: 'Insert' });
    expect((insert as HTMLButtonElement).disabled).toBe(true);
    await user.click(within(dialog).getByRole('tab', { name: 'Upload' }));
    await user.upload(dialog.querySelector('input[type="file"]') as HTMLInputElement, new File(['x'], 'boats.jpg', { type: 'image/jpeg' }));
    await user.type(within(dialog).getByRole('textbox', { name: /Alt text/ }), 'Boats at dawn');
    expect(api.callsTo('POST', '/api/upload')).toHaveLength(1);
    await user.click(insert);
    expect(screen.queryByRole('dialog', { name: 'Insert a picture' })).toBeNull();
    expect(value()).toBe('Before.\n\n![Boats at dawn](/uploads/essays/boats-12345678.jpg)\n\nAfter.');
    expect(document.activeElement).toBe(area);
  });

  it('names every button in English and Arabic, the text area following its own direction (dir="auto")', () => {
    const names = () =>
      within(screen.getByRole('toolbar'))
        .getAllByRole('button')
        .map((b) => b.getAttribute('aria-labelledby') && b.ownerDocument.getElementById(b.getAttribute('aria-labelledby')!)?.textContent);
    const en = setup('The sea', [0, 0]);
    expect(en.area.getAttribute('dir')).toBe('auto');
    expect(names()).toEqual([
      'Bold (Ctrl+B)',
      'Italic (Ctrl+I)',
      'Link (Ctrl+K)',
      'Heading',
      'Quote',
      'Bulleted list',
      'Numbered list',
      'Footnote',
      'Picture from your uploads',
    ]);
    en.unmount();
    document.documentElement.lang = 'ar';
    try {
      renderWithProviders(<TextAreaField label="المحتوى" format="essays" value="كتبت **هذه** الرسالة with English" onChange={() => {}} />);
      expect(screen.getByRole('toolbar', { name: 'التنسيق: المحتوى' })).toBeTruthy();
      expect(names()).toEqual([
        'غامق (Ctrl+B)',
        'مائل (Ctrl+I)',
        'رابط (Ctrl+K)',
        'عنوان',
        'اقتباس',
        'قائمة نقطية',
        'قائمة مرقّمة',
        'حاشية',
        'صورة من ملفاتك المرفوعة',
      ]);
      expect(screen.getByRole('textbox', { name: 'المحتوى' }).getAttribute('dir')).toBe('auto');
    } finally {
      document.documentElement.lang = 'en';
    }
  });
});
