// Reading comfort on the public site (issue 33), in headless Chromium against the real stack (built
// API + demo content + site built from it): feeds a reader can find, print layout, dark mode.
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';

import { launchBrowser, VIEWPORTS } from './support/browser.mjs';
import { startStack } from './support/stack.mjs';

let stack;
let browser;
const ids = {};
// E2E_SCREENSHOTS=<folder>: also keeps screenshots (to look at them).
const SHOTS = process.env.E2E_SCREENSHOTS;

before(async () => {
  stack = await startStack();
  const first = async (kind) => (await stack.call('GET', `/api/${kind}`)).body[0]?.id;
  Object.assign(ids, { essay: await first('essays'), play: await first('plays'), book: await first('books'), news: await first('news') });
  assert.ok(ids.essay && ids.play && ids.book && ids.news, 'the demo content has an essay, a play, a book and news');
  await stack.buildSite();
  browser = await launchBrowser();
  if (SHOTS) await mkdir(SHOTS, { recursive: true });
});
after(async () => {
  await browser?.close();
  await stack?.stop();
});

const shot = async (page, name) => SHOTS && page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });

describe('feeds a reader can find', () => {
  for (const [kind, words] of [
    ['essays', { en: 'Follow the essays by RSS', ar: 'تابع المقالات عبر RSS' }],
    ['news', { en: 'Follow the news by RSS', ar: 'تابع الأخبار عبر RSS' }],
  ]) {
    for (const [lang, address, stored] of [
      ['en', `/${kind}`, undefined],
      ['ar', `/ar/${kind}`, undefined],
      // The specification's address read in Arabic (the visitor's stored choice) links the Arabic feed.
      ['ar', `/${kind}`, 'ar'],
    ]) {
      it(`the ${kind} list at ${address}${stored ? ' (read in Arabic)' : ''} links its ${lang} feed, which answers RSS`, async () => {
        const page = await browser.newPage({ viewport: VIEWPORTS.phone, lang: stored });
        try {
          await page.goto(stack.url + address, { waitUntil: 'networkidle' });
          const link = page.getByRole('link', { name: words[lang], exact: true });
          assert.equal(await link.count(), 1);
          assert.ok(await link.isVisible());
          const href = await link.getAttribute('href');
          assert.equal(href, lang === 'ar' ? `/ar/rss/${kind}.xml` : `/rss/${kind}.xml`);
          const res = await fetch(stack.url + href);
          assert.equal(res.status, 200);
          assert.match(res.headers.get('content-type'), /xml/);
          assert.match(await res.text(), new RegExp(`<language>${lang}</language>|^(?![\\s\\S]*<language>)`));
          await shot(page, `feed-${kind}-${lang}${stored ? '-stored' : ''}-phone`);
        } finally {
          await page.context().close();
        }
      });
    }
  }

  it('every page names the essays and news feeds of its language in <head>', async () => {
    const page = await browser.newPage();
    try {
      for (const [address, prefix, title] of [
        ['/', '', /— Essays & Commentary$/],
        [`/books/${ids.book}`, '', /— Essays & Commentary$/],
        ['/ar/', '/ar', /— مقالات وتعليقات$/],
        [`/ar/plays/${ids.play}`, '/ar', /— مقالات وتعليقات$/],
        ['/ar/contact', '/ar', /— مقالات وتعليقات$/],
      ]) {
        await page.goto(stack.url + address);
        const feeds = await page.$$eval('head link[rel="alternate"][type="application/rss+xml"]', (links) =>
          links.map((l) => ({ href: l.getAttribute('href'), title: l.title })),
        );
        assert.deepEqual(
          feeds.map((f) => f.href),
          [`${prefix}/rss/essays.xml`, `${prefix}/rss/news.xml`],
          address,
        );
        assert.match(feeds[0].title, title, address);
      }
    } finally {
      await page.context().close();
    }
  });
});
