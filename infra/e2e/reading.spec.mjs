// Reading comfort on the public site (issue 33), in headless Chromium against the real stack (built
// API + demo content + site built from it): feeds a reader can find, print layout, dark mode.
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';

import { AxeBuilder } from '@axe-core/playwright';

import { launchBrowser, VIEWPORTS } from './support/browser.mjs';
import { startStack } from './support/stack.mjs';

/** An essay and a play (with its script) in both languages, each with a link elsewhere. */
const PRINTED = {
  essay: {
    title: 'Printed Words',
    excerpt: 'An essay to print.',
    content: 'First paragraph to print.\n\nSecond paragraph to print.',
    essayUrl: 'https://press.example/printed-words',
    contentLanguage: 'en',
    translations: { ar: { title: 'كلمات مطبوعة', excerpt: 'مقالة للطباعة.', content: 'الفقرة الأولى للطباعة.\n\nالفقرة الثانية.' } },
  },
  play: {
    title: 'The Printed Play',
    status: 'published',
    description: 'A play to print.',
    youtubeUrl: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
    content: 'ACT I\nMARYAM: The sea is loud tonight.\nYOUSEF: It always is.',
    contentLanguage: 'en',
    translations: {
      ar: {
        title: 'المسرحية المطبوعة',
        description: 'مسرحية للطباعة.',
        content: 'الفصل الأول\nمريم: البحر صاخب الليلة.\nيوسف: هو كذلك دائمًا.',
      },
    },
  },
};

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
  const token = await stack.login();
  const essay = await stack.call('POST', '/api/essays', { token, body: PRINTED.essay });
  const play = await stack.call('POST', '/api/plays', { token, body: PRINTED.play });
  assert.equal(essay.status, 201, JSON.stringify(essay.body));
  assert.equal(play.status, 201, JSON.stringify(play.body));
  Object.assign(ids, { printedEssay: essay.body.id, printedPlay: play.body.id });
  await stack.buildSite();
  browser = await launchBrowser();
  if (SHOTS) await mkdir(SHOTS, { recursive: true });
});
after(async () => {
  await browser?.close();
  await stack?.stop();
});

const shot = async (page, name, fullPage = true) => SHOTS && page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage });

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

describe('print', () => {
  for (const lang of ['en', 'ar']) {
    for (const [kind, path_, title, external, line] of [
      [
        'essay',
        'essays',
        { en: 'Printed Words', ar: 'كلمات مطبوعة' },
        PRINTED.essay.essayUrl,
        { en: 'Second paragraph to print.', ar: 'الفقرة الثانية.' },
      ],
      [
        'play',
        'plays',
        { en: 'The Printed Play', ar: 'المسرحية المطبوعة' },
        PRINTED.play.youtubeUrl,
        { en: 'It always is.', ar: 'هو كذلك دائمًا.' },
      ],
    ]) {
      it(`a${kind === 'essay' ? 'n' : ''} ${kind} prints alone, links with their address (${lang})`, async () => {
        const page = await browser.newPage();
        try {
          await page.goto(`${stack.url}${lang === 'ar' ? '/ar' : ''}/${path_}/${ids[kind === 'essay' ? 'printedEssay' : 'printedPlay']}`, {
            waitUntil: 'networkidle',
          });
          // On screen: header, footer and the subscribe form are there.
          for (const selector of ['header.site-header', 'footer.site-footer', 'form.newsletter-form']) {
            assert.ok(await page.locator(selector).first().isVisible(), `${selector} on screen`);
          }
          await page.emulateMedia({ media: 'print' });
          for (const selector of ['header.site-header', 'footer.site-footer', 'form', '.skip-link', '.back-link']) {
            assert.equal(await page.locator(`${selector}:visible`).count(), 0, `${selector} is not printed`);
          }
          assert.equal(await page.locator('h1:visible').innerText(), title[lang]);
          assert.ok(await page.locator('main p', { hasText: line[lang] }).first().isVisible(), 'the text (or the script) is printed');
          // The link elsewhere prints its address; a link within the site does not.
          const after = (a) => getComputedStyle(a, '::after').content;
          assert.equal(await page.locator(`main a[href="${external}"]`).evaluate(after), `" \u2066(${external})\u2069"`);
          const inside = await page
            .locator('main a[href^="/"]')
            .evaluateAll((links) => links.map((a) => getComputedStyle(a, '::after').content));
          assert.ok(
            inside.every((c) => c === 'none' || c === 'normal'),
            inside.join(),
          );
          const breaks = await page.locator('main :is(h1, h2, h3)').evaluateAll((hs) => hs.map((h) => getComputedStyle(h).breakAfter));
          assert.ok(breaks.length && breaks.every((b) => b === 'avoid'), breaks.join());
          assert.equal(await page.evaluate(() => document.documentElement.dir), lang === 'ar' ? 'rtl' : 'ltr');

          // Printed to PDF: the links in the file are the content's own, none of the menu's or the footer's.
          const pdf = (await page.pdf({ format: 'A4', printBackground: true })).toString('latin1');
          assert.match(pdf, /^%PDF-/);
          const uris = [...pdf.matchAll(/\/URI \(([^)]*)\)/g)].map((m) => m[1]);
          assert.ok(uris.includes(external), `the PDF links ${external}: ${uris.join(' ')}`);
          assert.ok(!uris.some((u) => /\/(contact|gallery|books)$/.test(u)), `no menu link in the PDF: ${uris.join(' ')}`);
          if (SHOTS) {
            await page.setViewportSize({ width: 794, height: 1123 });
            await shot(page, `print-${kind}-${lang}`);
          }
        } finally {
          await page.context().close();
        }
      });
    }
  }
});

