// The admin overlay in headless Chromium against the real stack: the site's Admin button loads
// the overlay bundle from the API, which serves it beside /api.
import assert from 'node:assert/strict';
import { mkdir, readdir, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { crc32, deflateSync } from 'node:zlib';

import { AxeBuilder } from '@axe-core/playwright';

import { until } from '../test/support/wait.mjs';
import { launchBrowser, openOverlay as overlayOn, VIEWPORTS } from './support/browser.mjs';
import { ADMIN, startStack } from './support/stack.mjs';

/** Screenshots to look at after a run. */
const SHOTS = process.env.E2E_SCREENSHOTS ?? path.join(os.tmpdir(), 'portfolio-e2e-screenshots', 'admin');

let stack;
let browser;
let token;
const pageErrors = [];

before(async () => {
  stack = await startStack();
  token = await stack.login();
  await stack.buildSite();
  browser = await launchBrowser();
  await mkdir(SHOTS, { recursive: true });
});
after(async () => {
  await browser?.close();
  await stack?.stop();
});

/** A solid-colour PNG, so the upload is a real image as the API checks the bytes. */
function png(width, height, [r, g, b]) {
  const chunk = (type, data) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => [r, g, b]).flat())]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', pixels),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

/**
 * A fresh visitor on the home page who clicks Admin; signed in already when `session` is given.
 * Returns the page and the overlay (the host element whose shadow root holds it).
 */
const openOverlay = ({ lang = 'en', viewport = VIEWPORTS.desktop, session } = {}) =>
  overlayOn(browser, stack.url, { lang, viewport, session, pageErrors });

async function signIn(overlay, username, password) {
  const dialog = overlay.getByRole('dialog', { name: 'Admin Login' });
  await dialog.getByLabel('Username').fill(username);
  await dialog.getByRole('textbox', { name: 'Password' }).fill(password);
  await dialog.getByRole('button', { name: 'Sign In' }).click();
}

/** Waits for a toast with exactly this text in the overlay's notification region. */
const toast = (overlay, text) => overlay.getByRole('region', { name: 'Notifications (F8)' }).getByText(text, { exact: true }).waitFor();

const management = (overlay) => overlay.getByRole('dialog', { name: 'Content Management' });

async function openTab(overlay, name) {
  await management(overlay).getByRole('tab', { name }).click();
  await management(overlay).getByRole('tabpanel').getByRole('heading').waitFor();
}

const shot = (page, name) => page.screenshot({ path: path.join(SHOTS, `${name}.png`) });

describe('signing in and out', () => {
  it("refuses a wrong password with 'Invalid username or password', signs in, remembers the session, logs out", async () => {
    const { page, overlay } = await openOverlay();
    await signIn(overlay, ADMIN.username, 'not-the-password');
    const alert = overlay.getByRole('alert');
    await alert.waitFor();
    assert.equal((await alert.innerText()).trim(), 'Invalid username or password');

    await signIn(overlay, ADMIN.username, ADMIN.password);
    await management(overlay).waitFor();
    assert.ok(
      await management(overlay)
        .getByText(/^Welcome, /)
        .isVisible(),
    );
    assert.ok(await page.evaluate(() => Boolean(localStorage.getItem('admin_session'))));

    // Esc closes the overlay and the site puts focus back on its Admin button.
    await page.keyboard.press('Escape');
    await overlay.waitFor({ state: 'detached' });
    assert.ok(await page.evaluate(() => document.activeElement?.hasAttribute('data-admin-button')));

    // The stored session is checked when the overlay opens again: no login needed.
    await page.locator('astro-island:not([ssr]) [data-admin-button]').first().click();
    await management(overlay).waitFor();
    await management(overlay).getByRole('button', { name: 'Logout' }).click();
    await overlay.getByRole('dialog', { name: 'Admin Login' }).waitFor();
    assert.equal(await page.evaluate(() => localStorage.getItem('admin_session')), null);
    await page.context().close();
  });

  it('shows the required-field messages and keeps focus inside the dialog', async () => {
    const { page, overlay } = await openOverlay();
    const dialog = overlay.getByRole('dialog', { name: 'Admin Login' });
    assert.ok(await dialog.getByLabel('Username').evaluate((input) => input.getRootNode().activeElement === input), 'username has focus');
    await page.keyboard.press('Enter');
    await dialog.getByText('Username is required').waitFor();
    await dialog.getByText('Password is required').waitFor();
    for (let i = 0; i < 6; i++) await page.keyboard.press('Tab');
    assert.ok(await dialog.evaluate((d) => d.contains(d.getRootNode().activeElement)), 'focus stays in the dialog');
    await page.context().close();
  });
});

