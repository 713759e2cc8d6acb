// The public site in headless Chromium against the real stack (built API + site built from it).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { crc32, deflateSync } from 'node:zlib';

import { AxeBuilder } from '@axe-core/playwright';

import { launchBrowser, openIn, VIEWPORTS } from './support/browser.mjs';
import { startStack } from './support/stack.mjs';

let stack;
let browser;
let token;
const ids = {};

/** A plain-colour PNG of the given size (enough to be a real upload of a given shape). */
function png(width, height, rgb) {
  const chunk = (type, data) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), body.length + 4);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bits per channel
  header[9] = 2; // RGB
  const row = Buffer.alloc(1 + width * 3);
  for (let x = 0; x < width; x++) row.set(rgb, 1 + x * 3);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', pixels),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Uploads an image as the overlay does (POST /api/upload) and gives its path. */
async function upload(bytes, contentType) {
  const form = new FormData();
  form.append('file', new Blob([bytes], { type: 'image/png' }), 'artwork.png');
  form.append('contentType', contentType);
  const res = await fetch(`${stack.url}/api/upload`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  assert.equal(res.status, 201, await res.clone().text());
  return (await res.json()).url;
}

/** Artworks of very different shapes next to the demo ones (4:3). */
const SHAPED_ARTWORKS = [
  { title: 'E2E Wide Panorama', width: 1600, height: 500, rgb: [31, 59, 77] },
  { title: 'E2E Tall Scroll', width: 600, height: 1200, rgb: [168, 67, 45] },
  { title: 'E2E Square', width: 900, height: 900, rgb: [85, 96, 58] },
];

before(async () => {
  // Request logs let a test count what a site build downloads from the API.
  stack = await startStack({ env: { LOG_REQUESTS: 'true' } });
  token = await stack.login();
  for (const art of SHAPED_ARTWORKS) {
    const image = await upload(png(art.width, art.height, art.rgb), 'artworks');
    const created = await stack.call('POST', '/api/artworks', { token, body: { title: art.title, medium: 'Ink', year: 2025, image } });
    assert.equal(created.status, 201);
  }
  const book = await stack.call('POST', '/api/books', {
    token,
    body: {
      title: 'E2E Book With Links',
      description: 'First paragraph.\n\nSecond paragraph.',
      year: 2024,
      publisher: 'E2E Press',
      purchaseUrl: 'https://shop.example.com/e2e',
      googleDriveUrl: 'https://drive.google.com/file/d/FILE123/view?usp=sharing',
      reviews: [
        JSON.stringify({ title: 'Drive review', url: 'https://drive.google.com/file/d/REV1/view' }),
        '/uploads/general/press.pdf',
        JSON.stringify({ title: '', url: 'https://example.com/article' }),
      ],
    },
  });
  ids.book = book.body.id;
  ids.essay = (await stack.call('GET', '/api/essays')).body[0].id;
  ids.news = (await stack.call('GET', '/api/news')).body[0].id;
  ids.play = (await stack.call('GET', '/api/plays')).body[0].id;
  await stack.buildSite();
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await stack?.stop();
});

const routes = () => [
  ['/', 'Author Name', 'اسم الكاتب'],
  ['/books', 'Books', 'الكتب'],
  [`/books/${ids.book}`, 'E2E Book With Links', 'E2E Book With Links'],
  [`/book/${ids.book}`, 'E2E Book With Links', 'E2E Book With Links'],
  [`/book/${ids.book}/reviews`, 'Reviews & Press', 'مراجعات وصحافة'],
  ['/essays', 'Essays & Commentary', 'مقالات وتعليقات'],
  [`/essays/${ids.essay}`, null, null],
  ['/gallery', 'Visual Art', 'فن تشكيلي'],
  ['/plays', 'Plays', 'المسرحيات'],
  [`/plays/${ids.play}`, null, null],
  ['/news', 'Latest News', 'آخر الأخبار'],
  [`/news/${ids.news}`, null, null],
  ['/contact', 'Get in Touch', 'تواصل معي'],
];

describe('every public route', () => {
  it('renders its heading and content in English and Arabic, with no accessibility violations', async () => {
    for (const [route, en, ar] of routes()) {
      for (const lang of ['en', 'ar']) {
        const page = await openIn(browser, stack.url + route, lang);
        const h1 = (await page.locator('h1:visible').first().innerText()).trim();
        const expected = lang === 'en' ? en : ar;
        if (expected) assert.equal(h1, expected, `${route} (${lang})`);
        else assert.ok(h1.length > 0, `${route} (${lang}) has a heading`);
        assert.ok((await page.locator('main').innerText()).length > 50, `${route} has content`);
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
          `${route} (${lang})`,
        );
        await page.context().close();
      }
    }
  });
});

