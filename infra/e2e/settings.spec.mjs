// Site settings, in headless Chromium against the real embedded product (infra/start.mjs: the built
// API and the builder, publishing through the renderer): the author's biography edited in the
// overlay's Settings tab, in English and in Arabic, is live on the site after the publish that the
// save queues (the pages are polled, never waited for by a sleep), on the specification's address
// in either language choice and on the Arabic address. Also: the tab at phone width in Arabic, and
// axe finds no violations in it.
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';

import { AxeBuilder } from '@axe-core/playwright';

import { startProduct } from '../test/support/product.mjs';
import { freePort, until as waitUntil } from '../test/support/wait.mjs';
import { launchBrowser, openOverlay as overlayOn, VIEWPORTS } from './support/browser.mjs';
import { ADMIN } from './support/stack.mjs';

/** Publishing through the builder can take a while on a busy machine. */
const until = (what, check, timeoutMs = 120_000) => waitUntil(what, check, timeoutMs, 100);

const SHOTS = process.env.E2E_SCREENSHOTS ?? path.join(os.tmpdir(), 'portfolio-e2e-screenshots', 'settings');

let product;
let varDir;
let url;
let token;
let browser;
const pageErrors = [];

before(async () => {
  varDir = await mkdtemp(path.join(os.tmpdir(), 'portfolio-e2e-settings-'));
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  product = await startProduct({
    varDir,
    port,
    env: {
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
      SEED_DEMO: 'true',
      PUBLIC_URL: url,
      PUBLISH_QUIET_MS: '200',
      // First-start values of the settings: the site shows them until the overlay changes them.
      SITE_AUTHOR_NAME: 'Nour Haddad',
      SITE_AUTHOR_NAME_AR: 'نور حداد',
    },
  });
  const res = await fetch(`${url}/api/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  token = (await res.json()).sessionId;
  browser = await launchBrowser();
  await mkdir(SHOTS, { recursive: true });
});

after(async () => {
  await browser?.close();
  await product?.stop();
  if (varDir) await rm(varDir, { recursive: true, force: true });
  assert.deepEqual(pageErrors, []);
});

const html = async (route) => (await fetch(url + route)).text();
const shot = (page, name) => page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: false });

const TEXTS = {
  en: {
    management: 'Content Management',
    tab: 'Settings',
    form: 'Site settings',
    bioEn: "Biography, 'A Voice from Gaza' (English)",
    bioAr: "Biography, 'A Voice from Gaza' (Arabic)",
    nameAr: 'Author name (Arabic)',
    save: 'Save settings',
    saved: 'Settings saved',
    live: /Changes are live on the site/,
    liveDetail: /Changes are live on the site\. Pages updated: \d+\. Live [\d.]+ s after your save\./,
  },
  ar: {
    management: 'إدارة المحتوى',
    tab: 'الإعدادات',
    form: 'إعدادات الموقع',
    bioEn: 'السيرة، «صوتٌ من غزة» (بالإنجليزية)',
    bioAr: 'السيرة، «صوتٌ من غزة» (بالعربية)',
    nameAr: 'اسم الكاتبة (بالعربية)',
    save: 'حفظ الإعدادات',
    saved: 'تم حفظ الإعدادات',
    live: /التغييرات منشورة على الموقع/,
  },
};

/** A signed-in admin on the home page opens the overlay's Settings tab, in a language, at a width. */
async function openSettings({ lang, viewport }) {
  const { page, overlay } = await overlayOn(browser, url, { lang, viewport, session: token, pageErrors, dialog: TEXTS[lang].management });
  const management = overlay.getByRole('dialog', { name: TEXTS[lang].management });
  await management.getByRole('tab', { name: TEXTS[lang].tab }).click();
  const form = management.getByRole('form', { name: TEXTS[lang].form });
  await form.waitFor();
  return { page, overlay, management, form };
}

/** The text a visitor sees of the home page's biography, in the language the page shows. */
async function visibleBiography(lang) {
  const page = await browser.newPage({ viewport: VIEWPORTS.desktop, lang });
  try {
    await page.goto(`${url}/`, { waitUntil: 'domcontentloaded' });
    return await page.locator('#intro-title ~ div:visible').first().innerText();
  } finally {
    await page.context().close();
  }
}

describe('settings at first start', () => {
  it('the site shows the author name from SITE_AUTHOR_NAME, and the placeholder biography', async () => {
    const home = await html('/');
    assert.match(home, /Nour Haddad/);
    assert.match(home, /نور حداد/);
    assert.match(home, /Placeholder biography/);
  });
});

describe('the biography edited in the overlay (English overlay, desktop)', () => {
  it('goes live on the home page in both languages and on /ar/ after the publish the save queued', async () => {
    const stamp = Date.now().toString(36);
    const bioEn = `Nour was born in Gaza in 1990 (${stamp}).\n\nShe writes novels and paints the sea.`;
    const bioAr = `وُلدت نور في غزة عام 1990 (${stamp}).\n\nتكتب الروايات وترسم البحر.`;
    const { page, management, form } = await openSettings({ lang: 'en', viewport: VIEWPORTS.desktop });
    await form.getByLabel(TEXTS.en.bioEn).fill(bioEn);
    await form.getByLabel(TEXTS.en.bioAr).fill(bioAr);
    assert.equal(await form.getByLabel(TEXTS.en.bioAr).getAttribute('dir'), 'rtl');
    const saving = Date.now();
    await form.getByRole('button', { name: TEXTS.en.save }).click();
    await page.locator('#admin-overlay-root').getByText(TEXTS.en.saved).first().waitFor();
    const firstParagraph = `Nour was born in Gaza in 1990 (${stamp}).`;
    await until('the English biography on /', async () => (await html('/')).includes(firstParagraph));
    const liveMs = Date.now() - saving;
    // The dashboard's publishing status followed the publish and says it is live, with what it did.
    await management.getByRole('status').filter({ hasText: TEXTS.en.liveDetail }).waitFor({ timeout: 30_000 });
    await shot(page, 'settings-saved-en');
    const home = await html('/');
    assert.ok(home.includes(`وُلدت نور في غزة عام 1990 (${stamp}).`), 'the Arabic biography is in the same page');
    assert.ok(home.includes('<p>She writes novels and paints the sea.</p>'), 'a blank line starts a paragraph');
    assert.ok((await html('/ar/')).includes(`وُلدت نور في غزة عام 1990 (${stamp}).`), 'the Arabic address shows it too');
    assert.equal(await visibleBiography('en'), `${firstParagraph}\n\nShe writes novels and paints the sea.`);
    assert.equal(await visibleBiography('ar'), `وُلدت نور في غزة عام 1990 (${stamp}).\n\nتكتب الروايات وترسم البحر.`);

    const status = await (await fetch(`${url}/api/admin/publishing`, { headers: { authorization: `Bearer ${token}` } })).json();
    assert.equal(status.lastPublish?.mode, 'targeted', JSON.stringify(status));
    console.log(
      `# settings save → new biography served: ${liveMs} ms (click to HTML); builder: ${status.lastPublish.liveAfterSaveMs} ms, ${status.lastPublish.pagesUpdated} pages updated`,
    );
    await page.context().close();
  });
});

