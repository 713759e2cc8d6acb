// Search on the static site in headless Chromium against the real stack: the header box (a combobox
// whose code loads on first focus), the /search page and its shared ?q= links, in English and Arabic.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { AxeBuilder } from '@axe-core/playwright';

import { launchBrowser, openIn, VIEWPORTS } from './support/browser.mjs';
import { startStack } from './support/stack.mjs';

let stack;
let browser;
const ids = {};

const ESSAY = {
  title: 'ذاكرة البحر في المدينة',
  excerpt: 'مقالة عن البحر والذاكرة.',
  // With tashkeel, shadda and tatweel: the visitor types it bare.
  content: 'في الصباح كَتَبَ الشّاعِرُ عن غَزَّةَ والمدينةِ القديمة، وعن أحلامِ الأطفالِ إلى الأبد.\n\nوكانت المكتبـــة مفتوحة.',
  published: true,
};
const BOOK = {
  title: 'E2E Lantern Keeper',
  description: 'A story told by a lighthouse keeper named Zephyrine, who counts the ships at night.',
  year: 2024,
  publisher: 'E2E Press',
  published: true,
};

const axeViolations = async (page) =>
  (await new AxeBuilder({ page }).analyze()).violations.map(
    (v) =>
      `${v.id}: ${v.nodes
        .map((n) => n.target.join(' '))
        .slice(0, 3)
        .join(', ')}`,
  );

before(async () => {
  stack = await startStack();
  const token = await stack.login();
  const essay = await stack.call('POST', '/api/essays', { token, body: ESSAY });
  assert.equal(essay.status, 201, JSON.stringify(essay.body));
  ids.essay = essay.body.id;
  const book = await stack.call('POST', '/api/books', { token, body: BOOK });
  assert.equal(book.status, 201, JSON.stringify(book.body));
  ids.book = book.body.id;
  await stack.buildSite();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await stack?.stop();
});

/** The results of the /search page once the index has answered (the status says how many, or none). */
async function pageResults(page) {
  await page
    .locator('[data-search-status]')
    .filter({ hasText: /[:：]\s*\d+$|«|“/ })
    .waitFor();
  return page
    .locator('.search-result-title a')
    .evaluateAll((links) => links.map((a) => ({ href: a.getAttribute('href'), text: a.textContent })));
}