describe('languages', () => {
  it('switches to Arabic right-to-left, translates, and remembers the choice across pages and reloads', async () => {
    const page = await browser.newPage();
    await page.goto(`${stack.url}/books`, { waitUntil: 'networkidle' });
    assert.equal(await page.getAttribute('html', 'dir'), 'ltr');
    await page.locator('[data-language-switch]').click();
    assert.equal(await page.getAttribute('html', 'lang'), 'ar');
    assert.equal(await page.getAttribute('html', 'dir'), 'rtl');
    assert.equal(await page.locator('h1:visible').innerText(), 'الكتب');
    assert.equal(await page.evaluate(() => localStorage.getItem('language')), 'ar');
    await page.getByRole('link', { name: 'المقالات' }).first().click();
    await page.waitForURL('**/essays');
    assert.equal(await page.getAttribute('html', 'dir'), 'rtl');
    assert.equal(await page.locator('h1:visible').innerText(), 'مقالات وتعليقات');
    await page.reload();
    assert.equal(await page.getAttribute('html', 'dir'), 'rtl');
    assert.match(await page.title(), /^مقالات وتعليقات/);
    await page.locator('[data-language-switch]').click();
    assert.equal(await page.getAttribute('html', 'dir'), 'ltr');
    await page.context().close();
  });
});

describe('header navigation', () => {
  const label = { en: { books: 'Books' }, ar: { books: 'الكتب' } };
  const nav = (page) => page.locator('#site-menu');
  /** Where the links marked as the current page go (the menu may be folded away on a phone). */
  const currentLink = (page) =>
    nav(page)
      .locator('a[aria-current="page"]')
      .evaluateAll((links) => links.map((a) => a.getAttribute('href')));

  it("on home, Books scrolls to the home page's books section (no page load); aria-current marks Home", async () => {
    for (const [lang, viewport] of [
      ['en', VIEWPORTS.desktop],
      ['ar', VIEWPORTS.phone],
    ]) {
      const page = await openIn(browser, `${stack.url}/`, lang, viewport);
      await page.evaluate(() => (window.stillHere = true));
      if (viewport === VIEWPORTS.phone) await page.locator('[data-menu-button]').click();
      await nav(page).getByRole('link', { name: label[lang].books, exact: true }).click();
      // The section's top comes to rest just below the header (the 80 px anchor offset).
      const arrived = await page
        .waitForFunction(() => Math.abs((document.getElementById('books')?.getBoundingClientRect().top ?? -1e6) - 80) <= 2, null, {
          timeout: 5000,
        })
        .then(
          () => true,
          () => false,
        );
      assert.ok(arrived, `${lang}: the books section did not come under the header (the visitor is on ${page.url()})`);
      assert.equal(new URL(page.url()).pathname, '/', `${lang}: still on the home page`);
      assert.equal(await page.evaluate(() => window.stillHere), true, `${lang}: the page was not reloaded`);
      const heading = page.locator('#books-title');
      const box = await heading.boundingBox();
      assert.ok(box && box.y >= 0 && box.y + box.height <= viewport.height, `${lang}: the books heading is on screen`);
      assert.equal((await heading.innerText()).trim(), label[lang].books);
      assert.deepEqual(await currentLink(page), ['/'], `${lang}: home is the current page`);
      await page.context().close();
    }
  });

  it('elsewhere, Books opens /books; aria-current marks the section of the page', async () => {
    for (const lang of ['en', 'ar']) {
      const page = await openIn(browser, `${stack.url}/essays`, lang);
      await nav(page).getByRole('link', { name: label[lang].books, exact: true }).click();
      await page.waitForURL('**/books');
      assert.equal(await page.locator('h1:visible').innerText(), lang === 'en' ? 'Books' : 'الكتب');
      assert.deepEqual(await currentLink(page), ['/books'], `${lang}: /books`);
      await page.goto(`${stack.url}/books/${ids.book}`);
      assert.deepEqual(await currentLink(page), ['/books'], `${lang}: a book page`);
      await page.goto(`${stack.url}/book/${ids.book}/reviews`);
      assert.deepEqual(await currentLink(page), ['/books'], `${lang}: a book's reviews`);
      await page.goto(`${stack.url}/gallery`);
      assert.deepEqual(await currentLink(page), ['/gallery'], `${lang}: /gallery`);
      await page.context().close();
    }
  });
});

describe('contact form', () => {
  it('sends a message that reaches GET /api/contacts, and says so', async () => {
    const page = await openIn(browser, `${stack.url}/contact`, 'en');
    // The contact form's own fields: the footer's newsletter form has an Email field too.
    const form = page.locator('astro-island:not([ssr]) form');
    await form.waitFor();
    await form.getByRole('button', { name: 'Send Message' }).click();
    await page.getByText('Please fill in all fields correctly.').waitFor();
    await form.getByRole('textbox', { name: 'Name', exact: true }).fill('E2E Visitor');
    await form.getByRole('textbox', { name: 'Email', exact: true }).fill('visitor@example.com');
    await form.getByRole('textbox', { name: 'Subject', exact: true }).fill('From the browser');
    await form.getByRole('textbox', { name: 'Message', exact: true }).fill('مرحبا — hello from the e2e test.');
    await form.getByRole('button', { name: 'Send Message' }).click();
    await page.getByText('Message Sent').waitFor();
    const contacts = await stack.call('GET', '/api/contacts', { token });
    assert.ok(contacts.body.some((c) => c.subject === 'From the browser' && c.message.startsWith('مرحبا')));
    assert.equal(await form.getByRole('textbox', { name: 'Name', exact: true }).inputValue(), '');
    await page.context().close();
  });
});

