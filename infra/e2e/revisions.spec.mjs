// Revisions in the admin overlay, in headless Chromium against the real stack: an item's history,
// the difference between two versions, restoring a version (published like any save), and a play
// deleted for good brought back from its history; in English and in Arabic.
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';

import { AxeBuilder } from '@axe-core/playwright';

import { launchBrowser, openOverlay as overlayOn, VIEWPORTS } from './support/browser.mjs';
import { startStack } from './support/stack.mjs';

const SHOTS = process.env.E2E_SCREENSHOTS ?? path.join(os.tmpdir(), 'portfolio-e2e-screenshots', 'revisions');

let stack;
let browser;
let token;
const pageErrors = [];

before(async () => {
  stack = await startStack({ seedDemo: false });
  token = await stack.login();
  await stack.buildSite();
  browser = await launchBrowser();
  await mkdir(SHOTS, { recursive: true });
});
after(async () => {
  await browser?.close();
  await stack?.stop();
});

const TEXTS = {
  en: {
    management: 'Content Management',
    history: (title) => `History ${title}`,
    historyTitle: (title) => `History: ${title}`,
    version: (n) => new RegExp(`^Version ${n}`),
    restore: 'Restore this version',
    confirmTitle: (n) => `Restore version ${n}?`,
    confirmButton: (n) => `Restore version ${n}`,
    restored: (n) => `Version ${n} restored`,
    notifications: 'Notifications (F8)',
    edited: 'Edited',
    changedContent: 'Changed: Content',
    removedText: 'Removed text: ',
    addedText: 'Added text: ',
    content: 'Content',
  },
  ar: {
    management: 'إدارة المحتوى',
    history: (title) => `السجل ${title}`,
    historyTitle: (title) => `سجل النسخ: ${title}`,
    version: (n) => new RegExp(`^النسخة ${n}`),
    restore: 'استعادة هذه النسخة',
    confirmTitle: (n) => `استعادة النسخة ${n}؟`,
    confirmButton: (n) => `استعادة النسخة ${n}`,
    restored: (n) => `تمت استعادة النسخة ${n}`,
    notifications: 'الإشعارات (F8)',
    edited: 'عُدّل',
    changedContent: 'الحقول المعدلة: المحتوى',
    removedText: 'نص محذوف: ',
    addedText: 'نص مضاف: ',
    content: 'المحتوى',
  },
};

/** A signed-in admin on the home page who opens the overlay, in a language, at a width. */
const openOverlay = ({ lang = 'en', viewport = VIEWPORTS.desktop } = {}) =>
  overlayOn(browser, stack.url, { lang, viewport, session: token, pageErrors, dialog: TEXTS[lang].management });

const shot = (page, name) => page.screenshot({ path: path.join(SHOTS, `${name}.png`) });

/** An essay saved twice through the API: version 1 says the sea is grey, version 2 that it is blue. */
async function essayWithTwoVersions(title) {
  const created = await stack.call('POST', '/api/essays', {
    token,
    body: { title, excerpt: 'Short', content: 'The sea at Gaza is grey this morning.\nThe second line stays.' },
  });
  assert.equal(created.status, 201);
  const edited = await stack.call('PATCH', `/api/essays/${created.body.id}`, {
    token,
    body: { content: 'The sea at Gaza is blue this morning.\nThe second line stays.' },
  });
  assert.equal(edited.status, 200);
  return created.body.id;
}