describe('books', () => {
  it('creates a book with a review and an uploaded cover, edits it, moves it to trash and restores it', async () => {
    const { page, overlay } = await openOverlay({ session: token });
    const panel = management(overlay).getByRole('tabpanel');
    await panel.getByRole('rowheader').first().waitFor();
    await panel.getByRole('button', { name: 'Add Book' }).click();

    const form = overlay.getByRole('dialog', { name: 'Add New Book' });
    assert.equal(await form.getByLabel('Language', { exact: true }).inputValue(), 'Arabic');
    assert.equal(await form.getByLabel('Year', { exact: true }).inputValue(), String(new Date().getFullYear()));
    await form.getByLabel('Title', { exact: true }).fill('E2E Cover Book');
    await form.getByLabel('Description', { exact: true }).fill('A book made by the browser test.');
    await form.getByLabel('Publisher', { exact: true }).fill('E2E Press');
    await form.getByLabel('Pages', { exact: true }).fill('212');

    await form.getByRole('tablist', { name: 'Cover Image' }).getByRole('tab', { name: 'Upload' }).click();
    await form
      .locator('input[type="file"][accept="image/*"]')
      .setInputFiles({ name: 'cover.png', mimeType: 'image/png', buffer: png(60, 90, [122, 46, 29]) });
    await toast(overlay, 'Image uploaded successfully');
    await toast(overlay, 'Saved to books');
    const cover = await form.getByRole('textbox', { name: 'Cover Image' }).inputValue();
    assert.match(cover, /^\/uploads\/books\//);
    await form.getByRole('img', { name: 'Preview' }).waitFor();

    await form.getByRole('button', { name: 'Add First Review' }).click();
    const review = form.getByRole('group', { name: 'Review 1' });
    await review.getByLabel('Review Title').fill('The Press Review');
    await review.getByRole('textbox', { name: 'Link' }).fill('https://example.com/press-review');
    await review.getByRole('tab', { name: 'Upload' }).click();
    await review.getByText('For file uploads, please use the main file upload system in the admin panel').waitFor();
    await form.getByRole('button', { name: 'Add Review' }).waitFor();
    await shot(page, 'en-desktop-book-form');

    await form.getByRole('button', { name: 'Create' }).click();
    await toast(overlay, 'Book created successfully');
    await form.waitFor({ state: 'detached' });
    await panel.getByRole('rowheader', { name: 'E2E Cover Book' }).waitFor();
    await management(overlay).getByText('Changes saved. Publishing to the public site is not set up.').waitFor();

    const created = (await stack.call('GET', '/api/books', { token })).body.find((b) => b.title === 'E2E Cover Book');
    assert.equal(created.coverImage, cover);
    assert.equal(created.pages, 212);
    assert.deepEqual(created.reviews, [JSON.stringify({ title: 'The Press Review', url: 'https://example.com/press-review' })]);
    assert.equal((await fetch(stack.url + cover)).headers.get('content-type'), 'image/png');

    await panel.getByRole('button', { name: 'Edit E2E Cover Book' }).click();
    const edit = overlay.getByRole('dialog', { name: 'Edit Book' });
    assert.equal(await edit.getByRole('group', { name: 'Review 1' }).getByLabel('Review Title').inputValue(), 'The Press Review');
    await edit.getByLabel('Title', { exact: true }).fill('E2E Cover Book (2nd edition)');
    await edit.getByRole('button', { name: 'Update' }).click();
    await toast(overlay, 'Book updated successfully');
    const row = panel.getByRole('rowheader', { name: 'E2E Cover Book (2nd edition)' });
    await row.waitFor();

    await panel.getByRole('button', { name: 'Delete E2E Cover Book (2nd edition)' }).click();
    await toast(overlay, 'Book moved to trash');
    await row.waitFor({ state: 'detached' });

    await panel.getByRole('switch', { name: 'Show Deleted' }).check();
    await row.waitFor();
    assert.equal(
      await panel.getByRole('button', { name: 'Edit E2E Cover Book (2nd edition)' }).count(),
      0,
      'deleted books cannot be edited',
    );
    await panel.getByText('Deleted books cannot be edited. Restore the book first.').waitFor();
    await panel.getByRole('button', { name: 'Restore E2E Cover Book (2nd edition)' }).click();
    await toast(overlay, 'Book restored successfully');
    await row.waitFor({ state: 'detached' });
    await panel.getByRole('switch', { name: 'Show Deleted' }).uncheck();
    await row.waitFor();
    await page.context().close();
  });
});

describe('plays', () => {
  it('creates a play with an uploaded PDF and deletes it for good after the confirmation', async () => {
    const { page, overlay } = await openOverlay({ session: token });
    await openTab(overlay, 'Plays');
    const panel = management(overlay).getByRole('tabpanel');
    await panel.getByRole('button', { name: 'Add Play' }).click();
    const form = overlay.getByRole('dialog', { name: 'Add New Play' });
    assert.equal(await form.getByLabel('Type', { exact: true }).inputValue(), 'original');
    assert.equal(await form.getByLabel('Status', { exact: true }).inputValue(), 'draft');
    await form.getByLabel('Title', { exact: true }).fill('E2E Play');
    await form.getByLabel('Status', { exact: true }).selectOption('performed');
    await form.getByRole('tablist', { name: 'Script PDF' }).getByRole('tab', { name: 'Upload' }).click();
    await form.locator('input[type="file"]').setInputFiles({ name: 'script.pdf', mimeType: 'application/pdf', buffer: PDF });
    await toast(overlay, 'PDF uploaded successfully');
    assert.match(await form.getByRole('textbox', { name: 'Script PDF' }).inputValue(), /^\/uploads\/plays\/.+\.pdf$/);
    await form.getByRole('button', { name: 'Create' }).click();
    await toast(overlay, 'Play created successfully');
    const row = panel.getByRole('rowheader', { name: 'E2E Play' });
    await row.waitFor();
    const id = (await stack.call('GET', '/api/plays', { token })).body.find((p) => p.title === 'E2E Play').id;

    const asked = [];
    page.once('dialog', (dialog) => {
      asked.push(dialog.message());
      void dialog.dismiss();
    });
    await panel.getByRole('button', { name: 'Delete E2E Play' }).click();
    assert.deepEqual(asked, ['Are you sure you want to delete this play?']);
    assert.equal((await stack.call('GET', `/api/plays/${id}`, { token })).status, 200, 'cancelled: still there');

    page.once('dialog', (dialog) => void dialog.accept());
    await panel.getByRole('button', { name: 'Delete E2E Play' }).click();
    await toast(overlay, 'Play deleted successfully');
    await row.waitFor({ state: 'detached' });
    assert.equal((await stack.call('GET', `/api/plays/${id}`, { token })).status, 404);
    await page.context().close();
  });
});

describe('news', () => {
  it('creates news with the Published checkbox, which starts unchecked', async () => {
    const { page, overlay } = await openOverlay({ session: token });
    await openTab(overlay, 'News');
    await management(overlay).getByRole('tabpanel').getByRole('button', { name: 'Add News' }).click();
    const form = overlay.getByRole('dialog', { name: 'Add New News' });
    const published = form.getByRole('checkbox', { name: 'Published' });
    assert.equal(await published.isChecked(), false);
    await form.getByRole('button', { name: 'Create' }).click();
    assert.equal(await form.getByText('Required', { exact: true }).count(), 4);
    await form.getByLabel('Title', { exact: true }).fill('E2E News');
    await form.getByLabel('Excerpt', { exact: true }).fill('Short.');
    await form.getByLabel('Content', { exact: true }).fill('The full news text.');
    await form.getByLabel('Category', { exact: true }).selectOption('award');
    await published.check();
    await form.getByRole('button', { name: 'Create' }).click();
    await toast(overlay, 'News created successfully');
    await form.waitFor({ state: 'detached' });
    await management(overlay).getByRole('tabpanel').getByRole('rowheader', { name: 'E2E News' }).waitFor();
    const publicNews = (await stack.call('GET', '/api/news')).body;
    assert.ok(
      publicNews.some((n) => n.title === 'E2E News' && n.published),
      'published news is public',
    );
    await page.context().close();
  });
});

describe('contacts', () => {
  it('reads a message, marks it read and deletes it', async () => {
    const sent = await stack.call('POST', '/api/contacts', {
      body: { name: 'Layla', email: 'layla@example.com', subject: 'E2E question', message: 'Is the book out in English?' },
    });
    assert.equal(sent.status, 201);
    const { page, overlay } = await openOverlay({ session: token });
    await openTab(overlay, 'Contacts');
    const panel = management(overlay).getByRole('tabpanel');
    await panel.getByRole('button', { name: 'View E2E question' }).click();
    const message = overlay.getByRole('dialog', { name: 'E2E question' });
    await message.getByText('Is the book out in English?').waitFor();
    await message.getByRole('button', { name: 'Mark as Read' }).click();
    await toast(overlay, 'Contact marked as read');
    await message.getByRole('button', { name: 'Mark as Read' }).waitFor({ state: 'detached' });
    await message.getByRole('button', { name: 'Delete' }).click();
    await toast(overlay, 'Contact deleted successfully');
    await message.waitFor({ state: 'detached' });
    await panel.getByRole('button', { name: 'View E2E question' }).waitFor({ state: 'detached' });
    const contacts = (await stack.call('GET', '/api/contacts', { token })).body;
    assert.ok(!contacts.some((c) => c.subject === 'E2E question'));
    await page.context().close();
  });
});

describe('users', () => {
  it('adds a user, who can sign in until deactivated', async () => {
    const { page, overlay } = await openOverlay({ session: token });
    await openTab(overlay, 'Users');
    const panel = management(overlay).getByRole('tabpanel');
    assert.equal(
      await panel
        .getByRole('rowheader')
        .filter({ hasText: /^Site Administrator/ })
        .count(),
      0,
      'the superadmin is not listed',
    );
    await panel.getByRole('button', { name: 'Add User' }).click();
    const form = overlay.getByRole('dialog', { name: 'Add New User' });
    await form.getByLabel('Username', { exact: true }).fill('e2e-editor');
    await form.getByLabel('Email', { exact: true }).fill('e2e-editor@example.com');
    await form.getByLabel('Name', { exact: true }).fill('E2E Editor');
    await form.getByRole('textbox', { name: 'Password' }).fill('short');
    await form.getByRole('button', { name: 'Add User' }).click();
    await form.getByText('Password must be at least 6 characters').waitFor();
    await form.getByRole('textbox', { name: 'Password' }).fill('editor-pass-1');
    await form.getByRole('button', { name: 'Add User' }).click();
    await toast(overlay, 'User added successfully');
    await panel.getByRole('rowheader', { name: 'E2E Editor' }).waitFor();
    assert.equal(
      (await stack.call('POST', '/api/admin/login', { body: { username: 'e2e-editor', password: 'editor-pass-1' } })).status,
      200,
    );

    await panel.getByRole('button', { name: 'Deactivate e2e-editor' }).click();
    await toast(overlay, 'User status updated successfully');
    await panel.getByRole('button', { name: 'Activate e2e-editor' }).waitFor();
    await page.context().close();

    const second = await openOverlay();
    await signIn(second.overlay, 'e2e-editor', 'editor-pass-1');
    const alert = second.overlay.getByRole('alert');
    await alert.waitFor();
    assert.equal((await alert.innerText()).trim(), 'Invalid username or password');
    await second.page.context().close();
  });
});

describe('password reset by e-mail', () => {
  it('sends a link that opens the reset screen; the new password works', async () => {
    await stack.call('POST', '/api/admin/users', {
      token,
      body: { username: 'e2e-forgetful', email: 'forgetful@example.com', name: 'Forgetful', password: 'old-pass-1' },
    });
    const { page, overlay } = await openOverlay();
    await overlay.getByRole('button', { name: 'Forgot password?' }).click();
    const forgot = overlay.getByRole('dialog', { name: 'Forgot Password' });
    await forgot.getByLabel('Email').fill('forgetful@example.com');
    await forgot.getByRole('button', { name: 'Send Reset Link' }).click();
    await forgot.getByText('If this address belongs to an admin, a reset link has been sent to it.').waitFor();
    await page.context().close();

    // The mail is queued and written just after the answer.
    const mailDir = path.join(stack.varDir, 'mail');
    const link = await until('the reset mail', async () => {
      const files = await readdir(mailDir).catch(() => []);
      const mails = await Promise.all(files.map((file) => readFile(path.join(mailDir, file), 'utf8')));
      return mails
        .filter((mail) => mail.includes('To: forgetful@example.com'))
        .join('\n')
        .match(/http\S+#reset-password=[\w-]{43}/)?.[0];
    });

    const visitor = await browser.newPage();
    await visitor.goto(link, { waitUntil: 'networkidle' });
    const reset = visitor.locator('#admin-overlay-root').getByRole('dialog', { name: 'Reset Password' });
    await reset.waitFor();
    assert.equal(new URL(visitor.url()).hash, '', 'the token leaves the address bar');
    await reset.getByRole('textbox', { name: 'New Password' }).fill('new-pass-1');
    await reset.getByRole('textbox', { name: 'Confirm Password' }).fill('new-pass-2');
    await reset.getByRole('button', { name: 'Reset Password' }).click();
    await reset.getByText("Passwords don't match").waitFor();
    await reset.getByRole('textbox', { name: 'Confirm Password' }).fill('new-pass-1');
    await reset.getByRole('button', { name: 'Reset Password' }).click();
    const login = visitor.locator('#admin-overlay-root').getByRole('dialog', { name: 'Admin Login' });
    await login.getByText('Your password has been reset. You can sign in now.').waitFor();
    await signIn(visitor.locator('#admin-overlay-root'), 'e2e-forgetful', 'new-pass-1');
    await management(visitor.locator('#admin-overlay-root')).getByText('Welcome, Forgetful').waitFor();
    await visitor.context().close();
  });
});

describe('languages, phone width and accessibility', () => {
  for (const lang of ['en', 'ar']) {
    for (const size of ['desktop', 'phone']) {
      it(`${lang} at ${size} width: mirrored, fits the screen, no accessibility violations`, async () => {
        const name = `${lang}-${size}`;
        const { page, overlay } = await openOverlay({ lang, viewport: VIEWPORTS[size] });
        const root = overlay.locator('.ao-root');
        assert.equal(await root.getAttribute('lang'), lang);
        assert.equal(await root.getAttribute('dir'), lang === 'ar' ? 'rtl' : 'ltr');
        await shot(page, `${name}-login`);
        const loginAxe = await new AxeBuilder({ page }).include('#admin-overlay-root').analyze();

        await overlay.getByRole('textbox').first().fill(ADMIN.username);
        await overlay.locator('input[autocomplete="current-password"]').fill(ADMIN.password);
        await page.keyboard.press('Enter');
        await overlay.getByRole('rowheader').first().waitFor();
        assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'no sideways scrolling');
        await shot(page, `${name}-books`);
        const listAxe = await new AxeBuilder({ page }).include('#admin-overlay-root').analyze();

        await overlay.getByRole('tab').nth(4).click();
        await overlay.getByRole('tabpanel').getByRole('rowheader').first().waitFor();
        await overlay
          .getByRole('tabpanel')
          .getByRole('button')
          .filter({ hasText: lang === 'en' ? 'Add News' : 'إضافة خبر' })
          .click();
        await overlay.getByRole('dialog').nth(1).waitFor();
        await shot(page, `${name}-news-form`);
        const formAxe = await new AxeBuilder({ page }).include('#admin-overlay-root').analyze();

        const violations = [loginAxe, listAxe, formAxe].flatMap((result) =>
          result.violations.map(
            (v) =>
              `${v.id}: ${v.nodes
                .map((n) => n.target.join(' '))
                .slice(0, 3)
                .join(', ')}`,
          ),
        );
        assert.deepEqual(violations, [], name);
        await page.context().close();
      });
    }
  }
});

/** The overlay's words these tests use, in both languages (admin-ui/src/i18n/en.ts, ar.ts). */
const WORDS = {
  en: {
    close: 'Close',
    showPassword: 'Show password',
    login: 'Admin Login',
    plays: 'Plays',
    addPlay: 'Add Play',
    newPlay: 'Add New Play',
    title: 'Title',
    create: 'Create',
    notifications: 'Notifications (F8)',
  },
  ar: {
    close: 'إغلاق',
    showPassword: 'إظهار كلمة المرور',
    login: 'تسجيل دخول المشرف',
    plays: 'المسرحيات',
    addPlay: 'إضافة مسرحية',
    newPlay: 'إضافة مسرحية جديدة',
    title: 'العنوان',
    create: 'إنشاء',
    notifications: 'الإشعارات (F8)',
  },
};

/** Whether what the user sees at the middle of `locator` is that element: nothing covers it. */
const uncovered = (locator) =>
  locator.evaluate((element) => {
    const box = element.getBoundingClientRect();
    const hit = element.getRootNode().elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
    return element.contains(hit);
  });

describe('tooltips of icon-only controls (specification §9)', () => {
  for (const lang of ['en', 'ar']) {
    for (const size of ['desktop', 'phone']) {
      it(`${lang} at ${size} width: show on keyboard focus, in the interface language, Esc hides them`, async () => {
        const words = WORDS[lang];
        const { page, overlay } = await openOverlay({ lang, viewport: VIEWPORTS[size] });
        const dialog = overlay.getByRole('dialog', { name: words.login });
        const close = dialog.getByRole('button', { name: words.close });

        if (size === 'desktop') {
          // Hover: no tooltip before 700 ms (none has opened yet, so there is no skip window).
          await page.mouse.move(1, 1);
          const hovered = Date.now();
          await close.hover();
          await overlay.getByRole('tooltip', { name: words.close }).waitFor();
          assert.ok(Date.now() - hovered >= 700, `opened after ${Date.now() - hovered} ms`);
          await page.mouse.move(1, 1);
          await overlay.getByRole('tooltip').waitFor({ state: 'hidden' });
        }

        // Keyboard: from the focused username field back to the dialog's close button.
        await page.keyboard.press('Shift+Tab');
        assert.ok(await close.evaluate((b) => b.getRootNode().activeElement === b), 'the close button has focus');
        const closeTip = overlay.getByRole('tooltip', { name: words.close });
        await closeTip.waitFor();
        const box = await closeTip.boundingBox();
        assert.ok(box.x >= 0 && box.x + box.width <= VIEWPORTS[size].width && box.y >= 0, 'the tooltip is on screen');

        // Esc hides the tooltip only: the dialog stays, focus stays.
        await page.keyboard.press('Escape');
        await closeTip.waitFor({ state: 'hidden' });
        assert.ok(await dialog.isVisible(), 'the dialog is still open');
        assert.ok(await close.evaluate((b) => b.getRootNode().activeElement === b), 'focus did not move');

        await page.keyboard.press('Tab');
        await page.keyboard.press('Tab');
        await page.keyboard.press('Tab');
        const eye = dialog.getByRole('button', { name: words.showPassword });
        assert.ok(await eye.evaluate((b) => b.getRootNode().activeElement === b), 'the show-password button has focus');
        await overlay.getByRole('tooltip', { name: words.showPassword }).waitFor();
        await shot(page, `${lang}-${size}-tooltip`);
        await page.context().close();
      });
    }
  }
});

describe('a toast beside a dialog', () => {
  for (const lang of ['en', 'ar']) {
    for (const size of ['desktop', 'phone']) {
      it(`${lang} at ${size} width: an error toast leaves the form's buttons clickable, passes axe, and its "500: boom" reads in order`, async () => {
        const words = WORDS[lang];
        const { page, overlay } = await openOverlay({ lang, viewport: VIEWPORTS[size], session: token });
        let refused = 0;
        await page.route('**/api/plays', (route) => {
          if (route.request().method() !== 'POST') return route.continue();
          refused++;
          return route.fulfill({ status: 500, json: { statusCode: 500, message: 'boom' } });
        });
        const dashboard = overlay.getByRole('dialog').first();
        await dashboard.getByRole('tab', { name: words.plays }).click();
        await dashboard.getByRole('tabpanel').getByRole('button', { name: words.addPlay }).click();
        const form = overlay.getByRole('dialog', { name: words.newPlay });
        await form.getByLabel(words.title, { exact: true }).fill('E2E Toast Play');
        const create = form.getByRole('button', { name: words.create });
        await create.click();

        const failure = overlay.getByRole('region', { name: words.notifications }).getByRole('alert');
        await failure.waitFor();
        // Resting the pointer on the toast keeps it on screen while its neighbours are checked.
        await failure.hover();
        await shot(page, `${lang}-${size}-toast-over-form`);
        const axe = await new AxeBuilder({ page }).include('#admin-overlay-root').analyze();
        assert.deepEqual(
          axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
          [],
          'axe, with the toast shown',
        );
        // The technical part keeps its own order in Arabic too: "500" before (left of) "boom".
        const detail = failure.locator('bdi');
        assert.equal(await detail.innerText(), '500: boom');
        const [status, server] = await detail.evaluate((bdi) =>
          ['500', 'boom'].map((part) => {
            const text = bdi.firstChild;
            const range = document.createRange();
            range.setStart(text, text.data.indexOf(part));
            range.setEnd(text, text.data.indexOf(part) + part.length);
            return range.getBoundingClientRect().left;
          }),
        );
        assert.ok(status < server, `"500" shows left of "boom" (${status} < ${server})`);
        for (const button of await form.getByRole('button').all()) {
          if (!(await button.isVisible())) continue;
          if (await button.evaluate((b) => b.closest('.ao-form-footer, .ao-dialog-header') !== null)) {
            assert.ok(await uncovered(button), `'${await button.innerText()}' is not covered by the toast`);
          }
        }
        // A real click (Playwright waits until nothing covers the button) reaches the form again.
        const answered = page.waitForResponse(
          (response) => response.url().endsWith('/api/plays') && response.request().method() === 'POST',
        );
        await create.click();
        await answered;
        assert.equal(refused, 2);
        await page.context().close();
      });
    }
  }
});

describe('the page', () => {
  it('had no script errors', () => {
    assert.deepEqual(pageErrors, []);
  });
});
