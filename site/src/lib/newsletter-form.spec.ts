// @vitest-environment jsdom
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { newsletterFormHtml, SUBSCRIBE_ACTION } from './newsletter-form';

const parse = (html: string) => {
  const root = document.createElement('div');
  root.innerHTML = html;
  return root;
};
const one = <T extends Element>(root: ParentNode, selector: string) => {
  const found = root.querySelectorAll<T>(selector);
  expect(found, selector).toHaveLength(1);
  return found[0];
};
const labelOf = (form: Element, control: Element) => form.querySelector(`label[for="${control.id}"]`)?.textContent;

describe('newsletterFormHtml', () => {
  it('on an /ar/ page: one plain form in Arabic posting to the API, Arabic preselected, lang=ar', () => {
    const root = parse(newsletterFormHtml('ar', 'nl'));
    const form = one<HTMLFormElement>(root, 'form');
    expect(form.getAttribute('method')).toBe('post');
    expect(form.getAttribute('action')).toBe('/api/newsletter/subscribe');
    expect(SUBSCRIBE_ACTION).toBe('/api/newsletter/subscribe');
    expect(form.getAttribute('lang')).toBe('ar');
    expect(form.getAttribute('dir')).toBe('rtl');
    expect(form.hasAttribute('data-lang')).toBe(false);
    expect(form.querySelector('h2')!.textContent).toBe('النشرة البريدية');

    const email = one<HTMLInputElement>(form, '[name="email"]');
    expect(email.type).toBe('email');
    expect(email.required).toBe(true);
    expect(email.maxLength).toBe(254);
    expect(email.getAttribute('autocomplete')).toBe('email');
    expect(labelOf(form, email)).toBe('البريد الإلكتروني');

    const language = one<HTMLSelectElement>(form, 'select[name="language"]');
    expect([...language.options].map((o) => [o.value, o.textContent])).toEqual([
      ['en', 'الإنجليزية'],
      ['ar', 'العربية'],
    ]);
    expect(language.value).toBe('ar');
    expect(labelOf(form, language)).toBe('لغة الرسائل');

    const topics = [...form.querySelectorAll<HTMLInputElement>('input[name="topics"]')];
    expect(topics.map((t) => [t.type, t.value, t.checked, t.parentElement!.textContent!.trim()])).toEqual([
      ['checkbox', 'essays', true, 'المقالات'],
      ['checkbox', 'news', true, 'الأخبار'],
      ['checkbox', 'books', true, 'الكتب'],
    ]);
    expect(form.querySelector('fieldset legend')!.textContent).toBe('أرسل إليّ');

    expect(one<HTMLInputElement>(form, 'input[name="lang"]').outerHTML).toBe('<input type="hidden" name="lang" value="ar">');
    expect(one<HTMLButtonElement>(form, 'button').outerHTML).toBe('<button class="button newsletter-submit" type="submit">اشترك</button>');
  });

  it('keeps the honeypot `website` from people and screen readers but not from bots: a text field, off-screen, out of the tab order', () => {
    const form = one(parse(newsletterFormHtml('ar', 'nl')), 'form');
    const trap = one<HTMLInputElement>(form, '[name="website"]');
    expect(trap.type).toBe('text');
    expect(trap.value).toBe('');
    expect(trap.getAttribute('tabindex')).toBe('-1');
    expect(trap.getAttribute('autocomplete')).toBe('off');
    expect(trap.hidden).toBe(false);
    const box = trap.closest('.newsletter-website')!;
    expect(box.getAttribute('aria-hidden')).toBe('true');
    // Off-screen by the stylesheet, not display:none (which a bot would respect).
    const rule = /\n\.newsletter-website \{([^}]*)\}/.exec(
      readFileSync(path.join(import.meta.dirname, '../styles/global.css'), 'utf8'),
    )?.[1];
    expect(rule).toMatch(/position: absolute;/);
    expect(rule).toMatch(/inset-inline-start: -10000px;/);
    expect(rule).not.toMatch(/display|visibility/);
  });

  it("on the specification's addresses: one form per language, shown by data-lang, each preselecting its own language and naming it in `lang`", () => {
    const root = parse(newsletterFormHtml(null, 'newsletter-footer'));
    const forms = [...root.querySelectorAll('form')];
    expect(forms.map((f) => [f.dataset.lang, f.lang, f.dir])).toEqual([
      ['en', 'en', 'ltr'],
      ['ar', 'ar', 'rtl'],
    ]);
    for (const form of forms) {
      const lang = form.dataset.lang!;
      expect(form.querySelector<HTMLSelectElement>('select[name="language"]')!.value).toBe(lang);
      expect(form.querySelector<HTMLInputElement>('input[name="lang"]')!.value).toBe(lang);
      expect(form.querySelectorAll('input[name="topics"]:checked')).toHaveLength(3);
    }
    expect(labelOf(forms[0], forms[0].querySelector('[name="email"]')!)).toBe('Email');
    expect(forms[0].querySelector('button')!.textContent).toBe('Subscribe');
    expect([...forms[0].querySelectorAll('select option')].map((o) => o.textContent)).toEqual(['English', 'Arabic']);
    const ids = [...root.querySelectorAll('[id]')].map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toContain('newsletter-footer-ar-email');
  });

  it('adds no script: no script element, no event handler attribute, no island', () => {
    for (const html of [newsletterFormHtml(null, 'a'), newsletterFormHtml('ar', 'b')]) {
      expect(html).not.toMatch(/<script|astro-island|\son[a-z]+=|javascript:/i);
    }
  });
});