describe('contact form toasts', () => {
  it('pass axe while shown (the error and the sent one), in English and Arabic', async () => {
    const axeFindings = async (page) =>
      (await new AxeBuilder({ page }).analyze()).violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    for (const [lang, words] of Object.entries({
      en: {
        send: 'Send Message',
        name: 'Name',
        email: 'Email',
        subject: 'Subject',
        message: 'Message',
        invalid: 'Please fill in all fields correctly.',
        sent: 'Message Sent',
      },
      ar: {
        send: 'إرسال الرسالة',
        name: 'الاسم',
        email: 'البريد الإلكتروني',
        subject: 'الموضوع',
        message: 'الرسالة',
        invalid: 'يُرجى تعبئة جميع الحقول بشكل صحيح.',
        sent: 'تم إرسال الرسالة',
      },
    })) {
      const page = await openIn(browser, `${stack.url}/contact`, lang);
      const form = page.locator('astro-island:not([ssr]) form');
      await form.waitFor();
      const toasts = page.locator('.toast-region');
      await form.getByRole('button', { name: words.send }).click();
      await toasts.getByText(words.invalid, { exact: true }).waitFor();
      // Resting the pointer on a toast keeps it up (beyond its 5 s) however long axe takes.
      await toasts.locator('li').hover();
      assert.deepEqual(await axeFindings(page), [], `${lang}: with the error toast`);
      await form.getByRole('textbox', { name: words.name, exact: true }).fill('E2E Toast Visitor');
      await form.getByRole('textbox', { name: words.email, exact: true }).fill('toast@example.com');
      await form.getByRole('textbox', { name: words.subject, exact: true }).fill(`Toast ${lang}`);
      await form.getByRole('textbox', { name: words.message, exact: true }).fill('Checking the toast.');
      await form.getByRole('button', { name: words.send }).click();
      await toasts.getByText(words.sent, { exact: true }).waitFor();
      await toasts.locator('li').hover();
      assert.deepEqual(await axeFindings(page), [], `${lang}: with the sent toast`);
      await page.context().close();
    }
  });
});

describe('gallery lightbox', () => {
  it('opens full screen, moves with the arrow keys (mirrored in RTL), closes with Esc and gives focus back', async () => {
    for (const lang of ['en', 'ar']) {
      const page = await openIn(browser, `${stack.url}/gallery`, lang);
      await page.locator('astro-island:not([ssr]) .gallery-open').first().waitFor();
      const first = page.locator('.gallery-open').first();
      await first.focus();
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog');
      await dialog.waitFor();
      const position = () => dialog.locator('[aria-live]').innerText();
      assert.match(await position(), /^1 /);
      await page.keyboard.press(lang === 'en' ? 'ArrowRight' : 'ArrowLeft');
      assert.match(await position(), /^2 /, `${lang}: the forward arrow moves forward`);
      await page.keyboard.press(lang === 'en' ? 'ArrowLeft' : 'ArrowRight');
      assert.match(await position(), /^1 /);
      await page.keyboard.press('Tab');
      await page.keyboard.press('Tab');
      await page.keyboard.press('Tab');
      assert.ok(await dialog.evaluate((d) => d.contains(document.activeElement)), 'focus stays in the dialog');
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      assert.ok(await first.evaluate((el) => el === document.activeElement), 'focus returns to the opening card');
      await page.context().close();
    }
  });
});

describe('a gallery tile whose picture fails', () => {
  it('keeps a box that the keyboard reaches and that opens the full-screen view with the description, in English and Arabic', async () => {
    const art = (await stack.call('GET', '/api/artworks')).body.find((a) => a.title === 'Demo: Harbour at Dusk');
    assert.ok(art, 'the demo content has the artwork');
    // The original and every variant made from it (named after the original's file name).
    const stem = art.image
      .split('/')
      .pop()
      .replace(/\.[^.]*$/, '');
    for (const [lang, viewport] of [
      ['en', VIEWPORTS.desktop],
      ['ar', VIEWPORTS.phone],
    ]) {
      const page = await browser.newPage({ lang, viewport });
      await page.route(
        (url) => url.pathname.split('/').pop().startsWith(stem),
        (route) => route.abort(),
      );
      await page.goto(`${stack.url}/gallery`, { waitUntil: 'networkidle' });
      await page.locator('astro-island:not([ssr]) .gallery-open').first().waitFor();
      const tile = page.locator('.gallery-grid figure', { hasText: art.title });
      await tile.scrollIntoViewIfNeeded();
      await tile.locator('img').waitFor({ state: 'hidden' });
      const button = tile.locator('.gallery-open');
      const box = await button.boundingBox();
      assert.ok(box && box.height > 40 && box.width > 40, `${lang}: the tile keeps a box (${JSON.stringify(box)})`);
      // E2E_SCREENSHOTS=<folder>: also keeps a picture of the tile (to look at it).
      if (process.env.E2E_SCREENSHOTS) await tile.screenshot({ path: `${process.env.E2E_SCREENSHOTS}/gallery-failed-tile-${lang}.png` });
      let reached = false;
      for (let presses = 0; presses < 150 && !reached; presses++) {
        await page.keyboard.press('Tab');
        reached = await button.evaluate((b) => b === document.activeElement);
      }
      assert.ok(reached, `${lang}: Tab reaches the tile`);
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog', { name: art.title });
      await dialog.waitFor();
      if (process.env.E2E_SCREENSHOTS) await page.screenshot({ path: `${process.env.E2E_SCREENSHOTS}/gallery-failed-view-${lang}.png` });
      assert.match(await dialog.innerText(), /An evening harbour in warm layers\./, `${lang}: the view shows its description`);
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      await page.context().close();
    }
  });
});

