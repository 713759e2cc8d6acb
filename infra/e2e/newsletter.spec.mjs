// The newsletter as a reader meets it, in headless Chromium at phone width against the real stack:
// the footer's plain form (with and without JavaScript, in English and Arabic), the confirmation
// mail (the API writes mails to $VAR_DIR/mail/ when no SMTP_URL is set), the confirmed page, the
// preferences page opened from a campaign mail, a language change, and leaving. Then as the author
// meets it in the admin overlay: the offer of a new essay, its preview, a test, sending with live
// progress, and "Not this one" in Arabic at phone width.
import assert from 'node:assert/strict';
import { mkdir, readdir, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';

import { AxeBuilder } from '@axe-core/playwright';

import { until } from '../test/support/wait.mjs';
import { launchBrowser, openOverlay as overlayOn, VIEWPORTS } from './support/browser.mjs';
import { startStack } from './support/stack.mjs';

/** Screenshots to look at after a run. */
const SHOTS = process.env.E2E_SCREENSHOTS ?? path.join(os.tmpdir(), 'portfolio-e2e-screenshots', 'newsletter');

let stack;
let browser;
let token;

before(async () => {
  stack = await startStack();
  token = await stack.login();
  await stack.buildSite();
  browser = await launchBrowser();
  await mkdir(SHOTS, { recursive: true });
});
after(async () => {
  await browser?.close();
  await stack?.stop();
});

const TEXT = {
  en: {
    form: 'Newsletter',
    email: 'Email',
    language: 'Language of the e-mails',
    books: 'Books',
    subscribe: 'Subscribe',
    checkInbox: 'Check your inbox',
    confirmed: 'Subscription confirmed',
    prefs: 'Newsletter preferences',
    noscript:
      'This page needs JavaScript, which is turned off in your browser. To leave the newsletter without it, use the unsubscribe link your e-mail program shows at the top of each of our e-mails.',
    save: 'Save preferences',
    saved: 'Your preferences are saved.',
    unsubscribe: 'Unsubscribe',
    unsubscribed: 'You have been unsubscribed.',
  },
  ar: {
    form: 'النشرة البريدية',
    email: 'البريد الإلكتروني',
    language: 'لغة الرسائل',
    books: 'الكتب',
    subscribe: 'اشترك',
    checkInbox: 'تحقّق من بريدك',
    confirmed: 'تمّ تأكيد الاشتراك',
    prefs: 'إعدادات النشرة البريدية',
    noscript:
      'تحتاج هذه الصفحة إلى جافاسكربت، وهي معطّلة في متصفحك. لإلغاء الاشتراك من دونها استخدم رابط إلغاء الاشتراك الذي يعرضه برنامج البريد في أعلى كل رسالة منّا.',
    save: 'حفظ الإعدادات',
    saved: 'تمّ حفظ إعداداتك.',
    unsubscribe: 'إلغاء الاشتراك',
    unsubscribed: 'تمّ إلغاء اشتراكك.',
  },
};
const prefix = (lang) => (lang === 'ar' ? '/ar' : '');

/** axe's findings on the page (or a part of it); it runs as a script in the page, so only where scripts run. */
async function accessibilityViolations(page, selector) {
  const builder = new AxeBuilder({ page });
  const axe = await (selector ? builder.include(selector) : builder).analyze();
  return axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`);
}

/** A page at phone width; with JavaScript off, a context that runs none (so no head script: /ar/ addresses carry Arabic). */
async function phonePage({ lang, javaScript }) {
  if (javaScript) return browser.newPage({ viewport: VIEWPORTS.phone, lang });
  const context = await browser.browser.newContext({ viewport: VIEWPORTS.phone, javaScriptEnabled: false });
  return context.newPage();
}

/** Every part of a mail the API wrote, decoded (its text and HTML parts may be quoted-printable or base64). */
function decodedMail(raw) {
  // A multipart mail is split at its boundaries (the raw text would give links cut by soft line breaks); a plain one is one part.
  let chunks = [raw];
  for (const [, boundary] of raw.matchAll(/boundary="?([^";\r\n]+)"?/g)) chunks = chunks.flatMap((chunk) => chunk.split(`--${boundary}`));
  return chunks
    .map((chunk) => {
      const split = chunk.search(/\r?\n\r?\n/);
      if (split < 0) return chunk;
      const headers = chunk.slice(0, split);
      const body = chunk.slice(split).trim();
      const encoding = /content-transfer-encoding:\s*([\w-]+)/i.exec(headers)?.[1]?.toLowerCase();
      if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
      if (encoding === 'quoted-printable') {
        const bytes = body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, hex) => String.fromCharCode(parseInt(hex, 16)));
        return Buffer.from(bytes, 'latin1').toString('utf8');
      }
      return chunk;
    })
    .join('\n');
}

/** Waits for a mail to `address` holding a link that matches `pattern`; gives that link's address on the stack. */
async function linkInMail(address, pattern, what) {
  const dir = path.join(stack.varDir, 'mail');
  const link = await until(what, async () => {
    for (const file of await readdir(dir).catch(() => [])) {
      const raw = await readFile(path.join(dir, file), 'utf8');
      // Written in one go, but possibly seen before the write ended.
      if (!raw.endsWith('\r\n')) continue;
      if (!new RegExp(`^To: .*${address.replace(/[.+]/g, '\\$&')}`, 'mi').test(raw)) continue;
      const found = decodedMail(raw).match(pattern)?.[0];
      if (found) return found;
    }
    return undefined;
  });
  // The mail names the site's address; the test's stack serves the same paths.
  const url = new URL(link.replace(/&amp;/g, '&'));
  return `${stack.url}${url.pathname}${url.search}`;
}

const preferencesOf = async (prefsToken) => {
  const res = await fetch(`${stack.url}/api/newsletter/preferences?token=${encodeURIComponent(prefsToken)}`);
  assert.equal(res.status, 200, await res.clone().text());
  return res.json();
};

/** The footer's form of the page language: checked, filled, sent; the check-inbox page in that language. */
async function subscribeInFooter({ lang, javaScript, address }) {
  const t = TEXT[lang];
  const page = await phonePage({ lang, javaScript });
  // With JavaScript, the specification's address in the stored language (the form of that language is
  // the one shown); without, the head script cannot run, so the Arabic reader is on an /ar/ address.
  const start = javaScript ? `${stack.url}/books` : `${stack.url}${prefix(lang)}/books`;
  await page.goto(start, { waitUntil: 'networkidle' });
  const form = page.locator('footer').getByRole('form', { name: t.form });
  await form.scrollIntoViewIfNeeded();
  assert.equal(await form.getAttribute('lang'), lang);
  assert.equal(await form.getByLabel(t.language).inputValue(), lang, 'the mail language defaults to the page language');
  for (const box of await form.getByRole('checkbox').all()) assert.equal(await box.isChecked(), true, 'every topic is checked');
  // The honeypot is off-screen, outside the tab order and the accessibility tree; the page fits the phone.
  const trap = form.locator('input[name="website"]');
  const box = await trap.boundingBox();
  assert.ok(box.x + box.width <= 0 || box.x >= VIEWPORTS.phone.width, `the trap is off-screen (${JSON.stringify(box)})`);
  assert.equal(await trap.getAttribute('tabindex'), '-1');
  assert.equal(await form.getByRole('textbox').count(), 1, 'only the address is a text box for assistive technology');
  assert.ok((await page.evaluate(() => document.documentElement.scrollWidth)) <= VIEWPORTS.phone.width, 'no sideways scroll');
  if (javaScript) assert.deepEqual(await accessibilityViolations(page, 'footer'), []);

  await form.getByLabel(t.email).fill(address);
  await form.getByRole('checkbox', { name: t.books }).uncheck();
  await Promise.all([
    page.waitForURL(`${stack.url}${prefix(lang)}/newsletter/check-inbox`),
    form.getByRole('button', { name: t.subscribe }).click(),
  ]);
  await page.getByRole('heading', { level: 1, name: t.checkInbox }).waitFor();
  if (javaScript) assert.deepEqual(await accessibilityViolations(page), []);
  await page.context().close();
}

/** A campaign mail's preferences link: the page without JavaScript, or a language change and leaving with it. */
async function preferencesFromCampaign({ lang, javaScript, address }) {
  const t = TEXT[lang];
  const other = lang === 'en' ? 'ar' : 'en';
  const essay = await stack.call('POST', '/api/essays', {
    token,
    body: { title: `E2E newsletter essay ${lang} ${javaScript}`, excerpt: 'For the newsletter.', content: 'A paragraph.' },
  });
  assert.equal(essay.status, 201, JSON.stringify(essay.body));
  const campaign = await stack.call('POST', '/api/newsletter/campaigns', { token, body: { kind: 'essays', id: essay.body.id } });
  assert.equal(campaign.status, 201, JSON.stringify(campaign.body));
  const link = await linkInMail(
    address,
    /https?:\/\/[^\s"<>]+\/newsletter\/preferences\?token=[^\s"<>]+/,
    `the campaign mail to ${address}`,
  );
  assert.equal(new URL(link).pathname, `${prefix(lang)}/newsletter/preferences`, 'the mail links the page in the reader’s language');
  const prefsToken = new URL(link).searchParams.get('token');
  const before = await preferencesOf(prefsToken);
  assert.deepEqual(before, { email: address, language: lang, topics: ['essays', 'news'], state: 'confirmed' });

  const page = await phonePage({ lang, javaScript });
  await page.goto(link, { waitUntil: 'networkidle' });
  await page.getByRole('heading', { level: 1, name: t.prefs }).waitFor();
  if (!javaScript) {
    assert.equal((await page.locator('.newsletter-noscript').innerText()).trim(), t.noscript);
    await page.context().close();
    return;
  }
  const main = page.locator('main');
  await main.getByText(address).waitFor();
  assert.equal(await main.getByLabel(t.language).inputValue(), lang);
  assert.deepEqual(await accessibilityViolations(page, 'main'), []);
  await main.getByLabel(t.language).selectOption(other);
  await main.getByRole('button', { name: t.save }).click();
  await main.getByText(t.saved).waitFor();
  assert.equal((await preferencesOf(prefsToken)).language, other);

  await Promise.all([
    page.waitForURL(`${stack.url}${prefix(lang)}/newsletter/unsubscribed`),
    main.getByRole('button', { name: t.unsubscribe }).click(),
  ]);
  await page.getByRole('heading', { level: 1, name: t.unsubscribed }).waitFor();
  assert.equal((await preferencesOf(prefsToken)).state, 'unsubscribed');
  await page.context().close();
}

for (const lang of ['en', 'ar']) {
  for (const javaScript of [true, false]) {
    const t = TEXT[lang];
    describe(`newsletter in ${lang === 'en' ? 'English' : 'Arabic'}, JavaScript ${javaScript ? 'on' : 'off'}, at phone width`, () => {
      const address = `e2e-${lang}-${javaScript ? 'js' : 'nojs'}@example.com`;

      it('subscribes through the footer form and lands on the check-inbox page in the page language', async () => {
        await subscribeInFooter({ lang, javaScript, address });
      });

      it('the confirmation mail’s link confirms, then the confirmed page shows in the chosen language', async () => {
        const link = await linkInMail(
          address,
          /https?:\/\/[^\s"<>]+\/api\/newsletter\/confirm\?token=[^\s"<>]+/,
          `the confirmation mail to ${address}`,
        );
        const page = await phonePage({ lang, javaScript });
        await page.goto(link, { waitUntil: 'networkidle' });
        assert.equal(new URL(page.url()).pathname, `${prefix(lang)}/newsletter/confirmed`);
        await page.getByRole('heading', { level: 1, name: t.confirmed }).waitFor();
        await page.context().close();
      });

      it(
        javaScript
          ? 'the preferences page of a campaign mail changes the language, then Unsubscribe leads to the unsubscribed page'
          : 'without JavaScript, the preferences page says it needs it and that the mail’s unsubscribe link works without',
        async () => {
          await preferencesFromCampaign({ lang, javaScript, address });
        },
      );
    });
  }
}

const AUTHOR = {
  en: {
    management: 'Content Management',
    offer: (title) => `“\u2068${title}\u2069” is live. Send it to your subscribers?`,
    open: 'Send to subscribers',
    modal: (title) => `Send “\u2068${title}\u2069” to subscribers`,
    previewIn: (language) => `The mail in ${language}`,
    languages: ['English', 'Arabic'],
    test: 'Send a test to me',
    testSent: 'Test sent',
    send: (count) => (count === 1 ? 'Send to 1 subscriber' : `Send to ${count} subscribers`),
    started: 'Sending to subscribers',
    done: 'Done',
    counts: (sent) => `Sent ${sent} · failed 0 · remaining 0`,
    dismiss: 'Not this one',
    dismissed: 'It will not be offered again',
  },
  ar: {
    management: 'إدارة المحتوى',
    offer: (title) => `«\u2068${title}\u2069» منشور الآن. هل تريد إرساله إلى مشتركيك؟`,
    open: 'إرسال إلى المشتركين',
    modal: (title) => `إرسال «\u2068${title}\u2069» إلى المشتركين`,
    previewIn: (language) => `الرسالة بـ${language}`,
    languages: ['الإنجليزية', 'العربية'],
    dismiss: 'ليس هذا',
    dismissed: 'لن يُعرض مرة أخرى',
  },
};

/** The signed-in author on the home page who opens the overlay, in a language, at a width. */
const openOverlay = ({ lang, viewport }) =>
  overlayOn(browser, stack.url, { lang, viewport, session: token, dialog: AUTHOR[lang].management });

/** A new essay, live at once: the overlay offers to send it. */
async function liveEssay(title) {
  const essay = await stack.call('POST', '/api/essays', {
    token,
    body: { title, excerpt: 'A letter for the readers.', content: 'A paragraph.', published: true },
  });
  assert.equal(essay.status, 201, JSON.stringify(essay.body));
  return essay.body.id;
}

describe('the author sends a new essay to her subscribers from the overlay', () => {
  const readers = { en: 'author-reader-en@example.com', ar: 'author-reader-ar@example.com' };

  before(async () => {
    const file = new FormData();
    file.append('file', new Blob([`email,language,topics\n${readers.en},en,essays\n${readers.ar},ar,essays\n`]), 'readers.csv');
    file.append('consent', 'true');
    const res = await fetch(`${stack.url}/api/subscribers/import`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: file,
    });
    assert.equal(res.status, 200, await res.text());
  });

  it('in English: the offer, both previews, a test, then Send with its progress; each reader gets the essay in their language', async () => {
    const t = AUTHOR.en;
    const title = 'Letters from the shore';
    const id = await liveEssay(title);
    const followers = (await stack.call('GET', '/api/subscribers?state=confirmed&topic=essays&pageSize=1', { token })).body.total;
    assert.ok(followers >= 2, `${followers} confirmed readers follow essays`);

    const { page, overlay } = await openOverlay({ lang: 'en', viewport: VIEWPORTS.desktop });
    const offer = overlay.getByRole('listitem').filter({ hasText: t.offer(title) });
    await offer.waitFor();
    await offer.getByRole('button', { name: new RegExp(`^${t.open}`) }).click();
    const modal = overlay.getByRole('dialog', { name: t.modal(title) });
    await modal.waitFor();
    // Each language's mail in its own frame, the essay's title in it.
    for (const language of t.languages) {
      const preview = modal.getByRole('region', { name: t.previewIn(language) });
      await preview.frameLocator('iframe').getByRole('heading', { level: 1, name: title }).waitFor();
    }
    await page.screenshot({ path: path.join(SHOTS, 'send-en-desktop.png') });

    await modal.getByRole('button', { name: t.test }).click();
    await overlay.getByText(t.testSent, { exact: true }).waitFor();
    const send = modal.getByRole('button', { name: t.send(followers) });
    await send.click();
    await overlay.getByText(t.started, { exact: true }).waitFor();
    // The progress polls until every reader's mail has its outcome.
    await modal.getByText(t.counts(followers), { exact: true }).waitFor({ timeout: 60_000 });
    await modal.getByText(t.done, { exact: true }).waitFor();
    await page.screenshot({ path: path.join(SHOTS, 'sent-en-desktop.png') });

    // Each reader's mail links the essay's page in the reader's language.
    await linkInMail(readers.en, new RegExp(`https?://[^\\s"<>]+(?<!/ar)/essays/${id}\\b`), 'the English reader’s mail');
    await linkInMail(readers.ar, new RegExp(`https?://[^\\s"<>]+/ar/essays/${id}\\b`), 'the Arabic reader’s mail');
    const campaigns = (await stack.call('GET', '/api/newsletter/campaigns', { token })).body;
    const campaign = campaigns.find((c) => c.kind === 'essays' && c.itemId === id);
    assert.deepEqual([campaign?.state, campaign?.sent, campaign?.failed], ['done', followers, 0]);
    // Once sent, it is no longer offered.
    await modal.getByRole('button', { name: 'Close' }).first().click();
    await offer.waitFor({ state: 'detached' });
    await page.context().close();
  });

  it('in Arabic at phone width: “Not this one” sends nothing and the offer goes away', async () => {
    const t = AUTHOR.ar;
    const title = 'Second letter';
    const id = await liveEssay(title);
    const { page, overlay } = await openOverlay({ lang: 'ar', viewport: VIEWPORTS.phone });
    const offer = overlay.getByRole('listitem').filter({ hasText: t.offer(title) });
    await offer.waitFor();
    await offer.getByRole('button', { name: new RegExp(`^${t.open}`) }).click();
    const modal = overlay.getByRole('dialog', { name: t.modal(title) });
    await modal.waitFor();
    for (const language of t.languages) await modal.getByRole('region', { name: t.previewIn(language) }).waitFor();
    assert.equal(await modal.evaluate((el) => getComputedStyle(el).direction), 'rtl');
    assert.ok(await modal.evaluate((el) => el.scrollWidth <= el.clientWidth + 1), 'the dialog fits the phone without sideways scrolling');
    await page.screenshot({ path: path.join(SHOTS, 'offer-ar-phone.png') });
    await modal.getByRole('button', { name: t.dismiss }).click();
    await overlay.getByText(t.dismissed, { exact: true }).waitFor();
    await offer.waitFor({ state: 'detached' });
    const campaigns = (await stack.call('GET', '/api/newsletter/campaigns', { token })).body;
    assert.equal(campaigns.filter((c) => c.itemId === id && c.kind === 'essays').length, 0, 'nothing was sent');
    assert.deepEqual(
      (await stack.call('GET', '/api/newsletter/offers', { token })).body.filter((o) => o.id === id),
      [],
    );
    await page.context().close();
  });
});
