// Around each piece (issue 33), against the real stack (built API + demo content + site built from
// it): every item page's share card, and an essay's byline (author, date, reading time) and bio box,
// in English and Arabic, in headless Chromium.
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';

import { publicPages } from '@portfolio/contract/kinds';
import sharp from 'sharp';

import { launchBrowser, VIEWPORTS } from './support/browser.mjs';
import { startStack } from './support/stack.mjs';

/** 1,000 English words (5 minutes at 200 a minute) with an image line, and 560 Arabic ones (3 minutes at 180). */
const sentence = (words, n) => Array.from({ length: n }, (_, i) => words[i % words.length]).join(' ');
const LONG_ESSAY = {
  title: 'A Long Walk by the Sea',
  excerpt: 'An essay long enough to take minutes.',
  content: [
    sentence(['the', 'sea', 'keeps', 'our', 'names'], 500),
    '![The harbour at dawn](/uploads/essays/none.jpg)',
    sentence(['waves', 'carry', 'what', 'we', 'said'], 500),
  ].join('\n\n'),
  publishedDate: '2025-03-14T09:00:00.000Z',
  contentLanguage: 'en',
  translations: {
    ar: {
      title: 'نزهة طويلة على البحر',
      excerpt: 'مقالة طويلة تستغرق دقائق.',
      content: `${sentence(['البحر', 'يحفظ', 'أسماءنا'], 280)}\n\n${sentence(['الموج', 'يحمل', 'ما', 'قلناه'], 280)}`,
    },
  },
};

const ITEM_KINDS = ['books', 'essays', 'news', 'plays'];

let stack;
let browser;
let settings;
const ids = {};
// E2E_SCREENSHOTS=<folder>: also keeps screenshots (to look at them).
const SHOTS = process.env.E2E_SCREENSHOTS;

before(async () => {
  stack = await startStack();
  const token = await stack.login();
  const essay = await stack.call('POST', '/api/essays', { token, body: LONG_ESSAY });
  assert.equal(essay.status, 201, JSON.stringify(essay.body));
  ids.essay = essay.body.id;
  // The portrait: one of the demo pictures.
  const artwork = (await stack.call('GET', '/api/artworks')).body[0];
  const saved = await stack.call('PATCH', '/api/admin/settings', { token, body: { portraitImage: artwork.image } });
  assert.equal(saved.status, 200, JSON.stringify(saved.body));
  settings = saved.body;
  await stack.buildSite();
  browser = await launchBrowser();
  if (SHOTS) await mkdir(SHOTS, { recursive: true });
});
after(async () => {
  await browser?.close();
  await stack?.stop();
});

const html = async (address) => {
  const res = await fetch(stack.url + address);
  assert.equal(res.status, 200, address);
  return res.text();
};
const meta = (page, attribute, name) => {
  const tag = page.match(new RegExp(`<meta ${attribute}="${name.replace(/[.:]/g, '\\$&')}" content="([^"]*)"`));
  return tag?.[1]
    .replace(/&amp;/g, '&')
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"');
};

describe('share cards', () => {
  const cards = new Map();
  /** The card at `url`: answered once, its type and pixel size. */
  const card = (url) => {
    if (!cards.has(url))
      cards.set(
        url,
        (async () => {
          const res = await fetch(url);
          assert.equal(res.status, 200, url);
          const { width, height, format } = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
          return { type: res.headers.get('content-type'), width, height, format };
        })(),
      );
    return cards.get(url);
  };

  it('every item page of the demo site, in English and Arabic, shares its own card of 1200 × 630 pixels', async () => {
    let pages = 0;
    const own = [];
    for (const kind of ITEM_KINDS) {
      for (const item of (await stack.call('GET', `/api/${kind}`)).body) {
        // The item's own pages: not its kind's list, nor its category's archive.
        const addresses = publicPages(kind, item).filter((address) => address !== `/${kind}` && !address.startsWith(`/${kind}/category/`));
        for (const address of addresses.flatMap((a) => [a, `/ar${a}`])) {
          const page = await html(address);
          const image = meta(page, 'property', 'og:image');
          assert.ok(image?.startsWith(`${stack.url}/`), `${address}: og:image ${image} is an absolute address of the site`);
          assert.equal(meta(page, 'name', 'twitter:image'), image, address);
          assert.equal(meta(page, 'name', 'twitter:card'), 'summary_large_image', address);
          assert.equal(meta(page, 'property', 'og:image:width'), '1200', address);
          assert.equal(meta(page, 'property', 'og:image:height'), '630', address);
          assert.ok(meta(page, 'property', 'og:image:alt'), `${address}: og:image:alt`);
          const { type, width, height } = await card(image);
          assert.match(type, /^image\/(jpeg|png)$/, address);
          assert.deepEqual([width, height], [1200, 630], `${address}: ${image}`);
          // A picture of its own is cut from it; without one, the site's card in the page's language.
          const picture = item.coverImage ?? item.imageUrl ?? item.image;
          if (picture?.startsWith('/uploads/') && !address.includes('/reviews')) {
            assert.match(image, /\/_astro\/[^/]+-1200x630\.[0-9a-f]{10}\.jpg$/, address);
            own.push(image);
          } else if (!picture)
            assert.equal(image, `${stack.url}${address.startsWith('/ar/') ? '/ar' : ''}/og-image.png`, `${address} shares the site's card`);
          pages++;
        }
      }
    }
    assert.ok(pages >= 20, `${pages} item pages`);
    assert.ok(new Set(own).size >= 5, 'items with pictures share cards of their own');
  });

  it("the site's cards differ by language, and pages without a picture of their own share the one in theirs", async () => {
    const [en, ar] = await Promise.all(
      ['/og-image.png', '/ar/og-image.png'].map(async (address) => Buffer.from(await (await fetch(stack.url + address)).arrayBuffer())),
    );
    assert.ok(!en.equals(ar), 'the English and Arabic cards carry the name in their language');
    assert.equal(meta(await html('/ar/essays'), 'property', 'og:image'), `${stack.url}/ar/og-image.png`);
    assert.equal(meta(await html(`/essays/${ids.essay}`), 'property', 'og:image'), `${stack.url}/og-image.png`);
  });

  it('essays and news are articles: published time and author, the same as their structured data', async () => {
    const news = (await stack.call('GET', '/api/news')).body[0];
    for (const [address, lang] of [
      [`/essays/${ids.essay}`, 'en'],
      [`/ar/essays/${ids.essay}`, 'ar'],
      [`/news/${news.id}`, 'en'],
      [`/ar/news/${news.id}`, 'ar'],
    ]) {
      const page = await html(address);
      assert.equal(meta(page, 'property', 'og:type'), 'article', address);
      const published = meta(page, 'property', 'article:published_time');
      assert.equal(published, address.includes('essays') ? LONG_ESSAY.publishedDate : news.publishedDate, address);
      assert.equal(meta(page, 'property', 'article:author'), lang === 'ar' ? settings.authorNameAr : settings.authorNameEn, address);
      const ld = JSON.parse(/<script type="application\/ld\+json">(.*?)<\/script>/s.exec(page)[1]);
      assert.equal(ld.datePublished, published, `${address}: JSON-LD datePublished`);
      assert.equal(ld.author.name, meta(page, 'property', 'article:author'), `${address}: JSON-LD author`);
    }
  });
});

