// Content in two languages and the Arabic site at /ar/ addresses, in headless Chromium against
// the real stack (built API + site built from it).
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';

import { AxeBuilder } from '@axe-core/playwright';

import { launchBrowser, openIn, openOverlay as overlayOn, VIEWPORTS } from './support/browser.mjs';
import { startStack } from './support/stack.mjs';

let stack;
let browser;
let token;
const ids = {};

const BOTH = {
  title: 'The Sea Remembers',
  excerpt: 'An essay about the sea.',
  content: 'First English paragraph.\n\nSecond English paragraph.',
  contentLanguage: 'en',
  translations: { ar: { title: 'البحر يتذكّر', excerpt: 'مقالة عن البحر.', content: 'الفقرة العربية الأولى.\n\nالفقرة العربية الثانية.' } },
};
const ENGLISH_ONLY = { title: 'Only In English', excerpt: 'No Arabic version yet.', content: 'Just English text here.' };
const ARABIC_ONLY = { title: 'بالعربية فقط', excerpt: 'لا ترجمة إنجليزية بعد.', content: 'نص عربي فقط.' };

before(async () => {
  stack = await startStack();
  token = await stack.login();
  for (const [name, body] of Object.entries({ both: BOTH, english: ENGLISH_ONLY, arabic: ARABIC_ONLY })) {
    const res = await stack.call('POST', '/api/essays', { token, body });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    ids[name] = res.body.id;
  }
  const book = await stack.call('POST', '/api/books', {
    token,
    body: {
      title: 'Letters From Gaza',
      description: 'A novel in letters.',
      year: 2024,
      publisher: 'Sea Press',
      contentLanguage: 'en',
      translations: { ar: { title: 'رسائل من غزة', description: 'رواية في رسائل.', publisher: 'دار البحر' } },
    },
  });
  assert.equal(book.status, 201, JSON.stringify(book.body));
  ids.book = book.body.id;
  // An artwork whose picture loads (one that fails shows a plain box in its place).
  const form = new FormData();
  const PIXEL = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGNgYGAAAAAEAAH2FzhVAAAAAElFTkSuQmCC';
  form.append('file', new Blob([Buffer.from(PIXEL, 'base64')], { type: 'image/png' }), 'olive.png');
  form.append('contentType', 'artworks');
  const uploaded = await fetch(`${stack.url}/api/upload`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  assert.equal(uploaded.status, 201, await uploaded.clone().text());
  const artworks = {
    artBoth: {
      title: 'Olive Trees',
      medium: 'Oil on canvas',
      year: 2023,
      image: (await uploaded.json()).url,
      description: 'Trees in the morning.',
      contentLanguage: 'en',
      translations: { ar: { title: 'أشجار الزيتون', medium: 'زيت على قماش', description: 'أشجار في الصباح.' } },
    },
    artEnglish: { title: 'Test: Night Market', medium: 'Watercolour', year: 2022, image: 'https://images.example/harbour.jpg' },
  };
  for (const [name, body] of Object.entries(artworks)) {
    const res = await stack.call('POST', '/api/artworks', { token, body });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    ids[name] = res.body.id;
  }
  await stack.buildSite();
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await stack?.stop();
});

const html = async (route) => {
  const res = await fetch(stack.url + route);
  assert.equal(res.status, 200, route);
  return res.text();
};
const attr = (tag, name) => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];
const htmlTag = (page) => /<html[^>]*>/.exec(page)[0];
const alternates = (page) =>
  Object.fromEntries(
    [...page.matchAll(/<link rel="alternate" hreflang="([^"]+)" href="([^"]+)"/g)].map((m) => [m[1], new URL(m[2]).pathname]),
  );

