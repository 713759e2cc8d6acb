// The overlay's formatting bar in Chromium (issue 33): an essay written as plain (as the specification's
// clients post it) turns formatting on first; the shortcuts edit the text as typing would, so Ctrl+Z
// undoes them; the bar reads right to left in Arabic; axe finds nothing in the form with it; an essay
// written with the bar shows its bold on the public pages.
// E2E_SCREENSHOTS=<dir> keeps a picture of the form per language and width.
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';

import { AxeBuilder } from '@axe-core/playwright';

import { launchBrowser, openOverlay, VIEWPORTS } from './support/browser.mjs';
import { startStack } from './support/stack.mjs';

const ESSAY = {
  title: 'The Harbour',
  excerpt: 'Boats and nets.',
  content: 'The old boats came back.\n\nكتبت هذه الرسالة عن the harbour في غزة.',
  contentLanguage: 'en',
  translations: { ar: { title: 'الميناء', excerpt: 'قوارب وشباك.', content: 'عادت القوارب القديمة.' } },
};
const WORDS = {
  en: { tab: 'Essays', edit: 'Edit', content: 'Content', bar: 'Formatting: Content', bold: 'Bold (Ctrl+B)', turnOn: 'Turn on formatting' },
  ar: { tab: 'المقالات', edit: 'تعديل', content: 'المحتوى', bar: 'التنسيق: المحتوى', bold: 'غامق (Ctrl+B)', turnOn: 'فعّل التنسيق' },
};

let stack;
let browser;
let token;

before(async () => {
  stack = await startStack({ seedDemo: false });
  token = await stack.login();
  const res = await stack.call('POST', '/api/essays', { token, body: ESSAY });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  await stack.buildSite();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await stack?.stop();
});

async function openEssay(lang, viewport) {
  const { page, overlay } = await openOverlay(browser, stack.url, { lang, viewport, session: token });
  const management = overlay.getByRole('dialog').first();
  await management.getByRole('tab', { name: WORDS[lang].tab }).click();
  const row = management.getByRole('tabpanel').getByRole('row').filter({ hasText: ESSAY.title });
  await row.getByRole('button', { name: new RegExp(`^${WORDS[lang].edit}`) }).click();
  const content = overlay.getByRole('textbox', { name: WORDS[lang].content, exact: true });
  await content.waitFor();
  // Posted without textFormat, the essay is plain: the bar comes with formatting turned on (its text needs no escape).
  const turnOn = overlay.getByRole('button', { name: WORDS[lang].turnOn });
  const shots = process.env.E2E_SCREENSHOTS;
  if (shots) {
    await mkdir(shots, { recursive: true });
    await turnOn.scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(shots, `plain-${lang}-${viewport.width}.png`) });
  }
  await turnOn.click();
  assert.equal(await content.inputValue(), ESSAY.content);
  return { page, overlay, content };
}

describe('the formatting bar', () => {
  it('Ctrl+B wraps the selection and Ctrl+Z takes it back (the undo stack is kept); the bar keeps the focus in the text', async () => {
    const { page, overlay, content } = await openEssay('en', VIEWPORTS.desktop);
    await content.evaluate((area) => {
      area.focus();
      area.setSelectionRange(4, 7);
    });
    await page.keyboard.press('Control+b');
    assert.equal(await content.inputValue(), `The **old** boats came back.\n\n${ESSAY.content.split('\n\n')[1]}`);
    await page.keyboard.press('Control+z');
    assert.equal(await content.inputValue(), ESSAY.content, 'undone by Ctrl+Z');
    await content.evaluate((area) => area.setSelectionRange(8, 13));
    await overlay.getByRole('toolbar', { name: WORDS.en.bar, exact: true }).getByRole('button', { name: 'Italic (Ctrl+I)' }).click();
    assert.equal((await content.inputValue()).slice(0, 26), 'The old *boats* came back.');
    assert.ok(await content.evaluate((area) => area.getRootNode().activeElement === area), 'the focus stays in the text area');
    await page.context().close();
  });

  it('reads right to left in Arabic, fits a phone, and passes axe (English and Arabic, desktop and phone)', async () => {
    const shots = process.env.E2E_SCREENSHOTS;
    if (shots) await mkdir(shots, { recursive: true });
    for (const lang of ['en', 'ar']) {
      for (const [name, viewport] of Object.entries(VIEWPORTS)) {
        const { page, overlay, content } = await openEssay(lang, viewport);
        const bar = overlay.getByRole('toolbar', { name: WORDS[lang].bar, exact: true });
        const bold = bar.getByRole('button', { name: WORDS[lang].bold });
        const italic = bar.getByRole('button', { name: lang === 'ar' ? 'مائل (Ctrl+I)' : 'Italic (Ctrl+I)' });
        const [b, i] = [await bold.boundingBox(), await italic.boundingBox()];
        assert.equal(i.x > b.x, lang === 'en', `the bar's order follows the page (${lang})`);
        assert.equal(await content.getAttribute('dir'), 'auto');
        const box = await bar.boundingBox();
        assert.ok(box.x >= 0 && box.x + box.width <= viewport.width, `the bar fits the width (${lang}, ${name})`);
        await content.scrollIntoViewIfNeeded();
        await bold.hover();
        await overlay.getByRole('tooltip').waitFor();
        if (shots) await page.screenshot({ path: path.join(shots, `formatting-${lang}-${name}.png`) });
        const axe = await new AxeBuilder({ page }).include('#admin-overlay-root').analyze();
        assert.deepEqual(
          axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
          [],
          `${lang}, ${name}`,
        );
        await page.context().close();
      }
    }
  });
});

describe('an essay written with the bar', () => {
  it('an essay written in the overlay with Ctrl+B shows <strong> on its public pages, English and Arabic', async () => {
    const { page, overlay } = await openOverlay(browser, stack.url, { lang: 'en', viewport: VIEWPORTS.desktop, session: token });
    const management = overlay.getByRole('dialog').first();
    await management.getByRole('tab', { name: 'Essays' }).click();
    await management.getByRole('button', { name: 'Add Essay' }).click();
    const form = overlay.getByRole('dialog', { name: 'Add New Essay' });
    const fields = [
      ['Title', 'Nets'],
      ['Excerpt', 'About nets.'],
      ['Title (Arabic)', 'الشباك'],
      ['Excerpt (Arabic)', 'عن الشباك.'],
    ];
    for (const [name, text] of fields) await form.getByRole('textbox', { name, exact: true }).fill(text);
    for (const [name, word] of [
      ['Content', 'mended'],
      ['Content (Arabic)', 'مرقّعة'],
    ]) {
      await form.getByRole('textbox', { name, exact: true }).click();
      await page.keyboard.type('Nets ');
      await page.keyboard.press('Control+b');
      await page.keyboard.type(word);
    }
    await form.getByRole('button', { name: 'Create' }).click();
    await form.waitFor({ state: 'detached' });
    await page.context().close();
    const created = (await stack.call('GET', '/api/essays', { token })).body.find((e) => e.title === 'Nets');
    assert.equal(created.textFormat, 'markdown');
    assert.equal(created.content, 'Nets **mended**');

    await stack.buildSite();
    for (const [prefix, word] of [
      ['', 'mended'],
      ['/ar', 'مرقّعة'],
    ]) {
      const html = await (await fetch(`${stack.url}${prefix}/essays/${created.id}`)).text();
      assert.ok(html.includes(`<p>Nets <strong>${word}</strong></p>`), `${prefix || '/'}: ${html.slice(0, 200)}`);
    }
  });
});
