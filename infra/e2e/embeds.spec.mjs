// Embedded PDFs from other hosts and the API docs page, in headless Chromium against the real stack
// (built API + site built from it), under the site's Content-Security-Policy: nothing is blocked and
// the console stays free of errors. The other hosts are answered by the browser itself (page.route).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { until } from '../test/support/wait.mjs';
import { launchBrowser, VIEWPORTS } from './support/browser.mjs';
import { startStack } from './support/stack.mjs';

const REVIEW_PDF = 'https://press.example/review.pdf';
const SCRIPT_PDF = 'https://scripts.example/files/play-script.pdf';
/** A one-page PDF, enough for a viewer to open. */
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n' +
    '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);

let stack;
let browser;
const ids = {};

before(async () => {
  stack = await startStack({ seedDemo: false });
  const token = await stack.login();
  const book = await stack.call('POST', '/api/books', {
    token,
    body: {
      title: 'A Book Reviewed Elsewhere',
      description: 'd',
      year: 2024,
      publisher: 'p',
      reviews: [JSON.stringify({ title: 'Press review', url: REVIEW_PDF })],
    },
  });
  assert.equal(book.status, 201, JSON.stringify(book.body));
  const play = await stack.call('POST', '/api/plays', {
    token,
    body: { title: 'A Play With Its Script Elsewhere', status: 'published', pdfUrl: SCRIPT_PDF },
  });
  assert.equal(play.status, 201, JSON.stringify(play.body));
  Object.assign(ids, { book: book.body.id, play: play.body.id });
  await stack.buildSite();
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await stack?.stop();
});

/** A page that records console errors and uncaught errors, and answers `answers` (address → PDF bytes) itself, noting each request. */
async function watchedPage({ answers = {} } = {}) {
  // No stored language (an init script would run in the PDF frames too): /ar/ addresses are Arabic by themselves.
  const page = await browser.newPage({ viewport: VIEWPORTS.desktop });
  const errors = [];
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  page.on('pageerror', (error) => errors.push(error.message));
  const requested = new Set();
  for (const [url, body] of Object.entries(answers)) {
    await page.route(url, (route) => {
      requested.add(url);
      return route.fulfill({ status: 200, contentType: 'application/pdf', body });
    });
  }
  return { page, errors, requested };
}

describe('PDFs on another https host', () => {
  for (const lang of ['en', 'ar']) {
    it(`a review ending in .pdf shows in its in-page viewer, and a play's script PDF in its 800 px frame (${lang})`, async () => {
      const prefix = lang === 'ar' ? '/ar' : '';
      const { page, errors, requested } = await watchedPage({ answers: { [REVIEW_PDF]: PDF, [SCRIPT_PDF]: PDF } });
      try {
        await page.goto(`${stack.url}${prefix}/book/${ids.book}/reviews`, { waitUntil: 'networkidle' });
        const review = page.locator('iframe.pdf-frame');
        assert.equal(await review.getAttribute('src'), REVIEW_PDF);
        // Lazy frames load once scrolled to; the PDF is asked for only if the policy lets the frame load.
        await review.scrollIntoViewIfNeeded();
        await until(
          'the review PDF requested by its frame',
          () => requested.has(REVIEW_PDF) || (errors.length && assert.fail(errors.join(' | '))),
        );

        await page.goto(`${stack.url}${prefix}/plays/${ids.play}`, { waitUntil: 'networkidle' });
        const script = page.locator('iframe.pdf-frame');
        assert.equal(await script.getAttribute('src'), SCRIPT_PDF);
        assert.equal(await script.getAttribute('height'), '800');
        await script.scrollIntoViewIfNeeded();
        await until(
          'the script PDF requested by its frame',
          () => requested.has(SCRIPT_PDF) || (errors.length && assert.fail(errors.join(' | '))),
        );
        await page.waitForLoadState('networkidle');
        assert.deepEqual(errors, []);
      } finally {
        await page.context().close();
      }
    });
  }
});

describe('the API docs page (/api/docs)', () => {
  it('shows Swagger UI with its operations under its security headers, with no console error', async () => {
    const { page, errors } = await watchedPage();
    try {
      const res = await page.goto(`${stack.url}/api/docs`, { waitUntil: 'networkidle' });
      assert.equal(res.status(), 200);
      assert.match(res.headers()['content-security-policy'], /default-src 'self'/);
      assert.equal(res.headers()['x-frame-options'], 'SAMEORIGIN');
      await page.getByRole('heading', { name: /Portfolio API/ }).waitFor();
      // An operation opens and shows its responses: the UI works, not only its first paint.
      await page.locator('.opblock-summary', { hasText: '/api/health' }).first().click();
      await page.locator('.opblock-body .responses-wrapper').first().waitFor();
      assert.deepEqual(errors, []);
    } finally {
      await page.context().close();
    }
  });
});
