#!/usr/bin/env node
// Benchmark of the site's search (site/src/lib/search/), printed as figures (no pass/fail exit code):
//   1. The index at BENCH_SEARCH_ITEMS items (default 4,000: a fifth each of books, essays, artworks,
//      plays and news, half of them Arabic with diacritics): size of the five shards (raw and
//      gzipped) and the time to render them through the site's renderer, cold (the collections read
//      from the API) and warm (read already, as in a full publish where the lists read them too).
//   2. Search in the browser over that index: time until a shared /search?q= link shows its results
//      (index download and preparation included), then the time of one search as the visitor types
//      (median and p95 over several queries, English and Arabic).
//   3. JavaScript of a page before search opens and after (gzipped), and the index downloaded on opening.
import { readdir, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

import { startRenderer } from '@portfolio/site/render/renderer.mjs';

import { launchBrowser } from '../e2e/support/browser.mjs';
import { ROOT, startStack } from '../e2e/support/stack.mjs';

const ITEMS = Number(process.env.BENCH_SEARCH_ITEMS ?? 4000);
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
const ms = (n) => `${n.toFixed(n < 10 ? 2 : 0)} ms`;
const line = (label, value, note = '') => console.log(`  ${label.padEnd(52)} ${String(value).padStart(12)}  ${note}`);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p95 = (xs) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))];

// Text from a vocabulary in a random order (seeded), so sizes and gzip ratios are like prose, not like a repeated line.
const EN_WORDS = `the a of and in to lighthouse keeper counted ships night orchard winter waited never came sea city memory
olive tree grandmother kitchen window harbour fishermen boats morning light bread market street children school letter
stamp border road checkpoint garden lemon jasmine rooftop wall painting colour blue red ochre canvas brush ink paper
story novel chapter poem verse theatre stage actor curtain audience exile return home house key door courtyard well
water rain drought summer autumn spring moon stars radio news photograph album wedding song oud drum dance festival
prison silence voice name names remember forget dream sleep wake walk run wait hope fear grief joy laughter bread salt`.split(/\s+/);
const AR_WORDS = `البحر المدينة غَزَّةَ الذاكرة الشّاعِرُ كَتَبَ حكاية الزيتون الجدّة المطبخ النافذة الميناء الصيادون القوارب الصباح
الضوء الخبز السوق الشارع الأطفال المدرسة رسالة الطابع الحدود الطريق الحاجز الحديقة الليمون الياسمين السطح الجدار
اللوحة اللون الأزرق الأحمر القماش الفرشاة الحبر الورق الرواية الفصل القصيدة البيت المسرح الممثل الستارة الجمهور
المنفى العودة المفتاح الباب الفناء البئر الماء المطر الصيف الخريف الربيع القمر النجوم المذياع الأخبار الصورة
الألبوم العرس الأغنية العود الطبل الرقص المهرجان السجن الصمت الصوت الأسماء تذكّر ننسى الحلم النوم نمشي ننتظر
الأمل الخوف الحزن الفرح الضحك الملح مكتبة مدرسة إلى على أحلام ـــ وفي ومن عن`.split(/\s+/);
let seed = 42;
const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const words = (list, n) => Array.from({ length: n }, () => list[Math.floor(random() * list.length)]).join(' ');
/** About `n` sentences of 14 words, Arabic for odd items, with the item's number as a word of its own. */
const text = (i, n) => Array.from({ length: n }, () => `${words(i % 2 ? AR_WORDS : EN_WORDS, 14)}.`).join(' ') + ` item${i}`;

async function createContent(stack) {
  const token = await stack.login();
  const per = Math.ceil(ITEMS / 5);
  const post = async (route, body) => {
    const res = await stack.call('POST', route, { token, body });
    if (res.status !== 201) throw new Error(`${route}: ${res.status} ${JSON.stringify(res.body)}`);
  };
  const started = Date.now();
  for (let i = 0; i < per; i++) {
    await Promise.all([
      post('/api/books', {
        title: i % 2 ? `كتاب ${i}` : `Book ${i}`,
        description: text(i, 5),
        year: 1990 + (i % 35),
        publisher: 'Bench Press',
        published: true,
      }),
      post('/api/essays', { title: i % 2 ? `مقالة ${i}` : `Essay ${i}`, excerpt: text(i, 1), content: text(i, 25), published: true }),
      post('/api/artworks', {
        title: i % 2 ? `لوحة ${i}` : `Artwork ${i}`,
        medium: 'Oil on canvas',
        year: 2000 + (i % 25),
        image: `https://images.example.com/art-${i}.jpg`,
        description: text(i, 1),
      }),
      post('/api/plays', {
        title: `Play ${i}`,
        arabicTitle: `مسرحية ${i}`,
        description: text(i, 2),
        content: text(i, 12),
        year: 2010,
        type: 'original',
        status: 'published',
      }),
      post('/api/news', {
        title: i % 2 ? `خبر ${i}` : `News ${i}`,
        excerpt: text(i, 1),
        content: text(i, 6),
        category: 'other',
        published: true,
      }),
    ]);
  }
  line(`content created through the API (${per * 5} items)`, `${((Date.now() - started) / 1000).toFixed(1)} s`);
}

