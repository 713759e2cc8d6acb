// Around each piece (issue 33), in headless Chromium and over HTTP against the real stack (built API
// + demo content + site built from it): an item page's previous/next and related items, and the
// category archives of essays and news, served by the API (as under `npm start`) and by nginx.
import assert from 'node:assert/strict';
import { chmodSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';

import { checkNginx, freePort, NO_NGINX, request, startDns, startNginx, writeNginxConfig } from '../test/support/nginx.mjs';
import { launchBrowser, VIEWPORTS } from './support/browser.mjs';
import { startStack } from './support/stack.mjs';

/** Essays of our own, newest first: two of poetry (one entered as 'poetry ', the same category), one Arabic 'شعر'. */
const ESSAYS = [
  { title: 'Around One', publishedDate: '2031-05-01', category: 'Poetry', translations: { ar: { title: 'حول واحد', category: 'شعر' } } },
  { title: 'Around Two', publishedDate: '2031-04-01', category: 'مسرح وسينما', contentLanguage: 'ar' },
  { title: 'Around Three', publishedDate: '2031-03-01', category: 'poetry ', translations: { ar: { title: 'حول ثلاثة' } } },
  { title: 'Around Four', publishedDate: '2031-02-01', category: null },
];
const ARABIC_SLUG = encodeURIComponent('مسرح-وسينما');

let stack;
let browser;
const ids = [];
const SHOTS = process.env.E2E_SCREENSHOTS;

before(async () => {
  stack = await startStack();
  const token = await stack.login();
  for (const essay of ESSAYS) {
    const made = await stack.call('POST', '/api/essays', {
      token,
      body: { excerpt: `${essay.title}, the excerpt.`, content: `${essay.title}, the text.`, published: true, ...essay },
    });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    ids.push(made.body.id);
  }
  await stack.buildSite();
  browser = await launchBrowser();
  if (SHOTS) await mkdir(SHOTS, { recursive: true });
});
after(async () => {
  await browser?.close();
  await stack?.stop();
});

const shot = async (page, name) => SHOTS && page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });

describe('previous, next and related at the end of an item page', () => {
  for (const [lang, prefix, words] of [
    ['en', '', { previous: 'Previous', next: 'Next', related: 'Related', titles: ['Around One', 'Around Three'] }],
    ['ar', '/ar', { previous: 'السابق', next: 'التالي', related: 'قد يهمّك أيضًا', titles: ['حول واحد', 'حول ثلاثة'] }],
  ]) {
    it(`an essay at ${prefix}/essays/{id} links the essays before and after it in the list and related ones, at addresses in its language`, async () => {
      for (const viewport of ['desktop', 'phone']) {
        const page = await browser.newPage({ viewport: VIEWPORTS[viewport] });
        await page.goto(`${stack.url}${prefix}/essays/${ids[1]}`, { waitUntil: 'load' });
        const around = page.getByRole('complementary', { name: lang === 'en' ? 'More to read' : 'المزيد للقراءة' });
        const previous = around.getByRole('link', { name: new RegExp(`${words.previous}.*${words.titles[0]}`) });
        const next = around.getByRole('link', { name: new RegExp(`${words.next}.*${words.titles[1]}`) });
        assert.equal(await previous.getAttribute('href'), `${prefix}/essays/${ids[0]}`);
        assert.equal(await next.getAttribute('href'), `${prefix}/essays/${ids[2]}`);
        assert.equal(await previous.getAttribute('rel'), 'prev');
        // Related: three others, never the essay itself or its neighbours; every link in the page's language.
        const related = around.getByRole('region', { name: words.related }).getByRole('link');
        assert.equal(await related.count(), 3);
        for (const href of await related.evaluateAll((links) => links.map((a) => a.getAttribute('href')))) {
          assert.match(href, new RegExp(`^${prefix}/essays/\\d+$`));
          assert.ok(![ids[0], ids[1], ids[2]].map((id) => `${prefix}/essays/${id}`).includes(href), href);
        }
        // In Arabic the arrows point the other way (the previous one is on the right, pointing right).
        const arrow = await previous.locator('.back-arrow').evaluate((el) => getComputedStyle(el).transform);
        assert.equal(arrow === 'none', lang === 'en', `arrow transform ${arrow}`);
        // The links work: the next essay's page opens.
        await next.click();
        await page.waitForURL(`**${prefix}/essays/${ids[2]}`);
        assert.match(await page.locator('h1').first().innerText(), new RegExp(words.titles[1]));
        await page.goBack();
        if (viewport === 'desktop' || lang === 'ar') await shot(page, `around-essay-${lang}-${viewport}`);
        // Not printed.
        await page.emulateMedia({ media: 'print' });
        assert.equal(await around.isVisible(), false);
        await page.close();
      }
    });
  }

  it('books, plays and news end the same way', async () => {
    for (const kind of ['books', 'plays', 'news']) {
      const list = (await stack.call('GET', `/api/${kind}`)).body;
      const res = await fetch(`${stack.url}/ar/${kind}/${list[1].id}`);
      const html = await res.text();
      assert.match(html, new RegExp(`href="/ar/${kind}/${list[0].id}" rel="prev"`), kind);
      if (list[2]) assert.match(html, new RegExp(`href="/ar/${kind}/${list[2].id}" rel="next"`), kind);
    }
  });
});