describe('the /search page', () => {
  it('an Arabic query finds the same essay with and without diacritics (Arabic reader)', async () => {
    for (const q of ['غزة', 'غَزَّةَ', 'الشاعر المدينه', 'مكتبة']) {
      const page = await openIn(browser, `${stack.url}/search?q=${encodeURIComponent(q)}`, 'ar');
      assert.equal(await page.locator('html').getAttribute('dir'), 'rtl');
      const results = await pageResults(page);
      assert.deepEqual(
        results.map((r) => r.href),
        [`/essays/${ids.essay}`],
        `query ${q}`,
      );
      assert.match(await page.getByRole('status').innerText(), new RegExp(`^نتائج البحث عن «${q}»: 1$`));
      // The match is highlighted in the essay's own text, diacritics and all.
      if (q === 'غزة') assert.equal(await page.locator('.search-result-excerpt mark').first().innerText(), 'غَزَّةَ');
      await page.context().close();
    }
  });

  it('an English query finds a book by a word of its description, with its kind and an excerpt', async () => {
    const page = await openIn(browser, `${stack.url}/search?q=zephyrine`, 'en');
    assert.deepEqual(await pageResults(page), [{ href: `/books/${ids.book}`, text: BOOK.title }]);
    assert.equal(await page.getByRole('status').innerText(), 'Results for “zephyrine”: 1');
    const result = page.locator('.search-result');
    assert.equal(await result.locator('.search-kind').innerText(), 'Book');
    assert.equal(await result.locator('mark').innerText(), 'Zephyrine');
    assert.equal(await page.getByLabel('Search the site').inputValue(), 'zephyrine');
    await page.context().close();
  });

  it('a query that matches nothing shows the empty text, in both languages', async () => {
    const en = await openIn(browser, `${stack.url}/search?q=qqxxzz`, 'en');
    await en.getByRole('status').filter({ hasText: 'No results for “qqxxzz”. Try other words, or browse the lists.' }).waitFor();
    assert.equal(await en.locator('.search-result').count(), 0);
    assert.ok(await en.locator('main').getByRole('link', { name: 'Essays', exact: true }).isVisible(), 'the lists are offered');
    await en.context().close();
    const ar = await openIn(browser, `${stack.url}/search?q=qqxxzz`, 'ar');
    await ar.getByRole('status').filter({ hasText: 'لا توجد نتائج عن «qqxxzz». جرّب كلمات أخرى أو تصفّح القوائم.' }).waitFor();
    await ar.context().close();
  });

  it('typing updates the results and the address, so the link can be shared', async () => {
    const page = await openIn(browser, `${stack.url}/search`, 'en');
    await page.getByRole('status').filter({ hasText: 'Type a word' }).waitFor();
    await page.getByLabel('Search the site').fill('lighthouse');
    await page.waitForURL(/\/search\?q=lighthouse$/);
    assert.deepEqual(
      (await pageResults(page)).map((r) => r.href),
      [`/books/${ids.book}`],
    );
    const shared = await openIn(browser, page.url(), 'en');
    assert.deepEqual(
      (await pageResults(shared)).map((r) => r.href),
      [`/books/${ids.book}`],
    );
    await page.context().close();
    await shared.context().close();
  });

  it('on the Arabic site (/ar/search) results lead to the Arabic addresses', async () => {
    const page = await openIn(browser, `${stack.url}/ar/search?q=${encodeURIComponent('غزه')}`);
    assert.deepEqual(
      (await pageResults(page)).map((r) => r.href),
      [`/ar/essays/${ids.essay}`],
    );
    // Switching to English keeps the search.
    await page.locator('a[data-language-switch]').click();
    await page.waitForURL((url) => url.pathname === '/search' && url.searchParams.get('q') === 'غزه');
    assert.deepEqual(
      (await pageResults(page)).map((r) => r.href),
      [`/essays/${ids.essay}`],
    );
    await page.context().close();
  });

  it('without JavaScript it says so and links to the lists', async () => {
    const context = await browser.browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${stack.url}/search?q=zephyrine`);
    // (Playwright's text queries skip <noscript>; what it holds is read directly.)
    assert.equal(
      await page.locator('.search-noscript [data-lang="en"]').innerText(),
      'Search needs JavaScript, which is turned off in your browser. You can browse the lists instead:',
    );
    assert.ok(await page.locator('.search-noscript').isVisible());
    const links = await page
      .locator('main .search-lists a')
      .evaluateAll((as) => as.map((a) => [a.getAttribute('href'), a.querySelector('[data-lang="en"]').textContent]));
    assert.deepEqual(links, [
      ['/books', 'Books'],
      ['/essays', 'Essays'],
      ['/gallery', 'Gallery'],
      ['/plays', 'Plays'],
      ['/news', 'News'],
    ]);
    await context.close();
  });

  it('paints its prompt without script; the search code and the index load only once the visitor types', async () => {
    assert.match(
      await (await fetch(`${stack.url}/search`)).text(),
      /data-search-status[^>]*><span data-lang="en" lang="en">Type a word of a title/,
    );
    const page = await browser.newPage({ lang: 'en', viewport: VIEWPORTS.phone });
    const scripts = [];
    const requested = [];
    page.on('response', (res) => {
      requested.push(new URL(res.url()).pathname);
      if (res.request().resourceType() === 'script') scripts.push(res.text().catch(() => ''));
    });
    await page.goto(`${stack.url}/search`, { waitUntil: 'networkidle' });
    assert.equal(await page.getByRole('status').innerText(), 'Type a word of a title or of a text (at least two letters).');
    await page.waitForFunction(() => document.activeElement?.id === 'search-page-q');
    assert.deepEqual(
      requested.filter((p) => p.startsWith('/search-index/')),
      [],
      'no index before typing',
    );
    const before = await Promise.all(scripts);
    // (The search UI names the results list it fills.)
    assert.equal(before.filter((code) => code.includes('data-search-results')).length, 0, 'no search code before typing');
    await page.keyboard.type('lantern');
    assert.deepEqual(
      (await pageResults(page)).map((r) => r.href),
      [`/books/${ids.book}`],
    );
    await page.waitForURL(/\/search\?q=lantern$/);
    assert.equal(await page.getByLabel('Search the site').inputValue(), 'lantern', 'what was typed while the code loaded is kept');
    assert.ok(
      (await Promise.all(scripts)).some((code) => code.includes('data-search-results')),
      'the search code arrived on typing',
    );
    await page.context().close();
  });

  it('has no accessibility violations (axe) in either language, at phone width too', async () => {
    for (const [lang, viewport] of [
      ['en', VIEWPORTS.desktop],
      ['ar', VIEWPORTS.desktop],
      ['ar', VIEWPORTS.phone],
    ]) {
      const page = await openIn(
        browser,
        `${stack.url}/search?q=${lang === 'ar' ? encodeURIComponent('غزة') : 'zephyrine'}`,
        lang,
        viewport,
      );
      await pageResults(page);
      assert.deepEqual(await axeViolations(page), [], `${lang} ${viewport.width}px`);
      assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'no sideways scrolling');
      await page.context().close();
    }
  });
});

describe('the header search box', () => {
  it('loads its code and the index only when the visitor opens it', async () => {
    const page = await browser.newPage({ lang: 'en' });
    const requested = [];
    page.on('request', (r) => requested.push(new URL(r.url()).pathname));
    await page.goto(`${stack.url}/`, { waitUntil: 'networkidle' });
    assert.deepEqual(
      requested.filter((p) => p.startsWith('/search-index/')),
      [],
    );
    const before = new Set(requested);
    // (The footer's newsletter form has a language select, a combobox too: the search box is the one by its name.)
    assert.equal(await page.getByRole('combobox', { name: 'Search the site' }).count(), 0);
    const index = page.waitForResponse((r) => r.url().endsWith('/search-index/news.json'));
    await page.getByRole('searchbox', { name: 'Search the site' }).focus();
    await page.getByRole('combobox', { name: 'Search the site' }).waitFor();
    await index;
    assert.ok(
      requested.some((p) => !before.has(p) && p.endsWith('.js')),
      'the search code arrives on focus',
    );
    await page.context().close();
  });

  it('suggests as the visitor types; arrows and Enter open a result (English)', async () => {
    const page = await openIn(browser, `${stack.url}/`, 'en');
    await page.getByRole('searchbox', { name: 'Search the site' }).focus();
    const box = page.getByRole('combobox', { name: 'Search the site' });
    await box.pressSequentially('zephyr');
    const option = page.getByRole('option', { name: /E2E Lantern Keeper/ });
    await option.waitFor();
    assert.equal(await box.getAttribute('aria-expanded'), 'true');
    assert.deepEqual(await axeViolations(page), []);
    await box.press('ArrowDown');
    assert.equal(await option.getAttribute('aria-selected'), 'true');
    assert.equal(await box.getAttribute('aria-activedescendant'), await option.getAttribute('id'));
    await box.press('Enter');
    await page.waitForURL(`${stack.url}/books/${ids.book}`);
    await page.context().close();
  });

  it('Enter without a choice opens the /search page with the query; Escape closes the list (Arabic)', async () => {
    const page = await openIn(browser, `${stack.url}/`, 'ar');
    await page.getByRole('searchbox', { name: 'ابحث في الموقع' }).focus();
    const box = page.getByRole('combobox', { name: 'ابحث في الموقع' });
    await box.pressSequentially('غزة');
    await page.getByRole('option', { name: /ذاكرة البحر في المدينة/ }).waitFor();
    assert.deepEqual(await axeViolations(page), []);
    await box.press('Escape');
    assert.equal(await box.getAttribute('aria-expanded'), 'false');
    await box.press('Enter');
    await page.waitForURL(/\/search\?q=/);
    assert.equal(new URL(page.url()).searchParams.get('q'), 'غزة');
    assert.deepEqual(
      (await pageResults(page)).map((r) => r.href),
      [`/essays/${ids.essay}`],
    );
    await page.context().close();
  });

  it('the header never scrolls sideways: a box from 1141 px (also when it widens on focus), a search link below', async () => {
    for (const width of [901, 1024, 1141, 1280])
      for (const lang of ['en', 'ar']) {
        const page = await openIn(browser, `${stack.url}/books`, lang, { width, height: 800 });
        const overflow = () => page.locator('.header-inner').evaluate((e) => e.scrollWidth - e.clientWidth);
        assert.equal(await overflow(), 0, `${width}px ${lang}`);
        const box = page.getByRole('searchbox', { name: lang === 'ar' ? 'ابحث في الموقع' : 'Search the site' });
        assert.equal(await box.isVisible(), width > 1140, `${width}px ${lang}: box`);
        assert.equal(
          await page.getByRole('link', { name: lang === 'ar' ? 'فتح البحث' : 'Open search' }).isVisible(),
          width <= 1140,
          `${width}px ${lang}: link`,
        );
        if (width > 1140) {
          await box.focus();
          await page.getByRole('combobox').waitFor();
          assert.equal(await overflow(), 0, `${width}px ${lang}, focused`);
        }
        await page.context().close();
      }
  });

  it('on a phone the header links to the search page, ready to type (Arabic site)', async () => {
    const page = await openIn(browser, `${stack.url}/ar/`, null, VIEWPORTS.phone);
    assert.equal(await page.getByRole('searchbox').count(), 0, 'no box beside the menu');
    await page.getByRole('link', { name: 'فتح البحث' }).click();
    await page.waitForURL(`${stack.url}/ar/search`);
    const box = page.getByRole('searchbox', { name: 'ابحث في الموقع' });
    await page.waitForFunction(() => document.activeElement?.id === 'search-page-q');
    await box.pressSequentially('المكتبه');
    assert.deepEqual(
      (await pageResults(page)).map((r) => r.href),
      [`/ar/essays/${ids.essay}`],
    );
    await page.waitForURL(/\/ar\/search\?q=/);
    assert.deepEqual(await axeViolations(page), []);
    await page.context().close();
  });
});