describe('the Settings tab in Arabic at phone width', () => {
  it('edits the Arabic author name, which goes live in the header; no sideways scrolling; axe finds nothing', async () => {
    const name = `نور حداد ${Date.now().toString(36).slice(-4)}`;
    const { page, overlay, management, form } = await openSettings({ lang: 'ar', viewport: VIEWPORTS.phone });
    assert.equal(await overlay.locator('.ao-root').getAttribute('dir'), 'rtl');
    await shot(page, 'settings-ar-phone');
    const overflow = await page.evaluate(() => {
      const root = document.querySelector('#admin-overlay-root')?.shadowRoot ?? document;
      // The dialog's body is what scrolls; the page under the overlay must not scroll sideways either.
      const body = root.querySelector('.ao-section-panel')?.closest('.ao-dialog-body');
      return body ? Math.max(body.scrollWidth - body.clientWidth, document.documentElement.scrollWidth - window.innerWidth) : -1;
    });
    assert.ok(overflow <= 0, `the settings form scrolls sideways by ${overflow}px`);
    const axe = await new AxeBuilder({ page }).include('#admin-overlay-root').analyze();
    assert.deepEqual(
      axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
      [],
    );

    await form.getByLabel(TEXTS.ar.nameAr).fill(name);
    await form.getByRole('button', { name: TEXTS.ar.save }).click();
    await overlay.getByText(TEXTS.ar.saved).first().waitFor();
    await until('the Arabic name in the header of /contact', async () =>
      (await html('/contact')).includes(`<span data-lang="ar" lang="ar">${name}</span>`),
    );
    await management.getByRole('status').filter({ hasText: TEXTS.ar.live }).waitFor({ timeout: 30_000 });
    await shot(page, 'settings-ar-phone-saved');
    await page.context().close();
  });
});