describe('an essay in both languages', () => {
  it('is Arabic at /ar/essays/{id} and English at /essays/{id}, and each HTML names its language', async () => {
    const ar = await html(`/ar/essays/${ids.both}`);
    assert.equal(attr(htmlTag(ar), 'lang'), 'ar');
    assert.equal(attr(htmlTag(ar), 'dir'), 'rtl');
    assert.match(ar, /<meta property="og:locale" content="ar_AR"/);
    assert.match(ar, /<title>البحر يتذكّر \|/);
    assert.match(ar, /<meta name="description" content="مقالة عن البحر\.">/);
    const ld = (page) => JSON.parse(/<script type="application\/ld\+json">(.*?)<\/script>/.exec(page)[1]);
    assert.deepEqual([ld(ar).headline, ld(ar).inLanguage, new URL(ld(ar).url).pathname], ['البحر يتذكّر', 'ar', `/ar/essays/${ids.both}`]);
    const book = ld(await html(`/ar/books/${ids.book}`));
    assert.deepEqual([book.name, book.publisher.name, new URL(book.url).pathname], ['رسائل من غزة', 'دار البحر', `/ar/books/${ids.book}`]);
    const en = await html(`/essays/${ids.both}`);
    assert.equal(attr(htmlTag(en), 'lang'), 'en');
    assert.equal(attr(htmlTag(en), 'dir'), 'ltr');
    assert.match(en, /<meta property="og:locale" content="en_US"/);
    assert.match(en, /<meta name="description" content="An essay about the sea\.">/);
    assert.deepEqual([ld(en).headline, new URL(ld(en).url).pathname], ['The Sea Remembers', `/essays/${ids.both}`]);

    const arPage = await openIn(browser, `${stack.url}/ar/essays/${ids.both}`);
    assert.equal(await arPage.locator('h1').innerText(), 'البحر يتذكّر');
    assert.match(await arPage.locator('main').innerText(), /الفقرة العربية الأولى\.\s+الفقرة العربية الثانية\./);
    assert.doesNotMatch(await arPage.locator('main').innerText(), /English paragraph/);
    await arPage.context().close();

    const enPage = await openIn(browser, `${stack.url}/essays/${ids.both}`);
    assert.equal(await enPage.locator('h1:visible').innerText(), 'The Sea Remembers');
    assert.match(await enPage.locator('main').innerText(), /First English paragraph\./);
    assert.doesNotMatch(await enPage.locator('main').innerText(), /الفقرة/);
    await enPage.context().close();
  });

  it('shows the Arabic version on its English address to a visitor who chose Arabic (localStorage), as before', async () => {
    const page = await openIn(browser, `${stack.url}/essays/${ids.both}`, 'ar');
    assert.equal(await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir].join()), 'ar,rtl');
    assert.equal(await page.locator('h1:visible').innerText(), 'البحر يتذكّر');
    assert.equal(await page.locator('h1 [lang="ar"]:visible').getAttribute('dir'), 'rtl');
    await page.context().close();
  });
});

describe('an item with one version', () => {
  it('falls back to the other language, marked with its lang and dir', async () => {
    const page = await openIn(browser, `${stack.url}/ar/essays/${ids.english}`);
    const h1 = page.locator('h1');
    assert.equal(await h1.innerText(), 'Only In English');
    assert.equal(await h1.getAttribute('lang'), 'en');
    assert.equal(await h1.getAttribute('dir'), 'ltr');
    assert.equal(await page.evaluate(() => document.documentElement.dir), 'rtl');
    await page.context().close();

    const en = await openIn(browser, `${stack.url}/essays/${ids.arabic}`, 'en');
    const h1en = en.locator('h1');
    assert.equal(await h1en.innerText(), 'بالعربية فقط');
    assert.equal(await h1en.getAttribute('lang'), 'ar');
    assert.equal(await h1en.getAttribute('dir'), 'rtl');
    await en.context().close();
  });
});

