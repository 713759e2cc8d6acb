import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';

/**
 * Debian's Chromium, headless, as root-safe and offline-friendly as these machines need
 * (see TOOLCHAIN.md). Never downloads a browser.
 */
export async function launchBrowser() {
  const profile = await mkdtemp(path.join(os.tmpdir(), 'chromium-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
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
    context,
    async newPage(options = {}) {
      const page = await context.newPage();
      if (options.viewport) await page.setViewportSize(options.viewport);
      return page;
    },
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

export const VIEWPORTS = {
  desktop: { width: 1280, height: 900 },
  phone: { width: 390, height: 844 },
};

/** Opens a page in the given language (as a returning visitor who chose it). */
export async function openIn(browser, url, lang, viewport = VIEWPORTS.desktop) {
  const page = await browser.newPage({ viewport });
  await page.addInitScript((l) => localStorage.setItem('language', l), lang);
  await page.goto(url, { waitUntil: 'networkidle' });
  return page;
}