describe('dark mode', () => {
  /** A page as a reader whose system is `scheme`, with `stored` as the theme chosen before (or none). */
  async function themedPage({ scheme = 'light', stored, viewport = VIEWPORTS.desktop, javaScriptEnabled = true } = {}) {
    const context = await browser.browser.newContext({ viewport, colorScheme: scheme, javaScriptEnabled });
    if (stored) await context.addInitScript((t) => localStorage.setItem('theme', t), stored);
    // What the first frame shows: <body>'s background before anything is painted.
    await context.addInitScript(() =>
      requestAnimationFrame(() => {
        window.firstFrame = document.body && getComputedStyle(document.body).backgroundColor;
      }),
    );
    return context.newPage();
  }
  const LIGHT = 'rgb(251, 247, 240)';
  const DARK = 'rgb(18, 23, 29)';
  const background = (page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);

  it('follows the system, also with scripts off; a stored choice wins from the first frame', async () => {
    for (const [scheme, stored, expected] of [
      ['dark', undefined, DARK],
      ['light', undefined, LIGHT],
      ['light', 'dark', DARK],
      ['dark', 'light', LIGHT],
    ]) {
      for (const address of ['/', `/ar/essays/${ids.printedEssay}`]) {
        const page = await themedPage({ scheme, stored });
        try {
          await page.goto(stack.url + address, { waitUntil: 'networkidle' });
          assert.equal(
            await page.evaluate(() => window.firstFrame),
            expected,
            `${address}, system ${scheme}, stored ${stored}: first frame`,
          );
          assert.equal(await background(page), expected);
        } finally {
          await page.context().close();
        }
      }
    }
    const page = await themedPage({ scheme: 'dark', javaScriptEnabled: false });
    try {
      await page.goto(`${stack.url}/ar/`);
      assert.equal(await background(page), DARK, 'no script: the system theme');
      assert.equal(await page.locator('[data-theme-toggle]').isVisible(), false, 'no script: no toggle that cannot work');
    } finally {
      await page.context().close();
    }
  });

  for (const lang of ['en', 'ar']) {
    it(`the header's theme menu, by keyboard, is remembered (${lang})`, async () => {
      const page = await themedPage({ scheme: 'light' });
      const names = { en: ['Theme', 'System', 'Light', 'Dark'], ar: ['المظهر', 'حسب النظام', 'فاتح', 'داكن'] }[lang];
      try {
        await page.goto(`${stack.url}${lang === 'ar' ? '/ar' : ''}/essays`, { waitUntil: 'networkidle' });
        const toggle = page.getByRole('button', { name: names[0], exact: true });
        assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
        await toggle.focus();
        await page.keyboard.press('Enter');
        assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
        const group = page.getByRole('group', { name: names[0] });
        const pressed = () =>
          group.getByRole('button').evaluateAll((bs) => bs.map((b) => `${b.innerText.trim()}:${b.getAttribute('aria-pressed')}`));
        assert.deepEqual(await pressed(), [`${names[1]}:true`, `${names[2]}:false`, `${names[3]}:false`]);
        // Focus went to the current choice; the next one down is Light, then Dark.
        assert.equal(await page.evaluate(() => document.activeElement.innerText.trim()), names[1]);
        await page.keyboard.press('Tab');
        await page.keyboard.press('Tab');
        await page.keyboard.press('Enter');
        assert.equal(await background(page), DARK);
        assert.equal(await group.isVisible(), false, 'the menu closes on a choice');
        assert.equal(await page.evaluate(() => document.activeElement.getAttribute('data-theme-toggle')), '', 'focus back on the toggle');
        assert.equal(await page.evaluate(() => localStorage.getItem('theme')), 'dark');
        await shot(page, `theme-menu-${lang}-desktop-chosen`, false);

        await page.reload({ waitUntil: 'networkidle' });
        assert.equal(await page.evaluate(() => window.firstFrame), DARK, 'remembered from the first frame');
        await toggle.click();
        assert.deepEqual(await pressed(), [`${names[1]}:false`, `${names[2]}:false`, `${names[3]}:true`]);
        await shot(page, `theme-menu-${lang}-desktop-open-dark`, false);
        const axe = await new AxeBuilder({ page }).analyze();
        assert.deepEqual(
          axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
          [],
          'axe, menu open',
        );
        await page.keyboard.press('Escape');
        assert.equal(await group.isVisible(), false, 'Escape closes the menu');
        // Back to the system's (light): nothing stored.
        await toggle.click();
        await group.getByRole('button', { name: names[1] }).click();
        assert.equal(await background(page), LIGHT);
        assert.equal(await page.evaluate(() => localStorage.getItem('theme')), null);
      } finally {
        await page.context().close();
      }
    });
  }

  it('on a phone the three choices are in the menu', async () => {
    const page = await themedPage({ scheme: 'dark', viewport: VIEWPORTS.phone });
    try {
      await page.goto(`${stack.url}/ar/`, { waitUntil: 'networkidle' });
      await page.getByRole('button', { name: 'فتح القائمة' }).click();
      const group = page.getByRole('group', { name: 'المظهر' });
      assert.ok(await group.isVisible());
      await shot(page, 'theme-phone-menu-ar-dark', false);
      await group.getByRole('button', { name: 'فاتح' }).click();
      assert.equal(await background(page), LIGHT);
      assert.equal(await group.getByRole('button', { name: 'فاتح' }).getAttribute('aria-pressed'), 'true');
    } finally {
      await page.context().close();
    }
  });

  it('axe color-contrast passes in light, system dark and chosen dark; images are never inverted', async () => {
    const routes = [
      '/',
      '/essays',
      `/essays/${ids.printedEssay}`,
      `/news/${ids.news}`,
      '/ar/',
      `/ar/plays/${ids.play}`,
      `/ar/books/${ids.book}`,
      '/ar/contact',
    ];
    const failures = [];
    for (const [mode, options] of [
      ['light', { scheme: 'light' }],
      ['system dark', { scheme: 'dark' }],
      ['chosen dark', { scheme: 'light', stored: 'dark' }],
    ]) {
      for (const route of routes) {
        const page = await themedPage(options);
        try {
          await page.goto(stack.url + route, { waitUntil: 'networkidle' });
          if (mode !== 'light') {
            assert.equal(await background(page), DARK, `${route} is dark (${mode})`);
            const filters = await page
              .locator('img')
              .evaluateAll((imgs) => imgs.map((i) => getComputedStyle(i).filter).filter((f) => f !== 'none'));
            assert.deepEqual(filters, [], `${route}: no filter on images`);
          }
          const axe = await new AxeBuilder({ page }).withRules(['color-contrast']).analyze();
          for (const v of axe.violations)
            failures.push(`${mode} ${route}: ${v.nodes.map((n) => `${n.target.join(' ')} ${n.any[0]?.message ?? ''}`).join('; ')}`);
        } finally {
          await page.context().close();
        }
      }
    }
    assert.deepEqual(failures, []);
  });

  it('screenshots: home and an essay, English and Arabic, desktop and phone, light and dark', { skip: !SHOTS }, async () => {
    for (const scheme of ['light', 'dark']) {
      for (const [size, viewport] of Object.entries(VIEWPORTS)) {
        for (const address of ['/', '/ar/', `/essays/${ids.essay}`, `/ar/essays/${ids.essay}`]) {
          const page = await themedPage({ scheme, viewport });
          try {
            await page.goto(stack.url + address, { waitUntil: 'networkidle' });
            await page.screenshot({ path: path.join(SHOTS, `${scheme}-${size}${address.replace(/[/]/g, '_')}.png`) });
          } finally {
            await page.context().close();
          }
        }
      }
    }
  });
});
