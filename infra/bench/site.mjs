#!/usr/bin/env node
// Benchmarks of the public site, printed as figures (no pass/fail exit code):
//   1. JavaScript shipped per page (gzipped), both languages: budget 75 KB for the heaviest page.
//   2. HTML of a list page with 50 items (gzipped): budget 60 KB.
//   3. Lighthouse, mobile profile, on /, /ar/, /books, a book, an essay, /gallery, /contact, /search, both
//      languages, with the system in light and in dark mode:
//      targets 100 accessibility / best practices / SEO, ≥ 95 performance.
//   4. Build of 1,000 books + 1,000 essays + 1,000 artworks + 1,000 news (≈ 4,000 detail pages):
//      target < 20 s; prints pages/s and peak memory.
// Env: BENCH_SKIP=js,html,lighthouse,scale (comma list) to skip parts; BENCH_SCALE_ITEMS (default 1000);
// BENCH_LIGHTHOUSE_RUNS (default 3, the median performance score is reported);
// BENCH_LIGHTHOUSE_ROUTES (comma list, e.g. /search) to score only those routes.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

import lighthouse from 'lighthouse';

import { launchBrowser } from '../e2e/support/browser.mjs';
import { ROOT, startStack } from '../e2e/support/stack.mjs';
import { freePort } from '../test/support/wait.mjs';

const skip = new Set((process.env.BENCH_SKIP ?? '').split(',').filter(Boolean));
const SCALE = Number(process.env.BENCH_SCALE_ITEMS ?? 1000);
const LH_RUNS = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3);
const LH_ROUTES = (process.env.BENCH_LIGHTHOUSE_ROUTES ?? '').split(',').filter(Boolean);
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
const line = (label, value, note = '') => console.log(`  ${label.padEnd(46)} ${String(value).padStart(12)}  ${note}`);
const verdict = (ok) => (ok ? '[met    ]' : '[NOT met]');