async function indexFigures(stack) {
  console.log('\nThe index (five JSON shards, rendered by the site like sitemap.xml)');
  const shards = path.join(stack.varDir, 'site', 'live', 'search-index');
  let raw = 0;
  let gz = 0;
  for (const file of (await readdir(shards)).sort()) {
    const bytes = await readFile(path.join(shards, file));
    raw += bytes.length;
    gz += gzipSync(bytes).length;
    line(`  ${file}`, kb(bytes.length), `${kb(gzipSync(bytes).length)} gzipped`);
  }
  line('all shards', kb(raw), `${kb(gz)} gzipped (what a visitor downloads on opening search)`);
  const renderer = await startRenderer({ rendererDir: path.join(ROOT, 'site', 'dist-renderer'), apiUrl: stack.url, log: () => {} });
  try {
    const kinds = ['books', 'essays', 'artworks', 'plays', 'news'];
    const timed = async (publishId) => {
      const t0 = performance.now();
      await Promise.all(kinds.map((k) => renderer.render(`/search-index/${k}.json`, publishId)));
      return performance.now() - t0;
    };
    const cold = [];
    const warm = [];
    for (let r = 0; r < 3; r++) {
      const id = `bench-search-${r}`;
      cold.push(await timed(id));
      warm.push(await timed(id));
    }
    line('render of the five shards, cold (API reads included)', ms(median(cold)), 'median of 3');
    line('render of the five shards, warm (collections read)', ms(median(warm)), 'median of 3');
  } finally {
    await renderer.stop();
  }
}

async function browserFigures(stack) {
  const browser = await launchBrowser();
  try {
    console.log('\nSearch in the browser (headless Chromium, this machine)');
    const page = await browser.newPage({ lang: 'en' });
    await page.goto(`${stack.url}/search?q=lighthouse`);
    await page.locator('[data-search-status]').filter({ hasText: 'Results for' }).waitFor({ timeout: 60_000 });
    const shown = await page.evaluate(() => performance.now());
    const indexDone = await page.evaluate(() =>
      Math.max(
        ...performance
          .getEntriesByType('resource')
          .filter((e) => e.name.includes('/search-index/'))
          .map((e) => e.responseEnd),
      ),
    );
    line('shared link: page opened → results shown', ms(shown), `index downloaded at ${ms(indexDone)}`);
    const queries = ['lighthouse', 'orchard winter', 'غزة', 'غَزَّةَ', 'المدينه', 'item1234', 'ships night', 'احلام', 'zzzz', 'the'];
    const times = await page.evaluate((qs) => {
      const form = document.querySelector('[data-search-page] form');
      const input = form.querySelector('input');
      const out = [];
      for (let round = 0; round < 3; round++)
        for (const q of qs) {
          input.value = q;
          const t0 = performance.now();
          form.requestSubmit();
          out.push(performance.now() - t0);
        }
      return out;
    }, queries);
    line(
      'one search as the visitor types (results drawn)',
      `${ms(median(times))}`,
      `median; p95 ${ms(p95(times))}; ${times.length} searches`,
    );
    await page.context().close();

    console.log('\nJavaScript of a page before and after search opens (gzipped)');
    const home = await browser.newPage({ lang: 'en' });
    const scripts = new Map();
    const index = new Map();
    home.on('response', (res) => {
      const p = new URL(res.url()).pathname;
      if (res.request().resourceType() === 'script')
        scripts.set(
          p,
          res
            .body()
            .then((b) => gzipSync(b).length)
            .catch(() => 0),
        );
      if (p.startsWith('/search-index/'))
        index.set(
          p,
          res
            .body()
            .then((b) => gzipSync(b).length)
            .catch(() => 0),
        );
    });
    await home.goto(`${stack.url}/`, { waitUntil: 'networkidle' });
    const inline = gzipSync(
      await home.evaluate(() =>
        [...document.querySelectorAll('script:not([src]):not([type="application/json"]):not([type="application/ld+json"])')]
          .map((s) => s.textContent)
          .join('\n'),
      ),
    ).length;
    const sum = async (m) => (await Promise.all(m.values())).reduce((a, b) => a + b, 0);
    const before = (await sum(scripts)) + inline;
    const beforeFiles = scripts.size;
    const shards = ['books', 'essays', 'artworks', 'plays', 'news'].map((k) =>
      home.waitForResponse((r) => r.url().endsWith(`/search-index/${k}.json`)),
    );
    await home.locator('#site-search-q').focus();
    await home.getByRole('combobox').waitFor();
    await Promise.all(shards);
    const after = (await sum(scripts)) + inline;
    line('/ before search opens', kb(before), `${beforeFiles} files`);
    line('/ after the search box is focused', kb(after), `+${kb(after - before)} in ${scripts.size - beforeFiles} files`);
    line('index downloaded on opening', kb(await sum(index)), `${index.size} shards, gzipped`);
    await home.context().close();
  } finally {
    await browser.close();
  }
}

console.log(`Search benchmarks (Node ${process.version}, ${os.cpus().length} cores), ${ITEMS} items`);
const stack = await startStack({ seedDemo: false });
try {
  await createContent(stack);
  const t0 = Date.now();
  await stack.buildSite();
  line('full site build and export (all pages and the index)', `${((Date.now() - t0) / 1000).toFixed(1)} s`);
  await indexFigures(stack);
  await browserFigures(stack);
} finally {
  await stack.stop();
}