describe('gallery layout', () => {
  it('makes each card as tall as its own picture and caption, in both languages and on a phone, and shows each picture whole', async () => {
    for (const lang of ['en', 'ar']) {
      for (const viewport of [VIEWPORTS.desktop, VIEWPORTS.phone]) {
        const where = `${lang} at ${viewport.width} px`;
        const page = await openIn(browser, `${stack.url}/gallery`, lang, viewport);
        const cards = page.locator('.gallery-grid figure');
        for (const card of await cards.all()) {
          await card.scrollIntoViewIfNeeded();
          await card
            .locator('img')
            .evaluate(
              (img) =>
                (img.complete && img.naturalWidth) ||
                new Promise((resolve) => ['load', 'error'].forEach((e) => img.addEventListener(e, resolve, { once: true }))),
            );
        }
        const measured = await cards.evaluateAll((figures) =>
          figures.map((figure) => {
            const caption = figure.querySelector('figcaption');
            const text = caption.lastElementChild.getBoundingClientRect();
            const img = figure.querySelector('img').getBoundingClientRect();
            return {
              title: caption.querySelector('strong').textContent,
              // White space between the caption's last line and the card's bottom edge, beyond the caption's own padding.
              emptyBelow: figure.getBoundingClientRect().bottom - text.bottom - parseFloat(getComputedStyle(caption).paddingBlockEnd),
              shown: img.width / img.height,
            };
          }),
        );
        for (const art of SHAPED_ARTWORKS)
          assert.ok(
            measured.some((m) => m.title === art.title),
            `${where}: ${art.title} is shown`,
          );
        for (const m of measured)
          assert.ok(m.emptyBelow <= 3, `${where}: "${m.title}" has ${m.emptyBelow.toFixed(0)} px of empty card under its caption`);
        const wide = measured.find((m) => m.title === 'E2E Wide Panorama');
        assert.ok(
          Math.abs(wide.shown - 1600 / 500) < 0.05,
          `${where}: the wide picture keeps its shape (shown ${wide.shown.toFixed(2)}:1)`,
        );
        await page.context().close();
      }
    }
  });
});

describe('book links and reviews', () => {
  it('turns the Drive link into a preview and a direct download, and counts the download', async () => {
    const page = await openIn(browser, `${stack.url}/books/${ids.book}`, 'en');
    assert.equal(
      await page.getByRole('link', { name: 'View PDF' }).getAttribute('href'),
      'https://drive.google.com/file/d/FILE123/preview?usp=sharing',
    );
    const download = page.getByRole('link', { name: 'Download PDF' });
    assert.equal(await download.getAttribute('href'), 'https://drive.google.com/uc?export=download&id=FILE123');
    assert.equal(await page.getByRole('link', { name: 'Get your copy' }).getAttribute('href'), 'https://shop.example.com/e2e');
    await page.route('https://drive.google.com/**', (route) => route.fulfill({ status: 204 }));
    const counted = page.waitForResponse((r) => r.url().endsWith(`/api/books/${ids.book}/download`));
    await download.click();
    assert.equal((await counted).status(), 200);
    const after = await stack.call('GET', `/api/books/${ids.book}`, { token });
    assert.equal(after.body.downloadCount, 1);
    await page.context().close();
  });

  it('sends /book/{id} to the book page at /books/{id}', async () => {
    const page = await browser.newPage();
    await page.goto(`${stack.url}/book/${ids.book}`);
    assert.equal(new URL(page.url()).pathname, `/books/${ids.book}`);
    assert.equal(await page.locator('h1:visible').innerText(), 'E2E Book With Links');
    await page.context().close();
  });

  it('lists reviews by kind: Drive, in-page PDF with download, other links; untitled ones are numbered', async () => {
    const page = await openIn(browser, `${stack.url}/book/${ids.book}/reviews`, 'en');
    assert.equal(
      await page.getByRole('link', { name: 'View in Google Drive' }).getAttribute('href'),
      'https://drive.google.com/file/d/REV1/view',
    );
    assert.equal(await page.locator('iframe.pdf-frame').getAttribute('src'), '/uploads/general/press.pdf');
    assert.equal(await page.getByRole('link', { name: 'Download' }).getAttribute('href'), '/uploads/general/press.pdf');
    assert.equal(await page.getByRole('link', { name: 'View Review' }).getAttribute('href'), 'https://example.com/article');
    const titles = await page.locator('main h2').allInnerTexts();
    assert.deepEqual(titles, ['Drive review', 'Review 2', 'Review 3']);
    await page.context().close();
  });
});

