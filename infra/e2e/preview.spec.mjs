// The overlay's Preview, in headless Chromium against the real stack with the builder running
// (renderer mode, as `npm start` runs it): an admin edits an unpublished book without saving and
// sees its page and list as the site's own templates render them, switches the pages' language,
// in English and in Arabic, at desktop and phone width; the public site does not change.
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';

import { apiEnvFor, startBuilder } from '../test/support/publish-harness.mjs';
import { launchBrowser, openOverlay as overlayOn, VIEWPORTS } from './support/browser.mjs';
import { freePort, startStack } from './support/stack.mjs';

const SHOTS = process.env.E2E_SCREENSHOTS ?? path.join(os.tmpdir(), 'portfolio-e2e-screenshots', 'preview');

let work;
let builder;
let stack;
let browser;
let token;
let book;
const pageErrors = [];

before(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), 'preview-e2e-'));
  const varDir = path.join(work, 'var');
  const port = await freePort();
  // The API serves the builder's live folder, as on `npm start`.
  builder = await startBuilder({ varDir, apiUrl: `http://127.0.0.1:${port}` });
  stack = await startStack({
    seedDemo: true,
    port,
    varDir,
    env: apiEnvFor(builder),
  });
  token = await stack.login();
  const res = await stack.call('POST', '/api/books', {
    token,
    body: { title: 'Notebook of the Sea', description: 'A draft nobody has read.', year: 2027, publisher: 'Dar', published: false },
  });
  book = res.body;
  const version = (await stack.call('GET', '/api/health')).body.contentVersion;
  await builder.live(version);
  browser = await launchBrowser();
  await mkdir(SHOTS, { recursive: true });
});
after(async () => {
  await browser?.close();
  await builder?.close();
  await stack?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

const TEXTS = {
  en: {
    management: 'Content Management',
    books: 'Books',
    edit: `Edit ${'Notebook of the Sea'}`,
    preview: 'Preview',
    listPage: 'List page',
    title: /^Title/,
  },
  ar: {
    management: 'إدارة المحتوى',
    books: 'الكتب',
    edit: `تعديل ${'Notebook of the Sea'}`,
    preview: 'معاينة',
    listPage: 'صفحة القائمة',
    title: /^العنوان/,
  },
};

const openOverlay = (lang, viewport) =>
  overlayOn(browser, stack.url, { lang, viewport, session: token, pageErrors, dialog: TEXTS[lang].management });

describe('Preview in the overlay', () => {
  for (const lang of ['en', 'ar']) {
    for (const [width, viewport] of Object.entries(VIEWPORTS)) {
      it(`${lang}, ${width}: an unsaved edit of an unpublished book shows on its page and its list, in both languages; nothing is published`, async () => {
        const T = TEXTS[lang];
        const { page, overlay } = await openOverlay(lang, viewport);
        const management = overlay.getByRole('dialog', { name: T.management });
        await management.getByRole('tab', { name: T.books }).click();
        await management.getByRole('button', { name: T.edit }).click();
        const form = overlay.getByRole('dialog').last();
        const title = form.getByRole('textbox', { name: T.title }).first();
        const unsaved = `Unsaved ${lang} ${width} title`;
        await title.fill(unsaved);
        await form.getByRole('button', { name: T.preview, exact: true }).click();

        const preview = overlay.getByRole('dialog', { name: T.preview, exact: true });
        await preview.waitFor();
        const frame = page.frameLocator('iframe.ao-preview-frame');
        await frame.getByRole('heading', { name: unsaved }).first().waitFor();
        assert.equal(await frame.locator('meta[name="robots"]').getAttribute('content'), 'noindex, nofollow');
        await page.screenshot({ path: path.join(SHOTS, `${lang}-${width}-detail.png`) });

        // The pages' language: the Arabic address of the same page.
        await preview.getByRole('button', { name: 'العربية' }).click();
        await frame.locator('html[lang="ar"]').waitFor();
        await frame.getByRole('heading', { name: unsaved }).first().waitFor();
        await preview.getByRole('tab', { name: T.listPage }).click();
        await frame.getByText(unsaved).first().waitFor();
        await page.screenshot({ path: path.join(SHOTS, `${lang}-${width}-list-ar.png`) });
        // The page's own language switch (on an /ar/ page, a link to the English address) stays in the preview.
        await frame.locator('a.lang-switch').first().click();
        await frame.locator('html[lang="en"]').waitFor();
        await frame.getByText(unsaved).first().waitFor();
        assert.equal(await preview.getByRole('button', { name: 'English' }).getAttribute('aria-pressed'), 'true');
        await preview.getByRole('button', { name: 'العربية' }).click();
        await frame.locator('html[lang="ar"]').waitFor();
        await preview.getByRole('button', { name: 'English' }).click();
        await frame.locator('html[lang="en"]').waitFor();
        await frame.getByText(unsaved).first().waitFor();
        await page.close();

        // Nothing saved, nothing published.
        assert.equal((await stack.call('GET', `/api/books/${book.id}`, { token })).body.title, 'Notebook of the Sea');
        assert.equal((await fetch(`${stack.url}/books/${book.id}`)).status, 404);
        assert.doesNotMatch(await (await fetch(`${stack.url}/books`)).text(), /Unsaved/);
      });
    }
  }

  for (const lang of ['en', 'ar']) {
    it(`${lang}, phone: 'Publish at' in the news form saves a time in the admin's zone, and the dashboard lists it`, async () => {
      const T = {
        en: {
          news: 'News',
          add: 'Add News',
          title: /^Title/,
          excerpt: /^Excerpt/,
          content: /^Content/,
          category: /^Category/,
          publishAt: 'Publish at',
          published: 'Published',
          notPublished: /It is not published yet/,
          create: 'Create',
          addTitle: 'Add New News',
          summary: /Scheduled to go live: \d+/,
          kind: 'News',
        },
        ar: {
          news: 'الأخبار',
          add: 'إضافة خبر',
          title: /^العنوان/,
          excerpt: /^المقتطف/,
          content: /^المحتوى/,
          category: /^التصنيف/,
          publishAt: 'موعد النشر',
          published: 'منشور',
          notPublished: /لم يُنشر بعد/,
          create: 'إنشاء',
          addTitle: 'إضافة خبر جديد',
          summary: /مجدول للنشر: \d+/,
          kind: 'خبر',
        },
      }[lang];
      const { page, overlay } = await openOverlay(lang, VIEWPORTS.phone);
      const management = overlay.getByRole('dialog', { name: TEXTS[lang].management });
      await management.getByRole('tab', { name: T.news }).click();
      await management.getByRole('button', { name: T.add }).click();
      const form = overlay.getByRole('dialog', { name: T.addTitle });
      const title = `Scheduled from the overlay (${lang})`;
      await form.getByRole('textbox', { name: T.title }).first().fill(title);
      await form.getByRole('textbox', { name: T.excerpt }).first().fill('Soon');
      await form.getByRole('textbox', { name: T.content }).first().fill('On the day.');
      await form.getByRole('combobox', { name: T.category }).selectOption('award');
      await form.getByLabel(T.publishAt).fill('2031-03-05T14:30');
      await form.getByText(/2031/).first().waitFor();
      // A new news item starts unpublished (specification §4): the form says a time alone will not publish it.
      await form.getByText(T.notPublished).waitFor();
      await form.getByRole('checkbox', { name: T.published, exact: true }).check();
      await form.getByText(T.notPublished).waitFor({ state: 'detached' });
      await page.screenshot({ path: path.join(SHOTS, `${lang}-phone-publish-at.png`) });
      await form.getByRole('button', { name: T.create, exact: true }).click();
      await form.waitFor({ state: 'detached' });
      const saved = (await stack.call('GET', '/api/news', { token })).body.find((n) => n.title === title);
      // The browser's zone here is the machine's: the time typed is that zone's wall time.
      assert.equal(saved.publishAt, await page.evaluate(() => new Date('2031-03-05T14:30').toISOString()));
      assert.equal((await stack.call('GET', `/api/news/${saved.id}`)).status, 404, 'hidden from visitors until then');
      await page.close();

      const again = await openOverlay(lang, VIEWPORTS.phone);
      const summary = again.overlay.getByText(T.summary);
      await summary.click();
      const row = again.overlay.getByRole('listitem').filter({ hasText: title });
      await row.waitFor();
      assert.match(await row.textContent(), new RegExp(T.kind));
      await again.page.screenshot({ path: path.join(SHOTS, `${lang}-phone-scheduled-list.png`) });
      await again.page.close();
    });
  }

  it('no page errors', () => {
    assert.deepEqual(pageErrors, []);
  });
});