describe('category archives', () => {
  const archives = [
    ['/essays/category/poetry', ['Around One', 'Around Three'], 'Essays: Poetry'],
    ['/ar/essays/category/poetry', ['حول واحد', 'حول ثلاثة'], 'المقالات: شعر'],
    [`/essays/category/${ARABIC_SLUG}`, ['Around Two'], 'Essays: مسرح وسينما'],
    [`/ar/essays/category/${ARABIC_SLUG}`, ['Around Two'], 'المقالات: مسرح وسينما'],
    ['/news/category/award', [], 'News: Award'],
    ['/ar/news/category/award', [], 'الأخبار: جائزة'],
  ];

  it('each item links its category from its badge, on the list and on its page, in the page language', async () => {
    for (const address of ['/essays', `/essays/${ids[0]}`, '/ar/essays', `/ar/essays/${ids[1]}`]) {
      const html = await (await fetch(stack.url + address)).text();
      const expected = address.startsWith('/ar') ? '/ar/essays/category/' : '/essays/category/';
      assert.match(html, new RegExp(`class="badge badge-link" href="${expected}(poetry|${ARABIC_SLUG})"`), address);
    }
    const news = await (await fetch(`${stack.url}/ar/news`)).text();
    assert.match(news, /class="badge badge-link badge-award" href="\/ar\/news\/category\/award"/);
  });

  it('answers each archive, in both languages and with an Arabic category, from the API (npm start) with its items', async () => {
    const newsAward = (await stack.call('GET', '/api/news')).body.filter((n) => n.category === 'award');
    assert.ok(newsAward.length > 0);
    for (const [address, titles, heading] of archives) {
      const page = await browser.newPage();
      const res = await page.goto(stack.url + address);
      assert.equal(res.status(), 200, address);
      assert.match(await page.locator('h1').innerText(), new RegExp(heading), address);
      const shown = await page.locator('.archive-title a').allInnerTexts();
      if (titles.length) assert.deepEqual(shown, titles, address);
      else assert.equal(shown.length, newsAward.length, address);
      if (address.includes(ARABIC_SLUG) && address.startsWith('/ar')) {
        await shot(page, 'archive-ar-desktop');
        await page.setViewportSize(VIEWPORTS.phone);
        await shot(page, 'archive-ar-phone');
      }
      await page.close();
    }
    // A category no item has: its section's not-found page, with a real 404.
    for (const [address, text] of [
      ['/essays/category/nothing-here', 'Category not found'],
      [`/ar/essays/category/${encodeURIComponent('لا-شيء')}`, 'التصنيف غير موجود'],
    ]) {
      const res = await fetch(stack.url + address);
      assert.equal(res.status, 404, address);
      assert.match(await res.text(), new RegExp(text), address);
    }
  });

  it('lists every archive in the sitemap, at its address in each language', async () => {
    const sitemap = await (await fetch(`${stack.url}/sitemap.xml`)).text();
    for (const [address] of archives) assert.ok(sitemap.includes(`<loc>${stack.url}${address}</loc>`), address);
    assert.ok(!sitemap.includes('/essays/category/nothing'));
  });

  it('nginx serves them too: 200 with the page, a category no item has its 404 page', { skip: NO_NGINX }, async () => {
    const tmp = await mkdtemp(path.join(os.tmpdir(), 'around-nginx-'));
    chmodSync(tmp, 0o755);
    chmodSync(stack.varDir, 0o755);
    const dns = await startDns({ 'admin-api': ['127.0.0.1'] });
    let nginx;
    try {
      const port = await freePort();
      const apiPort = Number(new URL(stack.url).port);
      const siteLive = await realpath(path.join(stack.varDir, 'site', 'live'));
      const conf = writeNginxConfig(tmp, { port, apiPort, siteLive, dnsPort: dns.port });
      assert.ok(checkNginx(tmp, conf).ok);
      nginx = await startNginx(tmp, conf, port);
      for (const [address, titles] of archives) {
        const res = await request(port, address);
        assert.equal(res.status, 200, `${address}: ${res.status}`);
        for (const title of titles) assert.ok(res.text.includes(title), `${address} shows ${title}`);
      }
      const missing = await request(port, `/ar/essays/category/${encodeURIComponent('لا-شيء')}`);
      assert.equal(missing.status, 404);
      assert.match(missing.text, /التصنيف غير موجود/);
    } finally {
      await nginx?.stop();
      await dns.close();
      await rm(tmp, { recursive: true, force: true });
    }
  });
});