describe('the gallery', () => {
  const card = (page, text) => page.locator('.gallery-grid figcaption strong', { hasText: text });
  it("shows each artwork in the reader's language on /gallery, and marks a fallback with its language on /ar/gallery", async () => {
    const en = await openIn(browser, `${stack.url}/gallery`, 'en');
    await en.locator('.gallery-grid').waitFor();
    assert.equal(await card(en, 'Olive Trees').isVisible(), true);
    assert.equal(await en.getByText('أشجار الزيتون').first().isVisible(), false);
    await en.context().close();

    const chosen = await openIn(browser, `${stack.url}/gallery`, 'ar');
    assert.equal(await card(chosen, 'أشجار الزيتون').locator('[lang="ar"]').isVisible(), true);
    assert.equal(await chosen.getByText('Olive Trees', { exact: true }).first().isVisible(), false);
    // The full-screen view, opened by keyboard, reads in Arabic too.
    await chosen
      .locator('.gallery-open')
      .nth(
        await chosen
          .locator('.gallery-open')
          .evaluateAll((buttons) => buttons.findIndex((b) => b.closest('figure').textContent.includes('أشجار الزيتون'))),
      )
      .press('Enter');
    const dialog = chosen.getByRole('dialog', { name: 'أشجار الزيتون' });
    await dialog.waitFor();
    assert.match(await dialog.locator('.lightbox-caption').innerText(), /أشجار الزيتون\s*— زيت على قماش، 2023/);
    assert.match(await dialog.locator('.lightbox-caption').innerText(), /أشجار في الصباح\./);
    await chosen.context().close();

    const ar = await openIn(browser, `${stack.url}/ar/gallery`);
    const fallback = card(ar, 'Test: Night Market').locator('[lang="en"]');
    assert.equal(await fallback.getAttribute('dir'), 'ltr');
    assert.equal(await card(ar, 'أشجار الزيتون').locator('[lang="ar"]').isVisible(), true);
    await ar.context().close();
  });
});

describe('hreflang', () => {
  it('pairs every page with its other-language address both ways, plus x-default (the specification address)', async () => {
    for (const route of [
      '/',
      '/books',
      `/books/${ids.book}`,
      '/essays',
      `/essays/${ids.both}`,
      '/gallery',
      '/plays',
      '/news',
      '/contact',
    ]) {
      const arRoute = route === '/' ? '/ar/' : `/ar${route}`;
      const en = alternates(await html(route));
      const ar = alternates(await html(arRoute));
      assert.deepEqual(en, { en: route, ar: arRoute, 'x-default': route }, route);
      assert.deepEqual(ar, en, arRoute);
    }
    const missing = await fetch(`${stack.url}/no-such-page`);
    assert.equal(missing.status, 404);
    assert.deepEqual(alternates(await missing.text()), {}, 'the 404 page has no other-language address');
    const sitemap = await html('/sitemap.xml');
    assert.ok(sitemap.includes(`<loc>${stack.url}/ar/essays/${ids.both}</loc>`));
    assert.ok(sitemap.includes(`<loc>${stack.url}/essays/${ids.both}</loc>`));
    // Each address of the pair names both, plus x-default, in the sitemap too.
    const entry = (loc) => new RegExp(`<url><loc>${loc.replace(/[.?]/g, '\\$&')}</loc>(.*?)</url>`).exec(sitemap)?.[1] ?? '';
    const pair = `<xhtml:link rel="alternate" hreflang="en" href="${stack.url}/essays/${ids.both}"/><xhtml:link rel="alternate" hreflang="ar" href="${stack.url}/ar/essays/${ids.both}"/><xhtml:link rel="alternate" hreflang="x-default" href="${stack.url}/essays/${ids.both}"/>`;
    assert.ok(entry(`${stack.url}/essays/${ids.both}`).includes(pair), 'the English address lists both');
    assert.ok(entry(`${stack.url}/ar/essays/${ids.both}`).includes(pair), 'the Arabic address lists both');
    const enFeed = await html('/rss/essays.xml');
    assert.ok(
      enFeed.includes('<title>بالعربية فقط</title>') && enFeed.includes('<title>The Sea Remembers</title>'),
      "the English feed: English versions, or the item's own text",
    );
    const feed = await html('/ar/rss/essays.xml');
    assert.ok(feed.includes('<title>البحر يتذكّر</title>'), 'the Arabic feed has the Arabic title');
    assert.ok(feed.includes(`${stack.url}/ar/essays/${ids.both}`));
    // A reader follows an item's link from either feed: it opens the page (no trailing slash).
    for (const text of [enFeed, feed]) {
      const links = [...text.matchAll(/<item>.*?<link>([^<]+)<\/link>/gs)].map((m) => m[1]);
      assert.ok(links.length > 0, 'the feed has items');
      for (const link of links) assert.equal((await fetch(link, { redirect: 'manual' })).status, 200, link);
    }
  });

  it('keeps a reader on the Arabic site: links on /ar/ pages lead to /ar/ pages', async () => {
    const page = await html(`/ar/books`);
    assert.ok(page.includes(`href="/ar/books/${ids.book}"`));
    assert.ok(!/href="\/(books|essays|news|plays|gallery|contact)(\/|")/.test(page), 'no link back to an English page (except the switch)');
    const other = await fetch(`${stack.url}/ar/book/${ids.book}`, { redirect: 'manual' });
    assert.equal(other.status, 301);
    assert.equal(other.headers.get('location'), `/ar/books/${ids.book}`);
    const home = await fetch(`${stack.url}/ar`);
    assert.equal(home.status, 200, '/ar answers like /ar/');
  });
});