describe('not found', () => {
  it("answers unknown paths with a real 404 'Page Not Found', and a gone book with 'Book Not Found' and a way back", async () => {
    const page = await browser.newPage();
    const res = await page.goto(`${stack.url}/no/such/page`);
    assert.equal(res.status(), 404);
    assert.equal(await page.locator('h1:visible').innerText(), 'Page Not Found');
    const gone = await page.goto(`${stack.url}/books/987654`);
    assert.equal(gone.status(), 404);
    assert.equal(await page.locator('h1:visible').innerText(), 'Book Not Found');
    assert.equal(await page.getByRole('link', { name: /Back to Books/ }).getAttribute('href'), '/books');
    await page.goto(`${stack.url}/plays/987654`);
    assert.equal(await page.locator('h1:visible').innerText(), 'Play not found');
    await page.context().close();
  });
});

describe('not found in Arabic', () => {
  const cases = [
    ['/ar/books/987654', 'الكتاب غير موجود', 'العودة إلى الكتب', '/ar/books'],
    ['/ar/essays/987654', 'المقال غير موجود', 'العودة إلى المقالات', '/ar/essays'],
    ['/ar/news/987654', 'الخبر غير موجود', 'العودة إلى الأخبار', '/ar/news'],
    ['/ar/plays/987654', 'المسرحية غير موجودة', 'العودة إلى المسرحيات', '/ar/plays'],
    ['/ar/no/such/page', 'الصفحة غير موجودة', 'الذهاب إلى الصفحة الرئيسية', '/ar/'],
  ];
  for (const javaScriptEnabled of [true, false]) {
    it(`an /ar/ address of a missing item is Arabic, right to left, with its section's text in the page and the title (JavaScript ${javaScriptEnabled ? 'on' : 'off'}, no stored language)`, async () => {
      const context = await browser.browser.newContext({ javaScriptEnabled });
      const page = await context.newPage();
      for (const [address, heading, back, href] of cases) {
        const res = await page.goto(stack.url + address);
        assert.equal(res.status(), 404, address);
        assert.equal(await page.locator('html').getAttribute('lang'), 'ar', address);
        assert.equal(await page.locator('html').getAttribute('dir'), 'rtl', address);
        assert.equal(await page.locator('h1:visible').innerText(), heading, address);
        assert.equal(await page.title(), `${heading} | اسم الكاتب`, address);
        assert.equal(await page.getByRole('link', { name: back }).getAttribute('href'), href, address);
      }
      // The reviews of a missing book: its text, and (with JavaScript) the way back to that book's address.
      await page.goto(`${stack.url}/ar/book/987654/reviews`);
      assert.equal(await page.locator('h1:visible').innerText(), 'لا توجد مراجعات بعد.');
      if (javaScriptEnabled)
        assert.equal(await page.getByRole('link', { name: 'العودة إلى الكتاب' }).getAttribute('href'), '/ar/books/987654');
      // The specification's address without JavaScript: the section's text too, not the generic one.
      await page.goto(`${stack.url}/essays/987654`);
      assert.equal(await page.locator('h1:visible').innerText(), 'Essay not found');
      assert.equal(await page.title(), 'Essay not found | Author Name');
      await context.close();
    });
  }
});

