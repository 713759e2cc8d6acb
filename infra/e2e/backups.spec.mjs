// Backup and restore of the real product: `npm run backup` of a built demo site, `npm run restore`
// into a new VAR_DIR, and the restored instance serves the same /api answers and builds the same
// pages. The overlay's dashboard says when the last backup ran, in English and Arabic, on a phone.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';

import { launchBrowser, openOverlay as overlayOn, VIEWPORTS } from './support/browser.mjs';
import { ADMIN, ROOT, startStack } from './support/stack.mjs';

const SHOTS = process.env.E2E_SCREENSHOTS ?? path.join(os.tmpdir(), 'portfolio-e2e-screenshots', 'backups');

/** `npm run <script> …` as an operator runs it (the root script, through npm), with this environment. */
function npmRun(args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', '--silent', ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Every file of a built site (path → bytes), the folder that the live link points at; its own address made neutral. */
async function siteFiles(varDir, url) {
  const live = path.join(varDir, 'site', 'live');
  const files = new Map();
  for (const entry of await readdir(live, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    const bytes = await readFile(full);
    files.set(
      path.relative(live, full),
      /\.(html|xml|txt|json)$/.test(entry.name) ? Buffer.from(bytes.toString('utf8').replaceAll(url, 'http://site.example')) : bytes,
    );
  }
  return files;
}

let source;
let target;
let browser;
let work;
before(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), 'portfolio-e2e-backup-'));
  source = await startStack();
  await source.buildSite();
  browser = await launchBrowser();
  await mkdir(SHOTS, { recursive: true });
});
after(async () => {
  await browser?.close();
  await source?.stop();
  await target?.stop();
  await rm(work, { recursive: true, force: true });
});

describe('npm run backup and npm run restore', () => {
  it('moves the whole site into a new instance that serves the same /api answers and builds the same pages', async () => {
    const archive = path.join(work, 'site.tar.gz');
    const backup = await npmRun(['backup', '--', '--out', archive], { VAR_DIR: source.varDir });
    assert.equal(backup.code, 0, backup.stderr);
    assert.match(backup.stdout, /^Wrote .*site\.tar\.gz \(\d+ bytes: \d+ rows, 15 files\)\.$/m);

    const varDir = await mkdtemp(path.join(os.tmpdir(), 'portfolio-e2e-restored-'));
    const restore = await npmRun(['restore', archive], { VAR_DIR: varDir, ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password });
    assert.equal(restore.code, 0, restore.stderr);
    assert.match(restore.stdout, /^ {2}restored files: 15\/15$/m);
    assert.match(restore.stdout, /^"admin" signs in with ADMIN_PASSWORD; other admins use 'Forgot password'/m);

    target = await startStack({ varDir, env: { SEED_DEMO: 'true' } });
    for (const route of [
      '/api/books',
      '/api/essays',
      '/api/artworks',
      '/api/news',
      '/api/plays',
      '/api/books/1',
      '/api/plays/2',
      '/api/settings',
    ]) {
      const [a, b] = await Promise.all([source.call('GET', route), target.call('GET', route)]);
      assert.equal(b.status, 200, route);
      assert.deepEqual(b.body, a.body, route);
    }
    const [ta, tb] = [await source.login(), await target.login()];
    assert.deepEqual(
      (await target.call('GET', '/api/contacts', { token: tb })).body,
      (await source.call('GET', '/api/contacts', { token: ta })).body,
    );

    await target.buildSite();
    // The site address (canonical links, sitemap, feeds) is one of the site settings, restored with
    // them: the restored instance's pages name the same site, byte for byte.
    const [before, restored] = [await siteFiles(source.varDir, source.url), await siteFiles(varDir, source.url)];
    assert.deepEqual([...restored.keys()].sort(), [...before.keys()].sort(), 'the same pages and assets');
    const differing = [...before].filter(([file, bytes]) => !bytes.equals(restored.get(file))).map(([file]) => file);
    assert.deepEqual(differing, [], 'every built file is byte for byte the same');
  });

  it('refuses to restore into the running instance, in one line', async () => {
    const archive = path.join(work, 'site.tar.gz');
    const again = await npmRun(['restore', archive], { VAR_DIR: source.varDir });
    assert.equal(again.code, 1);
    assert.match(again.stderr, /^Refusing to restore: the database already holds rows \(.*books: 4.*\)\. .*Nothing was changed\.\n$/);
  });
});

describe('the dashboard shows the last backup', () => {
  for (const [lang, text] of [
    ['en', /^Backups: Last backup: .+ \(\d+(\.\d)?\skB\)$/],
    ['ar', /^النسخ الاحتياطية: آخر نسخة احتياطية: .+ \(\d+(\.\d)?\sكيلوبايت\)$/],
  ]) {
    it(`in ${lang === 'en' ? 'English' : 'Arabic'}, at phone width`, async () => {
      const { page, overlay } = await overlayOn(browser, source.url, { lang, viewport: VIEWPORTS.phone, session: await source.login() });
      const line = overlay.locator('.ao-backup-status p');
      await line.waitFor();
      // The text as a screen reader reads it, with the visually hidden 'Backups:' first.
      assert.match(await line.textContent(), text);
      assert.equal(await page.evaluate(() => document.documentElement.dir), lang === 'ar' ? 'rtl' : 'ltr');
      await page.screenshot({ path: path.join(SHOTS, `dashboard-${lang}-phone.png`) });
      await page.context().close();
    });
  }
});
