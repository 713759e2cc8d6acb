import { chromium } from 'playwright-core';

import { stopOnce } from '../../test/support/wait.mjs';

/**
 * Debian's Chromium, headless, with the flags these machines need (see TOOLCHAIN.md). Never
 * downloads a browser. Each page gets its own context, so its localStorage starts empty.
 */
export async function launchBrowser() {
  const browser = await chromium.launch({
    executablePath: process.env.CHROME_PATH || '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
  return {
    browser,
    async newPage({ viewport = VIEWPORTS.desktop, lang, reducedMotion } = {}) {
      const context = await browser.newContext({ viewport, reducedMotion });
      if (lang) await context.addInitScript((l) => localStorage.setItem('language', l), lang);
      return context.newPage();
    },
    close: stopOnce(() => browser.close()),
  };
}

export const VIEWPORTS = {
  desktop: { width: 1280, height: 900 },
  phone: { width: 390, height: 844 },
};

/** Opens a page in the given language (as a returning visitor who chose it), once islands are hydrated. */
export async function openIn(browser, url, lang, viewport = VIEWPORTS.desktop) {
  const page = await browser.newPage({ viewport, lang });
  await page.goto(url, { waitUntil: 'networkidle' });
  return page;
}

/**
 * A visitor on the site's home page (in a language, at a width) who clicks Admin: the page and the
 * overlay (the host element whose shadow root holds it), once its first dialog (or the one named
 * `dialog`) shows. With `session`, signed in already (the overlay finds the session stored); page
 * errors are collected in `pageErrors` when given.
 */
export async function openOverlay(browser, siteUrl, { lang, viewport = VIEWPORTS.desktop, session, pageErrors, dialog } = {}) {
  const page = await browser.newPage({ viewport, lang });
  if (session) await page.context().addInitScript((id) => localStorage.setItem('admin_session', id), session);
  if (pageErrors) page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.goto(`${siteUrl}/`, { waitUntil: 'networkidle' });
  await page.locator('astro-island:not([ssr]) [data-admin-button]').first().click();
  const overlay = page.locator('#admin-overlay-root');
  await (dialog ? overlay.getByRole('dialog', { name: dialog }) : overlay.getByRole('dialog').first()).waitFor();
  return { page, overlay };
}
