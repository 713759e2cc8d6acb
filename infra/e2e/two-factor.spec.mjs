// Two-factor sign-in in the admin overlay, in headless Chromium against the real stack: an admin
// sets it up from the overlay (the test reads the setup key the screen shows and makes the codes
// itself, as an authenticator app does), keeps the recovery codes, signs out, and signs in again
// with password and code; in English and in Arabic, at desktop and phone width.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';

import { AxeBuilder } from '@axe-core/playwright';

import { launchBrowser, openOverlay as overlayOn, VIEWPORTS } from './support/browser.mjs';
import { ADMIN, startStack } from './support/stack.mjs';

const SHOTS = process.env.E2E_SCREENSHOTS ?? path.join(os.tmpdir(), 'portfolio-e2e-screenshots', 'two-factor');

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

/** An authenticator app in a few lines (RFC 6238: HMAC-SHA-1, 6 digits, 30 s), apart from the API's own code. */
function totp(base32Key, step) {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const char of base32Key.replace(/\s+/g, '')) bits += alphabet.indexOf(char).toString(2).padStart(5, '0');
  const key = Buffer.from(bits.match(/.{8}/g).map((byte) => parseInt(byte, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const mac = createHmac('sha1', key).update(counter).digest();
  const offset = mac[mac.length - 1] & 15;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}
const stepNow = () => Math.floor(Date.now() / 30_000);

const TEXTS = {
  en: {
    login: 'Admin Login',
    username: 'Username',
    password: 'Password',
    signIn: 'Sign In',
    management: 'Content Management',
    open: 'Two-factor sign-in',
    start: 'Set up two-factor sign-in',
    qr: 'QR code to scan with your authenticator app',
    code: 'Code from the app',
    turnOn: 'Turn on',
    wrong: 'This code is not correct. Check your authenticator app and try again.',
    codes: 'Recovery codes',
    done: 'I have saved my codes',
    left: 'Recovery codes left: 10 of 10.',
    logout: 'Logout',
    loginCode: 'Authentication code',
    verify: 'Verify',
    used: 'This code has already been used. Wait for the next code in your authenticator app.',
    expired: 'This code has expired. Enter the code your authenticator app shows now.',
    users: 'Users',
    reset: 'Reset two-factor',
    resetDone: (name) => `Two-factor sign-in turned off for ${name}`,
    notifications: 'Notifications (F8)',
    twoFactorColumn: 'Two-factor',
  },
  ar: {
    login: 'تسجيل دخول المشرف',
    username: 'اسم المستخدم',
    password: 'كلمة المرور',
    signIn: 'تسجيل الدخول',
    management: 'إدارة المحتوى',
    open: 'التحقق بخطوتين',
    start: 'إعداد التحقق بخطوتين',
    qr: 'رمز \u2066QR\u2069 للمسح بتطبيق المصادقة',
    code: 'الرمز من التطبيق',
    turnOn: 'تفعيل',
    wrong: 'هذا الرمز غير صحيح. تحقق من تطبيق المصادقة وحاول مرة أخرى.',
    codes: 'رموز الاسترداد',
    done: 'حفظت الرموز',
    left: 'رموز الاسترداد المتبقية: 10 من 10.',
    logout: 'تسجيل الخروج',
    loginCode: 'رمز التحقق',
    verify: 'تحقق',
    used: 'استُخدم هذا الرمز من قبل. انتظر الرمز التالي في تطبيق المصادقة.',
    expired: 'انتهت صلاحية هذا الرمز. أدخل الرمز الذي يعرضه تطبيق المصادقة الآن.',
    users: 'المستخدمون',
    reset: 'إعادة تعيين التحقق بخطوتين',
    resetDone: (name) => `تم إيقاف التحقق بخطوتين للمستخدم ${name}`,
    notifications: 'الإشعارات (F8)',
    twoFactorColumn: 'التحقق بخطوتين',
  },
};

const openOverlay = (lang, viewport) => overlayOn(browser, stack.url, { lang, viewport, pageErrors });

async function signIn(overlay, t, username, password) {
  const dialog = overlay.getByRole('dialog', { name: t.login });
  await dialog.getByLabel(t.username).fill(username);
  await dialog.getByRole('textbox', { name: t.password }).fill(password);
  await dialog.getByRole('button', { name: t.signIn }).click();
}

const shot = (page, name) => page.screenshot({ path: path.join(SHOTS, `${name}.png`) });

/** axe-core's violations inside the overlay, as short lines. */
async function axeViolations(page) {
  const result = await new AxeBuilder({ page }).include('#admin-overlay-root').analyze();
  return result.violations.map(
    (v) =>
      `${v.id}: ${v.nodes
        .map((n) => n.target.join(' '))
        .slice(0, 3)
        .join(', ')}`,
  );
}

for (const lang of ['en', 'ar']) {
  const t = TEXTS[lang];
  describe(`two-factor sign-in (${lang})`, () => {
    const username = `two-factor-${lang}`;
    const password = `two-factor-pass-${lang}`;
    let setupKey;
    let confirmStep;

    before(async () => {
      const res = await stack.call('POST', '/api/admin/users', {
        token,
        body: { username, email: `${username}@example.test`, name: `Admin ${lang}`, password },
      });
      assert.equal(res.status, 201);
    });

    it('sets it up from the overlay: QR code, setup key, a first code, then the recovery codes', async () => {
      const { page, overlay } = await openOverlay(lang, VIEWPORTS.desktop);
      assert.equal(await page.evaluate(() => document.documentElement.dir), lang === 'ar' ? 'rtl' : 'ltr');
      await signIn(overlay, t, username, password);
      const management = overlay.getByRole('dialog', { name: t.management });
      await management.getByRole('button', { name: t.open }).click();
      const dialog = overlay.getByRole('dialog', { name: t.open });
      await dialog.getByRole('button', { name: t.start }).click();

      const qr = dialog.getByRole('img', { name: t.qr });
      await qr.waitFor();
      assert.ok(await qr.evaluate((img) => img.complete && img.naturalWidth > 0), 'the QR code is drawn');
      setupKey = (await dialog.getByTestId('setup-key').innerText()).replace(/\s+/g, '');
      assert.match(setupKey, /^[A-Z2-7]{32}$/);
      await shot(page, `setup-${lang}`);
      assert.deepEqual(await axeViolations(page), [], 'setup screen');

      const now = stepNow();
      const wrong = totp(setupKey, now + 5);
      await dialog.getByLabel(t.code).fill(wrong);
      await dialog.getByRole('button', { name: t.turnOn }).click();
      await dialog.getByText(t.wrong, { exact: true }).waitFor();

      confirmStep = stepNow();
      await dialog.getByLabel(t.code).fill(totp(setupKey, confirmStep));
      await dialog.getByRole('button', { name: t.turnOn }).click();
      const codes = dialog.getByRole('list', { name: t.codes });
      await codes.waitFor();
      const recovery = await codes.getByRole('listitem').allInnerTexts();
      assert.equal(recovery.length, 10);
      for (const code of recovery) assert.match(code.trim(), /^[a-z2-9]{4}(-[a-z2-9]{4}){3}$/);
      await shot(page, `recovery-codes-${lang}`);
      assert.deepEqual(await axeViolations(page), [], 'recovery codes');

      await dialog.getByRole('button', { name: t.done }).click();
      await dialog.getByText(t.left, { exact: true }).waitFor();
      await shot(page, `enabled-${lang}`);
      await page.keyboard.press('Escape');

      await management.getByRole('tab', { name: t.users }).click();
      const row = management.getByRole('row').filter({ hasText: username });
      await row.waitFor();
      await shot(page, `users-${lang}`);
      await management.getByRole('button', { name: t.logout }).click();
      await overlay.getByRole('dialog', { name: t.login }).waitFor();
      await page.context().close();
    });

    it('signs in with the password and then a code from the app, at phone width', async () => {
      assert.ok(setupKey, 'set up in the test before');
      const { page, overlay } = await openOverlay(lang, VIEWPORTS.phone);
      await signIn(overlay, t, username, password);
      const dialog = overlay.getByRole('dialog', { name: t.login });
      const field = dialog.getByLabel(t.loginCode);
      await field.waitFor();
      assert.equal(await page.evaluate(() => localStorage.getItem('admin_session')), null, 'no session after the password alone');
      await shot(page, `code-step-${lang}-phone`);
      assert.deepEqual(await axeViolations(page), [], 'code step');
      assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'no sideways scrolling');

      // The code that turned it on was used: refused as a replay (or as expired on a very slow run).
      await field.fill(totp(setupKey, confirmStep));
      const expected = stepNow() - confirmStep <= 1 ? t.used : t.expired;
      await dialog.getByRole('button', { name: t.verify }).click();
      await dialog.getByRole('alert').getByText(expected, { exact: true }).waitFor();
      await shot(page, `code-refused-${lang}-phone`);

      // The next step's code: within the one-step window, newer than any code used.
      await field.fill(totp(setupKey, stepNow() + 1));
      await dialog.getByRole('button', { name: t.verify }).click();
      await overlay.getByRole('dialog', { name: t.management }).waitFor();
      assert.ok(await page.evaluate(() => Boolean(localStorage.getItem('admin_session'))));
      await overlay.getByRole('dialog', { name: t.management }).getByRole('button', { name: t.open }).click();
      await overlay.getByRole('dialog', { name: t.open }).getByText(t.left, { exact: true }).waitFor();
      await shot(page, `enabled-${lang}-phone`);
      assert.deepEqual(await axeViolations(page), [], 'two-factor screen when on');
      await page.context().close();
    });

    it('another admin turns it off from the users screen; then the password alone signs in', async () => {
      const { page, overlay } = await openOverlay(lang, VIEWPORTS.phone);
      await signIn(overlay, t, ADMIN.username, ADMIN.password);
      const management = overlay.getByRole('dialog', { name: t.management });
      await management.getByRole('tab', { name: t.users }).click();
      const reset = management.getByRole('button', { name: `${t.reset} ${username}` });
      await reset.waitFor();
      page.once('dialog', (dialog) => dialog.accept());
      await reset.click();
      await overlay
        .getByRole('region', { name: t.notifications })
        .getByText(t.resetDone(`Admin ${lang}`), { exact: true })
        .waitFor();
      await reset.waitFor({ state: 'detached' });
      await shot(page, `users-reset-${lang}-phone`);
      const login = await stack.call('POST', '/api/admin/login', { body: { username, password } });
      assert.equal(login.status, 200);
      assert.ok(login.body.sessionId);
      await page.context().close();
    });
  });
}

describe('no page errors', () => {
  it('the overlay threw nothing', () => assert.deepEqual(pageErrors, []));
});