describe('tooltips of the icon-only controls', () => {
  /** Records, in the page's own clock, when a pointer or focus reached a control and when its tooltip opened or closed. */
  const watchTooltips = (page) =>
    page.evaluate(() => {
      window.tooltipLog = [];
      for (const type of ['pointerover', 'focusin'])
        document.addEventListener(
          type,
          (e) => window.tooltipLog.push({ type, at: performance.now(), on: e.target.closest?.('[data-tooltip-trigger]')?.className }),
          true,
        );
      new MutationObserver((changes) => {
        for (const c of changes)
          window.tooltipLog.push({
            type: c.target.hasAttribute('data-tooltip-open') ? 'open' : 'close',
            at: performance.now(),
            on: c.target.className,
          });
      }).observe(document.body, { attributes: true, attributeFilter: ['data-tooltip-open'], subtree: true });
    });
  /** The delay between reaching `control` and its tooltip opening, once it has opened. */
  async function openDelay(page, control) {
    await page.waitForFunction((c) => window.tooltipLog.some((e) => e.type === 'open' && e.on === c), control);
    const log = await page.evaluate(() => window.tooltipLog);
    const opened = log.findLast((e) => e.type === 'open' && e.on === control);
    const reached = log.findLast((e) => (e.type === 'pointerover' || e.type === 'focusin') && e.on === control && e.at <= opened.at);
    return opened.at - reached.at;
  }
  const shownTooltip = async (page) => {
    const tip = page.locator('[data-tooltip-open] > [role="tooltip"]');
    const box = await tip.boundingBox();
    assert.ok(box && box.width > 30 && box.height > 15, 'the tooltip shows as a label');
    return tip.innerText();
  };

  it('open after 700 ms of hover, at once when moving to the next within 300 ms, and close on Escape (English, phone)', async () => {
    const page = await openIn(browser, `${stack.url}/`, 'en', VIEWPORTS.phone);
    await watchTooltips(page);
    await page.getByRole('button', { name: 'Open menu' }).hover();
    assert.ok((await openDelay(page, 'menu-button')) >= 700, 'the open delay');
    assert.equal(await shownTooltip(page), 'Open menu');
    assert.equal(await page.getByRole('tooltip', { name: 'Open menu' }).count(), 1);
    // Straight to the search link: the skip delay opens its tooltip at once.
    await page.getByRole('link', { name: 'Open search' }).hover();
    assert.ok((await openDelay(page, 'search-toggle')) < 100, 'opened at once within the skip delay');
    assert.equal(await shownTooltip(page), 'Open search');
    await page.keyboard.press('Escape');
    assert.equal(await page.locator('[data-tooltip-open]').count(), 0, 'Escape closes it');
    // Once the skip delay has passed, the full delay again.
    await page.mouse.move(200, 400);
    const closedAt = await page.evaluate(() => window.tooltipLog.findLast((e) => e.type === 'close').at);
    await page.waitForFunction((t) => performance.now() > t + 300, closedAt);
    await page.getByRole('button', { name: 'Open menu' }).hover();
    assert.ok((await openDelay(page, 'menu-button')) >= 700, 'the open delay after the skip delay');
    await page.context().close();
  });

  it('open on keyboard focus, in Arabic, at desktop (search button) and phone width (search link)', async () => {
    const desktop = await openIn(browser, `${stack.url}/`, 'ar', VIEWPORTS.desktop);
    await watchTooltips(desktop);
    await desktop.getByRole('searchbox', { name: 'ابحث في الموقع' }).focus();
    await desktop.keyboard.press('Tab');
    assert.ok((await openDelay(desktop, 'site-search-submit')) >= 700);
    assert.equal(await shownTooltip(desktop), 'بحث');
    assert.equal(await desktop.getByRole('button', { name: 'بحث', exact: true }).count(), 1, 'the tooltip is the button’s name');
    await desktop.context().close();

    const phone = await openIn(browser, `${stack.url}/ar/`, null, VIEWPORTS.phone);
    await watchTooltips(phone);
    // Tab from the page's start: the skip link, the name, then the search link.
    for (let i = 0; i < 8 && !(await phone.evaluate(() => document.activeElement?.classList.contains('search-toggle'))); i++)
      await phone.keyboard.press('Tab');
    assert.ok((await openDelay(phone, 'search-toggle')) >= 700);
    assert.equal(await shownTooltip(phone), 'فتح البحث');
    assert.ok(await phone.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'the tooltip stays on the screen');
    await phone.keyboard.press('Escape');
    assert.equal(await phone.locator('[data-tooltip-open]').count(), 0);
    await phone.context().close();
  });
});

describe('phone width', () => {
  it('fits the screen and opens the navigation from the menu button', async () => {
    const page = await openIn(browser, `${stack.url}/`, 'ar', VIEWPORTS.phone);
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'no sideways scrolling');
    const nav = page.locator('#site-menu');
    assert.equal(await nav.isVisible(), false);
    await page.locator('[data-menu-button]').click();
    assert.equal(await nav.isVisible(), true);
    await page.getByRole('link', { name: 'الأخبار' }).click();
    await page.waitForURL('**/news');
    assert.equal(await page.locator('h1:visible').innerText(), 'آخر الأخبار');
    await page.context().close();
  });

  it('makes the header solid once the page scrolls past 10 px', async () => {
    const page = await openIn(browser, `${stack.url}/books`, 'en');
    const header = page.locator('[data-site-header]');
    assert.equal(await header.evaluate((h) => h.classList.contains('is-solid')), false);
    await page.evaluate(() => window.scrollTo(0, 11));
    await page.waitForFunction(() => document.querySelector('[data-site-header]').classList.contains('is-solid'));
    await page.context().close();
  });
});

describe('JavaScript budget', () => {
  it('ships at most 75 KB of gzipped JavaScript on the heaviest pages', async () => {
    const { gzipSync } = await import('node:zlib');
    for (const route of ['/gallery', '/contact', '/']) {
      const page = await browser.newPage();
      const sizes = [];
      page.on('response', (res) => {
        if (res.request().resourceType() === 'script')
          sizes.push(
            res.body().then(
              (b) => gzipSync(b).length,
              () => 0,
            ),
          );
      });
      await page.goto(stack.url + route, { waitUntil: 'networkidle' });
      // Inline scripts count; JSON-LD (`application/ld+json`) is data for search engines, never run.
      const inline = await page.evaluate(() =>
        [...document.querySelectorAll('script:not([src]):not([type="application/ld+json"])')].map((el) => el.textContent).join('\n'),
      );
      const total = (await Promise.all(sizes)).reduce((a, b) => a + b, 0) + gzipSync(inline).length;
      assert.ok(total <= 75 * 1024, `${route}: ${(total / 1024).toFixed(1)} KB`);
      console.log(`${route}: ${(total / 1024).toFixed(1)} KB of gzipped JavaScript`);
      await page.context().close();
    }
  });
});