async function jsPerPage(stack, ids) {
  console.log('\nJavaScript per page (gzipped, as downloaded by a first-time visitor)');
  const browser = await launchBrowser();
  let heaviest = { route: '', bytes: 0 };
  try {
    const routes = [
      '/',
      '/books',
      `/books/${ids.book}`,
      `/book/${ids.book}/reviews`,
      '/essays',
      `/essays/${ids.essay}`,
      '/gallery',
      '/plays',
      `/plays/${ids.play}`,
      '/news',
      `/news/${ids.news}`,
      '/contact',
      '/search',
      // The one newsletter page with an island (the subscribe form in every footer is plain HTML).
      '/newsletter/preferences',
      '/missing-page',
    ];
    for (const route of routes) {
      for (const lang of ['en', 'ar']) {
        const page = await browser.newPage({ lang });
        const scripts = new Map();
        page.on('response', async (res) => {
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
        const inline = await page.evaluate(() => [...document.querySelectorAll('script:not([src])')].map((s) => s.textContent).join('\n'));
        const bytes = (await Promise.all(scripts.values())).reduce((a, b) => a + b, 0) + gzipSync(inline).length;
        if (bytes > heaviest.bytes) heaviest = { route: `${route} (${lang})`, bytes };
        if (lang === 'en') line(route, kb(bytes), `${scripts.size} files`);
        await page.context().close();
      }
    }
  } finally {
    await browser.close();
  }
  console.log(`  ${verdict(heaviest.bytes <= 75 * 1024)} heaviest page ${heaviest.route}: ${kb(heaviest.bytes)} (budget 75 KB)`);
}

async function listHtml(stack, token) {
  const books = (await stack.call('GET', '/api/books')).body.length;
  for (let i = books; i < 50; i++) {
    await stack.call('POST', '/api/books', {
      token,
      body: {
        title: `Bench book ${i} — كتاب`,
        description: 'A description of a few sentences. '.repeat(8),
        year: 2000 + (i % 25),
        publisher: 'Bench Press',
        purchaseUrl: 'https://shop.example.com/x',
      },
    });
  }
  await stack.buildSite();
  const html = Buffer.from(await (await fetch(`${stack.url}/books`)).arrayBuffer());
  console.log('\nHTML of /books with 50 books');
  line('raw', kb(html.length));
  line('gzipped', kb(gzipSync(html).length));
  console.log(`  ${verdict(gzipSync(html).length <= 60 * 1024)} budget 60 KB gzipped`);
}

/** Chromium for Lighthouse on a free port; `dark`: the system's colour scheme is dark (prefers-color-scheme). */
async function startChromium(dark) {
  const port = await freePort();
  const profile = await mkdtemp(path.join(os.tmpdir(), 'lh-profile-'));
  const chrome = spawn(
    '/usr/bin/chromium',
    [
      '--headless=new',
      `--remote-debugging-port=${port}`,
      `--user-data-dir=${profile}`,
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
      ...(dark ? ['--blink-settings=preferredColorScheme=0'] : []),
      'about:blank',
    ],
    { stdio: 'ignore' },
  );
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/json/version`)).ok) break;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const stop = async () => {
    const exited = new Promise((resolve) => chrome.once('exit', resolve));
    chrome.kill();
    await exited;
    await rm(profile, { recursive: true, force: true });
  };
  return { port, stop };
}

async function lighthouseScores(stack, ids) {
  console.log('\nLighthouse (mobile profile, headless Chromium): performance / accessibility / best practices / SEO');
  const worst = { performance: 100, accessibility: 100, 'best-practices': 100, seo: 100 };
  const routes = ['/', '/ar/', '/books', `/books/${ids.book}`, `/essays/${ids.essay}`, '/gallery', '/contact', '/search'];
  for (const scheme of ['light', 'dark']) {
    const chrome = await startChromium(scheme === 'dark');
    try {
      for (const route of LH_ROUTES.length ? routes.filter((r) => LH_ROUTES.includes(r)) : routes) {
        for (const lang of route === '/ar/' ? ['ar'] : ['en', 'ar']) {
          // Lighthouse starts from a clean profile; ?lang=ar sets the visitor's choice as a shared link would.
          const url = `${stack.url}${route}${lang === 'ar' && route !== '/ar/' ? '?lang=ar' : ''}`;
          // Performance varies with the machine's load: the median of several runs, as Lighthouse CI does.
          const runs = [];
          for (let r = 0; r < LH_RUNS; r++) {
            runs.push(
              (
                await lighthouse(url, {
                  port: chrome.port,
                  output: 'json',
                  logLevel: 'error',
                  onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
                })
              ).lhr,
            );
          }
          runs.sort((a, b) => a.categories.performance.score - b.categories.performance.score);
          const lhr = runs[Math.floor(runs.length / 2)];
          const c = lhr.categories;
          const scores = ['performance', 'accessibility', 'best-practices', 'seo'].map((k) => Math.round(c[k].score * 100));
          const metric = (id) => lhr.audits[id]?.displayValue ?? '-';
          const detail = `LCP ${metric('largest-contentful-paint')}, TBT ${metric('total-blocking-time')}, CLS ${metric('cumulative-layout-shift')}`;
          // /search is noindex on purpose (its results are the other pages): Lighthouse's SEO score counts that against it.
          ['performance', 'accessibility', 'best-practices', 'seo'].forEach((k, i) =>
            k === 'seo' && route === '/search' ? null : (worst[k] = Math.min(worst[k], scores[i])),
          );
          line(`${route} (${lang}, ${scheme})`, scores.join(' / '), detail);
        }
      }
    } finally {
      await chrome.stop();
    }
  }
  console.log(`  ${verdict(worst.performance >= 95)} performance ≥ 95 (lowest ${worst.performance})`);
  for (const k of ['accessibility', 'best-practices', 'seo']) console.log(`  ${verdict(worst[k] === 100)} ${k} 100 (lowest ${worst[k]})`);
}

async function scaleBuild() {
  console.log(`\nBuild at scale: ${SCALE} each of books, essays, artworks and news`);
  const stack = await startStack({ seedDemo: false });
  try {
    const token = await stack.login();
    const started = Date.now();
    const post = (route, body) => stack.call('POST', route, { token, body });
    for (let i = 0; i < SCALE; i++) {
      await Promise.all([
        post('/api/books', {
          title: `Book ${i} — كتاب ${i}`,
          description: 'Paragraph one of the book description.\n\nParagraph two.',
          year: 1990 + (i % 35),
          publisher: 'Scale Press',
          awards: i % 10 ? [] : ['An award'],
        }),
        post('/api/essays', {
          title: `Essay ${i} — مقال`,
          excerpt: 'An excerpt.',
          content: 'Paragraph one.\n\nParagraph two.\n\nParagraph three.',
          publishedDate: new Date(Date.UTC(2020, 0, 1 + i)).toISOString(),
        }),
        post('/api/artworks', {
          title: `Artwork ${i}`,
          medium: 'Oil on canvas',
          year: 2000 + (i % 25),
          image: `https://images.example.com/art-${i}.jpg`,
        }),
        post('/api/news', {
          title: `News ${i} — خبر`,
          excerpt: '',
          content: 'Line one of the news.\nLine two.',
          category: ['exhibition', 'publication', 'award', 'other'][i % 4],
        }),
      ]);
    }
    line('content created through the API', `${((Date.now() - started) / 1000).toFixed(1)} s`);
    const t0 = Date.now();
    const { peakMb } = await measureBuild(stack);
    const seconds = (Date.now() - t0) / 1000;
    const pages = SCALE * 5 + 20; // detail pages (books twice, plus reviews where present) and lists, roughly
    const built = Number((await readFile(path.join(stack.varDir, 'site', 'build-pages.txt'), 'utf8').catch(() => '0')).trim()) || pages;
    line('build duration', `${seconds.toFixed(1)} s`);
    line('pages built', built);
    line('pages per second', (built / seconds).toFixed(0));
    line('peak memory of the build', `${peakMb.toFixed(0)} MB`);
    console.log(`  ${verdict(seconds < 20)} under 20 s`);
  } finally {
    await stack.stop();
  }
}