describe('the language switch', () => {
  it('on an /ar/ page goes to the same item in English, and the choice sticks', async () => {
    const page = await openIn(browser, `${stack.url}/ar/books/${ids.book}`);
    assert.equal(await page.locator('h1').innerText(), 'رسائل من غزة');
    await Promise.all([page.waitForURL(`${stack.url}/books/${ids.book}?lang=en`), page.getByRole('link', { name: /English/ }).click()]);
    await page.waitForLoadState('networkidle');
    assert.equal(await page.evaluate(() => [document.documentElement.lang, localStorage.getItem('language')].join()), 'en,en');
    assert.equal(await page.locator('h1:visible').innerText(), 'Letters From Gaza');
    await page.context().close();
  });
});

describe('accessibility of the /ar/ pages', () => {
  it('axe finds no violations at desktop and phone width', async () => {
    // E2E_SCREENSHOTS=<folder>: also keeps a full-page screenshot of each (to look at them).
    const shots = process.env.E2E_SCREENSHOTS;
    if (shots) await mkdir(shots, { recursive: true });
    // Detail pages of the other kinds, from the demo content the stack starts with.
    const first = async (kind, test = () => true) => (await stack.call('GET', `/api/${kind}`)).body.find(test)?.id;
    const news = await first('news');
    const play = await first('plays');
    const reviewed = await first('books', (b) => b.reviews?.length > 0);
    assert.ok(news && play && reviewed, 'the demo content has news, a play and a book with reviews');
    for (const route of [
      '/ar/',
      '/ar/books',
      `/ar/books/${ids.book}`,
      `/ar/book/${reviewed}/reviews`,
      '/ar/essays',
      `/ar/essays/${ids.both}`,
      `/ar/essays/${ids.english}`,
      '/ar/gallery',
      '/ar/plays',
      `/ar/plays/${play}`,
      '/ar/news',
      `/ar/news/${news}`,
      '/ar/contact',
      '/ar/search',
    ]) {
      for (const [name, viewport] of Object.entries(VIEWPORTS)) {
        const page = await openIn(browser, stack.url + route, undefined, viewport);
        const axe = await new AxeBuilder({ page }).analyze();
        assert.deepEqual(
          axe.violations.map(
            (v) =>
              `${v.id}: ${v.nodes
                .map((n) => n.target.join(' '))
                .slice(0, 3)
                .join(', ')}`,
          ),
          [],
          `${route} (${name})`,
        );
        assert.ok(
          await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
          `${route} (${name}) does not scroll sideways`,
        );
        if (shots) await page.screenshot({ path: path.join(shots, `ar${route.replace(/\//g, '_')}-${name}.png`), fullPage: true });
        await page.context().close();
      }
    }
  });
});