describe('site build', () => {
  it('fails loudly when the API is unreachable, and the live site stays as it was', async () => {
    const { execFile } = await import('node:child_process');
    const path = await import('node:path');
    const { ROOT } = await import('./support/stack.mjs');
    const before = await (await fetch(`${stack.url}/books`)).text();
    // Run without blocking this process: a blocked event loop misses the server closing an idle
    // kept-alive socket, and the next fetch would be sent on it ("other side closed").
    const result = await new Promise((resolve) => {
      execFile(
        process.execPath,
        [path.join(ROOT, 'node_modules/astro/bin/astro.mjs'), 'build'],
        {
          cwd: path.join(ROOT, 'site'),
          env: {
            ...process.env,
            ASTRO_TELEMETRY_DISABLED: '1',
            SITE_API_URL: 'http://127.0.0.1:9',
            SITE_OUT_DIR: path.join(stack.varDir, 'site', 'builds', 'broken'),
          },
          encoding: 'utf8',
        },
        (error, stdout, stderr) => resolve({ status: error?.code ?? 0, output: stdout + stderr }),
      );
    });
    assert.notEqual(result.status, 0);
    assert.match(result.output, /the API at http:\/\/127\.0\.0\.1:9 is unreachable/);
    assert.equal(await (await fetch(`${stack.url}/books`)).text(), before);
  });
});

describe('admin code', () => {
  it('is not downloaded until the Admin button is clicked', async () => {
    const page = await browser.newPage();
    const adminRequests = [];
    page.on('request', (r) => r.url().includes('/admin-ui/') && adminRequests.push(r.url()));
    await page.goto(`${stack.url}/`, { waitUntil: 'networkidle' });
    assert.deepEqual(adminRequests, []);
    const loading = page.waitForRequest((r) => r.url().includes('/admin-ui/admin-overlay.js'));
    await page.locator('astro-island:not([ssr]) [data-admin-button]').click();
    await loading;
    await page.context().close();
  });
});

describe('optimised images', () => {
  /** The requests (method and path) the API answered while `work` ran, from its request log, read up to a marker request. */
  async function requestsDuring(work) {
    const from = stack.log().length;
    await work();
    const marker = `/api/end-of-${Date.now()}`;
    await fetch(stack.url + marker);
    const deadline = Date.now() + 10_000;
    while (!stack.log().includes(marker)) {
      assert.ok(Date.now() < deadline, 'the API logs its requests');
      await new Promise((resolve) => setImmediate(resolve));
    }
    const lines = stack
      .log()
      .slice(from, stack.log().indexOf(marker))
      .replace(new RegExp(String.raw`\x1b\[[0-9;]*m`, 'g'), '');
    return [...lines.matchAll(/\b(GET|HEAD) (\/\S+) \d{3} /g)].map((m) => `${m[1]} ${m[2]}`);
  }

  it('rebuilds without downloading originals whose names carry their size, and the pictures keep their variants', async () => {
    const requests = await requestsDuring(() => stack.buildSite());
    assert.ok(requests.includes('GET /api/artworks'), 'the build read the content');
    const sizeNamed = requests.filter((r) => /^(GET|HEAD) \/uploads\/.+-\d+x\d+\.(jpe?g|png|gif|webp|avif)$/.test(r));
    assert.equal(
      sizeNamed.length,
      0,
      `a build with a warm image cache fetched ${sizeNamed.length} of them, e.g. ${sizeNamed.slice(0, 3).join(', ')}`,
    );
    const page = await openIn(browser, `${stack.url}/gallery`, 'en');
    const card = page.locator('.gallery-grid figure', { hasText: 'E2E Wide Panorama' });
    const srcset = await card.locator('source').getAttribute('srcset');
    assert.match(srcset, /\/_astro\/\S+\.webp 400w, \S+\.webp 800w, \S+\.webp 1600w$/);
    const picture = await card
      .locator('img')
      .evaluate((img) => ({ loaded: img.currentSrc, width: img.naturalWidth, height: img.naturalHeight }));
    assert.match(picture.loaded, /\/_astro\/.+\.webp$/);
    // (natural sizes of a srcset pick are scaled to the sizes width, so rounding moves the ratio a little)
    assert.ok(
      Math.abs(picture.width / picture.height - 1600 / 500) < 0.05,
      `the variant keeps the original shape (${picture.width} × ${picture.height})`,
    );
    await page.context().close();
  });

  it('still publishes when an image named with a size is missing, showing the rest of the gallery', async () => {
    const created = await stack.call('POST', '/api/artworks', {
      token,
      body: { title: 'E2E Missing Picture', medium: 'Ink', year: 2025, image: '/uploads/artworks/mf3k2a-0123456789abcdef-640x480.jpg' },
    });
    assert.equal(created.status, 201);
    await stack.buildSite();
    const page = await openIn(browser, `${stack.url}/gallery`, 'en');
    assert.equal(await page.locator('.gallery-grid figure', { hasText: 'E2E Missing Picture' }).count(), 1);
    assert.equal(await page.locator('.gallery-grid figure', { hasText: 'E2E Wide Panorama' }).locator('source').count(), 1);
    await page.context().close();
    await stack.call('PATCH', `/api/artworks/${created.body.id}`, { token, body: { isDeleted: true } });
  });
});