/** Runs the site build while sampling the resident memory of its process tree. */
async function measureBuild(stack) {
  let peakKb = 0;
  let done = false;
  const sample = async () => {
    while (!done) {
      const { execFile } = await import('node:child_process');
      await new Promise((resolve) =>
        execFile('ps', ['-eo', 'rss,args'], (err, out) => {
          if (!err) {
            const total = out
              .split('\n')
              .filter((l) => l.includes('astro.mjs build'))
              .reduce((sum, l) => sum + Number(l.trim().split(/\s+/)[0] || 0), 0);
            peakKb = Math.max(peakKb, total);
          }
          resolve();
        }),
      );
      await new Promise((r) => setTimeout(r, 200));
    }
  };
  const sampler = sample();
  try {
    await stack.buildSite();
  } finally {
    done = true;
    await sampler;
  }
  return { peakMb: peakKb / 1024 };
}

console.log(`Site benchmarks (Node ${process.version}, ${os.cpus().length} cores)`);
const stack = await startStack();
try {
  const token = await stack.login();
  const first = async (route) => (await stack.call('GET', route)).body[0]?.id;
  const ids = {
    book: await first('/api/books'),
    essay: await first('/api/essays'),
    news: await first('/api/news'),
    play: await first('/api/plays'),
  };
  await stack.buildSite();
  if (!skip.has('js')) await jsPerPage(stack, ids);
  if (!skip.has('html')) await listHtml(stack, token);
  if (!skip.has('lighthouse')) await lighthouseScores(stack, ids);
} finally {
  await stack.stop();
}
if (!skip.has('scale')) await scaleBuild();
void ROOT;