describe('the overlay', () => {
  it('marks the essay without an Arabic version, filters on it, and edits both versions side by side (Arabic right-to-left)', async () => {
    const shots = process.env.E2E_SCREENSHOTS;
    for (const [lang, texts] of Object.entries({
      en: {
        tab: 'Essays',
        missing: 'No Arabic version',
        filter: 'Languages',
        option: 'Missing a translation',
        edit: 'Edit',
        title: 'Title (Arabic)',
        dialog: 'Edit Essay',
      },
      ar: {
        tab: 'المقالات',
        missing: 'لا نسخة عربية',
        filter: 'اللغات',
        option: 'تنقصها ترجمة',
        edit: 'تعديل',
        title: 'العنوان (العربية)',
      },
    })) {
      for (const [name, viewport] of Object.entries(VIEWPORTS)) {
        const { page, overlay } = await overlayOn(browser, stack.url, { lang, viewport, session: token });
        const management = overlay.getByRole('dialog').first();
        await management.getByRole('tab', { name: texts.tab }).click();
        const panel = management.getByRole('tabpanel');
        const englishRow = panel.getByRole('row').filter({ hasText: ENGLISH_ONLY.title });
        await englishRow.getByText(texts.missing).waitFor();
        assert.equal(await panel.getByRole('row').filter({ hasText: BOTH.title }).getByText(texts.missing).count(), 0);
        await panel.getByLabel(texts.filter).selectOption({ label: texts.option });
        assert.equal(
          await panel.getByRole('row').filter({ hasText: BOTH.title }).count(),
          0,
          'the filter hides the essay in both languages',
        );
        if (shots) await page.screenshot({ path: path.join(shots, `overlay-list-${lang}-${name}.png`) });
        await englishRow.getByRole('button', { name: new RegExp(`^${texts.edit}`) }).click();
        const arabicTitle = overlay.getByLabel(texts.title, { exact: true });
        await arabicTitle.waitFor();
        assert.deepEqual([await arabicTitle.getAttribute('lang'), await arabicTitle.getAttribute('dir')], ['ar', 'rtl']);
        if (shots) await page.screenshot({ path: path.join(shots, `overlay-form-${lang}-${name}.png`) });
        const axe = await new AxeBuilder({ page }).include('#admin-overlay-root').analyze();
        assert.deepEqual(
          axe.violations.map((v) => v.id),
          [],
          `overlay form (${lang}, ${name})`,
        );
        await page.context().close();
      }
    }
  });
});

describe('JavaScript per page', () => {
  it('an /ar/ page loads no more script than its English address (gzipped, files and inline)', async () => {
    const measure = async (route) => {
      const page = await browser.newPage();
      const scripts = new Map();
      page.on('response', (res) => {
        if (res.request().resourceType() === 'script')
          scripts.set(
            res.url(),
            res
              .body()
              .then((b) => gzipSync(b).length)
              .catch(() => 0),
          );
      });
      await page.goto(stack.url + route, { waitUntil: 'networkidle' });
      const inline = await page.evaluate(() =>
        [...document.querySelectorAll('script:not([src]):not([type="application/ld+json"]):not([type="application/json"])')]
          .map((s) => s.textContent)
          .join('\n'),
      );
      const bytes = (await Promise.all(scripts.values())).reduce((a, b) => a + b, 0) + gzipSync(inline).length;
      await page.context().close();
      return bytes;
    };
    for (const route of ['/', `/essays/${ids.both}`, `/books/${ids.book}`, '/gallery']) {
      const en = await measure(route);
      const ar = await measure(route === '/' ? '/ar/' : `/ar${route}`);
      console.log(`JS ${route}: ${(en / 1024).toFixed(1)} KB, /ar: ${(ar / 1024).toFixed(1)} KB`);
      assert.ok(ar <= en, `${route}: ${ar} > ${en}`);
    }
  });
});