describe('images that fail to load', () => {
  const MISSING = {
    play: '/uploads/plays/missing-file.jpg',
    essay: '/uploads/essays/missing-file.jpg',
    news: '/uploads/news/missing-file.jpg',
    artwork: '/uploads/artworks/missing-file.jpg',
    book: '/uploads/books/missing-file.jpg',
  };
  const made = {};

  before(async () => {
    const create = async (route, body) => {
      const res = await stack.call('POST', route, { token, body });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return res.body.id;
    };
    made.play = await create('/api/plays', {
      title: 'E2E Play Without Picture',
      description: 'Its picture is gone.',
      image: MISSING.play,
      status: 'published',
    });
    made.essay = await create('/api/essays', {
      title: 'E2E Essay Without Picture',
      excerpt: 'An excerpt.',
      content: 'Text.',
      imageUrl: MISSING.essay,
      published: true,
    });
    made.news = await create('/api/news', {
      title: 'E2E News Without Picture',
      excerpt: 'An excerpt.',
      content: 'Text.',
      category: 'other',
      imageUrl: MISSING.news,
    });
    made.artwork = await create('/api/artworks', {
      title: 'E2E Artwork Without Picture',
      medium: 'Ink',
      year: 2025,
      image: MISSING.artwork,
    });
    made.book = await create('/api/books', {
      title: 'E2E Book Without Cover',
      description: 'Its cover is gone.',
      year: 2025,
      publisher: 'E2E Press',
      coverImage: MISSING.book,
    });
    await stack.buildSite();
  });
  after(async () => {
    for (const [kind, route] of [
      ['play', 'plays'],
      ['essay', 'essays'],
      ['news', 'news'],
      ['artwork', 'artworks'],
      ['book', 'books'],
    ]) {
      if (made[kind]) await stack.call('DELETE', `/api/${route}/${made[kind]}`, { token });
    }
  });

  /** The images on the page that failed and still show (a broken-image box). */
  const brokenShown = (page) =>
    page.evaluate(() =>
      [...document.images]
        .filter((img) => img.complete && img.naturalWidth === 0 && img.checkVisibility())
        .map((img) => img.getAttribute('src')),
    );

  it('are hidden silently on the cards and pages of plays, the gallery, books, essays and news; the card stays, without the image box', async () => {
    const pages = [
      ['/plays', 'E2E Play Without Picture', MISSING.play, '.card'],
      [`/plays/${made.play}`, 'E2E Play Without Picture', MISSING.play, 'article'],
      ['/gallery', 'E2E Artwork Without Picture', MISSING.artwork, 'figure'],
      ['/essays', 'E2E Essay Without Picture', MISSING.essay, '.card'],
      [`/essays/${made.essay}`, 'E2E Essay Without Picture', MISSING.essay, 'article'],
      ['/news', 'E2E News Without Picture', MISSING.news, '.card'],
      [`/news/${made.news}`, 'E2E News Without Picture', MISSING.news, 'article'],
      ['/books', 'E2E Book Without Cover', MISSING.book, '.card'],
      [`/books/${made.book}`, 'E2E Book Without Cover', MISSING.book, '.detail'],
    ];
    for (const [lang, viewport] of [
      ['en', VIEWPORTS.desktop],
      ['ar', VIEWPORTS.phone],
    ]) {
      for (const [route, title, src, container] of pages) {
        const page = await openIn(browser, stack.url + route, lang, viewport);
        const item = page.locator(container, { hasText: title }).first();
        await item.scrollIntoViewIfNeeded();
        // Lazy images load once near the screen: wait until the browser has given up on this one.
        await page.waitForFunction(
          (s) => [...document.images].filter((img) => img.getAttribute('src') === s).every((img) => img.complete),
          src,
        );
        const where = `${route} (${lang}, ${viewport.width} px)`;
        assert.deepEqual(await brokenShown(page), [], where);
        assert.ok(await item.isVisible(), `${where}: the card stays`);
        assert.ok(await item.getByText(title, { exact: true }).first().isVisible(), `${where}: its title shows`);
        // A play's, an essay's or a news item's box is there only for its picture. An artwork's box
        // stays (it opens the full-screen view); a book keeps its cover's place, as a book without a cover does.
        if (route === '/gallery') assert.ok(await item.locator('.gallery-open').isVisible(), `${where}: the tile still opens`);
        else if (!route.startsWith('/books'))
          assert.equal(await item.locator('[data-image-box]').isVisible(), false, `${where}: no empty image box`);
        await page.context().close();
      }
    }
  });
});