describe('byline and bio box', () => {
  const shot = async (page, name) => SHOTS && page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });

  for (const [lang, prefix, words] of [
    ['en', '', { by: `By ${'Author Name'}`, time: '5 min read', about: 'About the author', date: '14 March 2025' }],
    ['ar', '/ar', { by: 'بقلم اسم الكاتب', time: '3 دقائق للقراءة', about: 'عن الكاتبة', date: '14 مارس 2025' }],
  ]) {
    it(`an essay in ${lang} shows the byline under its title and ends with the bio box (desktop and phone, light and dark)`, async () => {
      for (const [width, viewport] of Object.entries(VIEWPORTS)) {
        for (const scheme of ['light', 'dark']) {
          const context = await browser.browser.newContext({ viewport, colorScheme: scheme });
          try {
            const page = await context.newPage();
            await page.goto(`${stack.url}${prefix}/essays/${ids.essay}`, { waitUntil: 'networkidle' });
            const byline = page.locator('h1 + .byline');
            assert.equal((await byline.innerText()).replace(/\s+/g, ' ').trim(), `${words.by} · ${words.date} · ${words.time}`);
            const box = page.getByRole('complementary', { name: lang === 'ar' ? settings.authorNameAr : settings.authorNameEn });
            assert.ok(await box.isVisible(), 'the bio box is shown');
            const text = await box.innerText();
            assert.ok(text.includes(words.about), text);
            assert.ok(text.includes(lang === 'ar' ? settings.shortBioAr : settings.shortBioEn), text);
            assert.equal(
              await box.getByRole('img').getAttribute('alt'),
              lang === 'ar' ? settings.authorNameAr : settings.authorNameEn,
              'the portrait is named',
            );
            assert.equal(await box.evaluate((el) => getComputedStyle(el).direction), lang === 'ar' ? 'rtl' : 'ltr');
            // The box follows the theme: its background is the theme's surface colour.
            const surface = await box.evaluate((el) => getComputedStyle(el).backgroundColor);
            assert.equal(surface, scheme === 'dark' ? 'rgb(26, 33, 41)' : 'rgb(255, 255, 255)');
            // Nothing sticks out of a phone's width.
            assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth), 'no sideways scroll');
            await shot(page, `essay-${lang}-${width}-${scheme}`);
          } finally {
            await context.close();
          }
        }
      }
    });
  }

  it('essay cards show the reading time; news items show the byline and the bio box too', async () => {
    const list = await html('/essays');
    assert.ok(list.includes('5 min read'), 'the long essay’s card');
    const arList = await html('/ar/essays');
    assert.ok(arList.includes('3 دقائق للقراءة'));
    const news = (await stack.call('GET', '/api/news')).body[0];
    const page = await html(`/ar/news/${news.id}`);
    assert.match(page, /class="meta byline[^"]*"/);
    assert.match(page, /class="bio-box[^"]*"/);
    if (SHOTS)
      for (const [address, name] of [
        ['/ar/essays', 'essays-ar-phone'],
        [`/news/${news.id}`, 'news-en-phone'],
      ]) {
        const context = await browser.browser.newContext({ viewport: VIEWPORTS.phone });
        const phone = await context.newPage();
        await phone.goto(stack.url + address, { waitUntil: 'networkidle' });
        await shot(phone, name);
        await context.close();
      }
  });

  it('the essay prints its bio plainly, at the end, without the card around it', async () => {
    const context = await browser.browser.newContext({ viewport: VIEWPORTS.desktop });
    try {
      const page = await context.newPage();
      await page.goto(`${stack.url}/ar/essays/${ids.essay}`, { waitUntil: 'networkidle' });
      await page.emulateMedia({ media: 'print' });
      const box = page.locator('.bio-box');
      assert.ok(await box.isVisible());
      assert.deepEqual(await box.evaluate((el) => [getComputedStyle(el).backgroundColor, getComputedStyle(el).boxShadow]), [
        'rgba(0, 0, 0, 0)',
        'none',
      ]);
    } finally {
      await context.close();
    }
  });
});