for (const lang of ['en', 'ar']) {
  const T = TEXTS[lang];
  describe(`an essay's history (${lang})`, () => {
    it('lists the versions, shows the changed words between them and restores the older one, which is published', async () => {
      const title = `History essay ${lang}`;
      const id = await essayWithTwoVersions(title);
      const { page, overlay } = await openOverlay({ lang });
      assert.equal(await overlay.locator('.ao-root').getAttribute('dir'), lang === 'ar' ? 'rtl' : 'ltr');
      const management = overlay.getByRole('dialog', { name: T.management });
      await management.getByRole('tab', { name: lang === 'ar' ? 'المقالات' : 'Essays' }).click();
      await management.getByRole('button', { name: T.history(title) }).click();

      const dialog = overlay.getByRole('dialog', { name: T.historyTitle(title) });
      const newest = dialog.getByRole('button', { name: T.version(2) });
      await newest.waitFor();
      assert.equal(await newest.getAttribute('aria-pressed'), 'true');
      const entry = await newest.innerText();
      assert.ok(entry.includes(T.edited) && entry.includes(T.changedContent) && entry.includes('admin'), entry);

      const content = dialog.getByRole('region', { name: T.content });
      assert.equal(await content.locator('del').textContent(), `${T.removedText}grey`);
      assert.equal(await content.locator('ins').textContent(), `${T.addedText}blue`);
      await shot(page, `history-${lang}`);
      const axe = await new AxeBuilder({ page }).include('#admin-overlay-root').analyze();
      assert.deepEqual(
        axe.violations.map(
          (v) =>
            `${v.id}: ${v.nodes
              .map((n) => n.target.join(' '))
              .slice(0, 3)
              .join(', ')}`,
        ),
        [],
        'no accessibility violations in the history',
      );

      // Keyboard only: choose version 1, then restore it through the confirmation.
      await dialog.getByRole('button', { name: T.version(1) }).focus();
      await page.keyboard.press('Enter');
      await dialog.getByRole('button', { name: T.restore }).focus();
      await page.keyboard.press('Enter');
      const confirm = overlay.getByRole('dialog', { name: T.confirmTitle(1) });
      await confirm.waitFor();
      await shot(page, `restore-confirm-${lang}`);
      await confirm.getByRole('button', { name: T.confirmButton(1) }).click();
      await overlay.getByRole('region', { name: T.notifications }).getByText(T.restored(1), { exact: true }).waitFor();
      await confirm.waitFor({ state: 'detached' });

      // The restore is a new save: version 3, current, and what visitors get reads 'grey' again.
      const third = dialog.getByRole('button', { name: T.version(3) });
      await third.waitFor();
      assert.equal(await third.getAttribute('aria-pressed'), 'true');
      const essay = await stack.call('GET', `/api/essays/${id}`);
      assert.match(essay.body.content, /grey this morning/);
      const history = await stack.call('GET', `/api/admin/revisions/essays/${id}`, { token });
      assert.deepEqual(
        history.body.revisions.map((r) => [r.revision, r.action, r.restoredFrom]),
        [
          [3, 'revert', 1],
          [2, 'update', null],
          [1, 'create', null],
        ],
      );
      await shot(page, `history-restored-${lang}`);
      await page.context().close();
      // Published like any save: the essay's page, built from what the API now gives visitors.
      await stack.buildSite();
      const html = await (await fetch(`${stack.url}/essays/${id}`)).text();
      assert.match(html, /grey this morning/);
      assert.doesNotMatch(html, /blue this morning/);
    });
  });
}

describe('a play deleted for good', () => {
  it('is listed with its history and brought back from it, with its old address (Arabic, phone width)', async () => {
    await stack.call('POST', '/api/plays', { token, body: { title: 'A Kept Play', status: 'draft' } });
    const created = await stack.call('POST', '/api/plays', {
      token,
      body: { title: 'The Lost Play', status: 'published', content: 'Act one.' },
    });
    const id = created.body.id;
    assert.equal((await stack.call('DELETE', `/api/plays/${id}`, { token })).status, 204);

    const { page, overlay } = await openOverlay({ lang: 'ar', viewport: VIEWPORTS.phone });
    const management = overlay.getByRole('dialog', { name: TEXTS.ar.management });
    await management.getByRole('tab', { name: 'المسرحيات' }).click();
    await management.getByRole('button', { name: 'السجل A Kept Play' }).waitFor();
    await shot(page, 'plays-rows-ar-phone');
    await management.getByRole('button', { name: 'المحذوفة نهائيًا' }).click();
    const removed = overlay.getByRole('dialog', { name: 'المسرحيات المحذوفة نهائيًا' });
    await removed.getByRole('button', { name: 'السجل The Lost Play' }).click();
    const dialog = overlay.getByRole('dialog', { name: 'سجل النسخ: The Lost Play' });
    await dialog.getByText('حُذف هذا العنصر نهائيًا. استعد نسخة لإعادته.').waitFor();
    await shot(page, 'removed-play-ar-phone');

    await dialog.getByRole('button', { name: 'استعادة هذه النسخة' }).click();
    const confirm = overlay.getByRole('dialog', { name: 'استعادة النسخة 2؟' });
    await confirm.getByRole('button', { name: 'استعادة النسخة 2' }).click();
    await overlay.getByRole('region', { name: TEXTS.ar.notifications }).getByText('تمت استعادة النسخة 2', { exact: true }).waitFor();
    await removed.getByText('لم تُحذف أي مسرحية نهائيًا.').waitFor();

    const back = await stack.call('GET', `/api/plays/${id}`);
    assert.equal(back.status, 200);
    assert.equal(back.body.title, 'The Lost Play');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    await management.getByRole('rowheader', { name: /The Lost Play/ }).waitFor();
    await page.context().close();
  });

  it('leaves no script errors behind', () => {
    assert.deepEqual(pageErrors, []);
  });
});
