import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { gunzipSync } from 'node:zlib';

import { isEmailAddress } from '@portfolio/contract/rules';
import { Ajv } from 'ajv';
import type { ParsedMail } from 'mailparser';

import { TwoFactorKey } from '../src/auth/two-factor-key.js';
import { runBackup } from '../src/backup/backup.js';
import { runRestore } from '../src/backup/restore.js';
import { loadConfig } from '../src/config/config.js';
import { Subscriber } from '../src/newsletter/entities.js';
import { NewsletterTokens } from '../src/newsletter/tokens.js';
import { ADMIN, type Api, startApi } from './support/harness.js';
import { type SmtpAnswer, type SmtpServer, startSmtp } from './support/mail.js';
import { eventually, form, linkIn, mailsTo, nthMailTo, rawRequest, recipientOf } from './support/newsletter.js';

const SITE = 'https://site.example';
const KEY = 'newsletter-test-two-factor-key-0123456789abcdef';
let ipCounter = 0;
/** A client address of its own per test (TRUST_PROXY=1), so the per-client limit is only met where a test means to. */
const client = () => ({ 'x-forwarded-for': `10.1.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}` });

/** A header as sent (mailparser parses List-* headers into objects). */
const headerOf = (mail: ParsedMail, name: string) => {
  const line = mail.headerLines.find((h) => h.key === name)?.line ?? '';
  return line.slice(line.indexOf(':') + 1).trim();
};

type Json = Record<string, unknown>;
const COMPONENT = '#/components/schemas/';
const isIsoTime = (value: string) =>
  /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/.test(value) && !Number.isNaN(Date.parse(value));

/**
 * Checks answers against schemas of an OpenAPI document with Ajv: each component it reaches is added
 * under its name, and objects take no key their schema does not list, so a field the document misses fails too.
 */
function schemaChecker(components: Record<string, Json>) {
  const ajv = new Ajv({ allErrors: true, formats: { 'date-time': isIsoTime, email: (value: string) => isEmailAddress(value) } });
  const added = new Set<string>();
  const add = (name: string) => {
    if (added.has(name)) return;
    added.add(name);
    assert.ok(components[name], `component ${name}`);
    ajv.addSchema(convert(components[name]) as Json, name);
  };
  const convert = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(convert);
    if (!node || typeof node !== 'object') return node;
    const out: Json = Object.fromEntries(Object.entries(node).map(([key, value]) => [key, convert(value)]));
    if (typeof out.$ref === 'string' && out.$ref.startsWith(COMPONENT)) {
      add(out.$ref.slice(COMPONENT.length));
      out.$ref = out.$ref.slice(COMPONENT.length);
    }
    if (out.properties && out.additionalProperties === undefined) out.additionalProperties = false;
    return out;
  };
  return (schema: Json, body: unknown, what: string) => {
    const validate = ajv.compile(convert(schema) as Json);
    assert.ok(validate(body), `${what}: ${ajv.errorsText(validate.errors)} in ${JSON.stringify(body).slice(0, 2000)}`);
  };
}

describe('the newsletter (issue 25)', () => {
  let api: Api;
  let smtp: SmtpServer;
  let token: string;
  /** Called on each message before it is answered (to unsubscribe someone mid-campaign, to refuse). */
  let onMessage: (mail: ParsedMail) => Promise<SmtpAnswer> = async () => undefined;
  const flakySeen = new Set<string>();

  before(async () => {
    smtp = await startSmtp(async (mail) => {
      const to = recipientOf(mail);
      if (to.startsWith('bounce')) return { code: 550, message: 'No such mailbox' };
      if (to.startsWith('flaky') && mail.subject?.startsWith('News: ') && !flakySeen.has(mail.subject)) {
        flakySeen.add(mail.subject);
        return { code: 451, message: 'Try again later' };
      }
      return onMessage(mail);
    });
    api = await startApi({
      SMTP_URL: smtp.url,
      SITE_URL: SITE,
      PUBLIC_URL: 'https://www.site.example',
      TRUST_PROXY: '1',
      TWO_FACTOR_KEY: KEY,
      NEWSLETTER_RATE_PER_MINUTE: '60000',
      NEWSLETTER_CONCURRENCY: '1',
      BACKUP_EVERY: 'off',
    });
    token = await api.login();
  });
  after(async () => {
    await api?.close();
    await smtp?.close();
  });

  /** Real answers of the JSON routes, checked against the OpenAPI document's schemas at the end. */
  const answers: { key: string; body: unknown }[] = [];
  const keep = <T extends { status: number; text: string; body?: unknown }>(method: string, route: string, res: T) => {
    answers.push({ key: `${method} ${route} ${res.status}`, body: 'body' in res ? res.body : JSON.parse(res.text) });
    return res;
  };

  const subscribeJson = (body: Record<string, unknown>, headers = client()) =>
    rawRequest(api.url, 'POST', '/api/newsletter/subscribe', {
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json', ...headers },
    });

  /** Subscribes and confirms through the mail's link; answers the subscriber's manage token (from a campaign mail later). */
  async function confirmed(email: string, language: 'en' | 'ar' = 'en', topics?: string[]) {
    const before = mailsTo(smtp, email).length;
    assert.equal((await subscribeJson({ email, language, ...(topics ? { topics } : {}) })).status, 202);
    const mail = await nthMailTo(smtp, email, before + 1);
    const link = linkIn(mail.text!, /https:\/\/site\.example\/api\/newsletter\/confirm\?token=\S+/);
    const res = await rawRequest(api.url, 'GET', link.slice(SITE.length));
    assert.equal(res.status, 303);
    return res;
  }

  async function liveItem(kind: 'essays' | 'news' | 'books', over: Record<string, unknown> = {}) {
    const bodies = {
      essays: {
        title: 'On Return',
        excerpt: 'A short essay.\n\nIn two paragraphs.',
        content: 'Text',
        imageUrl: '/uploads/essays/return.jpg',
      },
      news: { title: 'A Prize', excerpt: 'Short', content: 'Line', category: 'award' },
      books: { title: 'A Book', description: 'About it', year: 2020, publisher: 'Pub' },
    };
    const res = await api.request('POST', `/api/${kind}`, { token, body: { ...bodies[kind], published: true, ...over } });
    assert.equal(res.status, 201, res.text);
    return res.body.id as number;
  }

  async function campaignDone(id: number) {
    return eventually(
      async () => (await api.request('GET', `/api/newsletter/campaigns/${id}`, { token })).body,
      (c) => c.state === 'done',
      `campaign ${id} done`,
    );
  }

  /** The reader's row as stored (its link nonce included). */
  const rowOf = async (email: string) => (await api.dataSource.getRepository(Subscriber).findOneBy({ email }))!;
  /** A manage link's token as the reader's mails carry it. */
  const manageTokenOf = async (email: string) => api.app.get(NewsletterTokens).manage(await rowOf(email));

  async function subscriberOf(email: string) {
    const list = await api.request('GET', `/api/subscribers?search=${encodeURIComponent(email)}`, { token });
    return list.body.items.find((s: { email: string }) => s.email === email);
  }

  it('subscribes by JSON: 202 with the same answer for a new, a pending and a confirmed address, and one confirmation mail in the chosen language', async () => {
    const first = keep(
      'post',
      '/api/newsletter/subscribe',
      await subscribeJson({ email: 'Reader.AR@example.test', language: 'ar', topics: ['essays', 'news'] }),
    );
    assert.equal(first.status, 202);
    assert.deepEqual(JSON.parse(first.text), {
      message: 'Check your inbox to confirm your subscription.',
      messageKey: 'notice.newsletterCheckInbox',
    });
    const mail = await nthMailTo(smtp, 'reader.ar@example.test');
    assert.equal(mail.subject, 'أكّد اشتراكك');
    // Issue 32: from the author (Settings) at PUBLIC_URL's host, never "Portfolio <no-reply@localhost>"; the mail names the site.
    const settings = (await api.request('GET', '/api/admin/settings', { token })).body;
    assert.deepEqual(mail.from!.value[0], { name: settings.authorNameAr, address: 'no-reply@www.site.example' });
    assert.ok(mail.text!.includes(`${settings.authorNameAr} (\u2066site.example\u2069)`), mail.text);
    assert.ok(!mail.text!.includes('هذا الموقع'));
    assert.match(mail.html as string, /<html lang="ar" dir="rtl">/);
    assert.match(mail.text!, /https:\/\/site\.example\/api\/newsletter\/confirm\?token=/);
    // Pending, asking again within ten minutes: same answer, no second mail.
    const again = await subscribeJson({ email: 'reader.ar@example.test', language: 'ar', topics: ['essays', 'news'] });
    assert.deepEqual([again.status, again.text], [first.status, first.text]);
    const link = linkIn(mail.text!, /https:\/\/site\.example\/api\/newsletter\/confirm\?token=\S+/).slice(SITE.length);
    const confirm = await rawRequest(api.url, 'GET', link);
    assert.equal(confirm.status, 303);
    assert.equal(confirm.headers.get('location'), '/ar/newsletter/confirmed');
    // Opened again (issue 32): the reader is told they are already subscribed, in their language.
    assert.equal((await rawRequest(api.url, 'GET', link)).headers.get('location'), '/ar/newsletter/already-subscribed');
    assert.equal(
      (await rawRequest(api.url, 'GET', '/api/newsletter/confirm?token=nonsense')).headers.get('location'),
      '/newsletter/link-invalid',
    );
    // Confirmed: the same answer again, and nothing sent (a later mail to someone else arrives first).
    const confirmedAgain = await subscribeJson({ email: 'reader.ar@example.test' });
    assert.deepEqual([confirmedAgain.status, confirmedAgain.text], [first.status, first.text]);
    await confirmed('marker-1@example.test');
    assert.equal(mailsTo(smtp, 'reader.ar@example.test').length, 1);
    const row = await subscriberOf('reader.ar@example.test');
    assert.equal(row.state, 'confirmed');
    assert.deepEqual(row.topics, ['essays', 'news']);
    assert.equal(row.language, 'ar');
  });

  it('refuses malformed addresses with the form’s error and keeps one row per mailbox (issue 32)', async () => {
    const error = {
      statusCode: 400,
      message: 'Please enter a valid email address',
      messageKey: 'validation.emailInvalid',
      errors: { email: 'Please enter a valid email address' },
      errorKeys: { email: { key: 'validation.emailInvalid' } },
    };
    for (const email of ['<same@example.org>', 'x@example..org', 'same@example.org>', '"a b"@example.org']) {
      const res = await subscribeJson({ email });
      assert.deepEqual([res.status, JSON.parse(res.text)], [400, error], email);
      const viaForm = await rawRequest(api.url, 'POST', '/api/newsletter/subscribe', {
        body: form({ email, lang: 'ar' }),
        headers: client(),
      });
      assert.deepEqual([viaForm.status, viaForm.headers.get('location')], [303, '/ar/newsletter/error'], email);
    }
    for (const email of ['same@example.org', '  Same@EXAMPLE.org ', 'SAME@example.org'])
      assert.equal((await subscribeJson({ email })).status, 202, email);
    const rows = (await api.request('GET', '/api/subscribers?search=same%40example&pageSize=200', { token })).body.items as {
      email: string;
    }[];
    assert.deepEqual(
      rows.map((r) => r.email),
      ['same@example.org'],
    );
    assert.equal(await subscriberOf('x@example..org'), undefined);
  });

  it('ends a reader’s old links when they leave and subscribe again; links of before issue 32 reach only their own reader', async () => {
    await confirmed('comes-back@example.test', 'en', ['news']);
    const first = await manageTokenOf('comes-back@example.test');
    const oneClick = (t: string) =>
      rawRequest(api.url, 'POST', `/api/newsletter/unsubscribe?token=${t}`, {
        body: 'List-Unsubscribe=One-Click',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
    assert.equal((await oneClick(first)).status, 200);
    await confirmed('comes-back@example.test', 'ar', ['essays']);
    const second = await manageTokenOf('comes-back@example.test');
    assert.notEqual(second, first);
    for (const res of [await api.request('GET', `/api/newsletter/preferences?token=${first}`), await oneClick(first)])
      assert.equal(res.status, 404);
    const prefs = await api.request('PUT', `/api/newsletter/preferences?token=${first}`, { body: { language: 'en', topics: ['books'] } });
    assert.equal(prefs.status, 404);
    const now = await api.request('GET', `/api/newsletter/preferences?token=${second}`);
    assert.deepEqual(now.body, { email: 'comes-back@example.test', language: 'ar', topics: ['essays'], state: 'confirmed' });

    // A link of the old form (id and generation 0, no nonce), as mails sent before the upgrade carry it.
    const legacy = (id: number) => {
      const payload = `m1.${id}.0`;
      const key = api.app.get(TwoFactorKey).derive('newsletter-links');
      return `${payload}.${createHmac('sha256', key).update(payload).digest().subarray(0, 18).toString('base64url')}`;
    };
    const row = await rowOf('comes-back@example.test');
    assert.equal((await api.request('GET', `/api/newsletter/preferences?token=${legacy(row.id)}`)).status, 404, 'a row made since');
    await api.dataSource.getRepository(Subscriber).update({ id: row.id }, { linkGeneration: 0 });
    assert.equal((await api.request('GET', `/api/newsletter/preferences?token=${legacy(row.id)}`)).status, 200, 'a row of that time');
    await api.dataSource.getRepository(Subscriber).update({ id: row.id }, { linkGeneration: row.linkGeneration });
  });

  it('refuses an expired confirmation link (48 h) with the link-invalid page in its language', async () => {
    assert.equal((await subscribeJson({ email: 'late@example.test', language: 'ar' })).status, 202);
    await nthMailTo(smtp, 'late@example.test');
    const old = api.app.get(NewsletterTokens).confirm(await rowOf('late@example.test'), 'ar', Date.now() - 49 * 3_600_000);
    assert.equal(
      (await rawRequest(api.url, 'GET', `/api/newsletter/confirm?token=${old}`)).headers.get('location'),
      '/ar/newsletter/link-invalid',
    );
    assert.equal((await subscriberOf('late@example.test')).state, 'pending');
  });

  it('takes a plain form post: 303 to the check-inbox page in the page language, repeated topics, errors to the error page', async () => {
    const res = await rawRequest(api.url, 'POST', '/api/newsletter/subscribe', {
      body: form({ email: 'form@example.test', topics: ['books', 'essays'], lang: 'ar' }),
      headers: client(),
    });
    assert.equal(res.status, 303);
    assert.equal(res.headers.get('location'), '/ar/newsletter/check-inbox');
    const row = await subscriberOf('form@example.test');
    assert.deepEqual([row.language, row.topics, row.state], ['ar', ['essays', 'books'], 'pending']);
    const bad = await rawRequest(api.url, 'POST', '/api/newsletter/subscribe', {
      body: form({ email: 'not an address' }),
      headers: client(),
    });
    assert.deepEqual([bad.status, bad.headers.get('location')], [303, '/newsletter/error']);
    const badAr = await rawRequest(api.url, 'POST', '/api/newsletter/subscribe', {
      body: form({ email: 'x@example.test', topics: 'plays', lang: 'ar' }),
      headers: client(),
    });
    assert.deepEqual([badAr.status, badAr.headers.get('location')], [303, '/ar/newsletter/error']);
  });

  it('pretends success to a filled honeypot, and stores and sends nothing', async () => {
    const json = await subscribeJson({ email: 'bot@example.test', website: 'http://spam.example' });
    assert.equal(json.status, 202);
    assert.equal(JSON.parse(json.text).message, 'Check your inbox to confirm your subscription.');
    const viaForm = await rawRequest(api.url, 'POST', '/api/newsletter/subscribe', {
      body: form({ email: 'bot2@example.test', website: 'x' }),
      headers: client(),
    });
    assert.deepEqual([viaForm.status, viaForm.headers.get('location')], [303, '/newsletter/check-inbox']);
    assert.equal(await subscriberOf('bot@example.test'), undefined);
    assert.equal(await subscriberOf('bot2@example.test'), undefined);
    await confirmed('marker-2@example.test');
    assert.equal(smtp.received.filter((m) => recipientOf(m).startsWith('bot')).length, 0);
  });

  it('answers bad input with 400 in the one error format: malformed JSON, a 10 KB address, unknown topics or language', async () => {
    const malformed = await rawRequest(api.url, 'POST', '/api/newsletter/subscribe', {
      body: '{"email": ',
      headers: { 'content-type': 'application/json', ...client() },
    });
    assert.equal(malformed.status, 400);
    assert.equal(JSON.parse(malformed.text).statusCode, 400);
    const huge = await subscribeJson({ email: `${'a'.repeat(10_000)}@example.test` });
    assert.equal(huge.status, 400);
    assert.deepEqual(JSON.parse(huge.text), {
      statusCode: 400,
      message: 'Please enter a valid email address',
      messageKey: 'validation.emailInvalid',
      errors: { email: 'Please enter a valid email address' },
      errorKeys: { email: { key: 'validation.emailInvalid' } },
    });
    const missing = await subscribeJson({});
    assert.equal(JSON.parse(missing.text).message, 'Email is required');
    const topics = await subscribeJson({ email: 'a@example.test', topics: ['plays'] });
    assert.equal(JSON.parse(topics.text).message, 'Choose among the topics essays, news and books.');
    const language = await subscribeJson({ email: 'a@example.test', language: 'fr' });
    assert.equal(JSON.parse(language.text).message, 'Choose the language of the mails: en or ar.');
  });

  it('limits subscriptions per client like the contact form: 429 for JSON, the error page for a form', async () => {
    const me = client();
    for (let i = 0; i < 10; i++) assert.equal((await subscribeJson({ email: `many${i}@example.test`, website: 'x' }, me)).status, 202);
    const over = await subscribeJson({ email: 'many-more@example.test' }, me);
    assert.equal(over.status, 429);
    assert.equal(JSON.parse(over.text).messageKey.startsWith('error.tooManyAttempts'), true);
    const overForm = await rawRequest(api.url, 'POST', '/api/newsletter/subscribe', {
      body: form({ email: 'many-more@example.test', lang: 'ar' }),
      headers: me,
    });
    assert.deepEqual([overForm.status, overForm.headers.get('location')], [303, '/ar/newsletter/error']);
  });

  it('keeps the sender settings admin-only and refuses a sender name with a line break', async () => {
    const bad = await api.request('PATCH', '/api/admin/settings', {
      token,
      body: { newsletterSenderName: 'Writer\r\nBcc: all@example.test' },
    });
    assert.equal(bad.status, 400);
    assert.deepEqual(bad.body.errors, { newsletterSenderName: 'Must be a single line.' });
    const saved = await api.request('PATCH', '/api/admin/settings', {
      token,
      body: {
        newsletterSenderName: 'Writer "from" Gaza',
        newsletterSenderAddress: 'letters@site.example',
        newsletterFooterEn: 'You follow the writing of a writer from Gaza.',
        newsletterFooterAr: 'أنت تتابع كتابات كاتب من غزة.',
      },
    });
    assert.equal(saved.status, 200, saved.text);
    assert.equal(saved.body.newsletterSenderAddress, 'letters@site.example');
    const pub = await api.request('GET', '/api/settings');
    assert.equal(Object.keys(pub.body).filter((k) => k.startsWith('newsletter')).length, 0);
  });

  it('offers an item when it first goes live, not a draft or a scheduled one, and forgets a dismissed one', async () => {
    const live = await liveItem('news', { title: 'Offered news' });
    const draft = await liveItem('news', { title: 'Draft news', published: false });
    await liveItem('news', { title: 'Later news', publishAt: new Date(Date.now() + 3_600_000).toISOString() });
    let offers = keep('get', '/api/newsletter/offers', await api.request('GET', '/api/newsletter/offers', { token })).body as {
      kind: string;
      id: number;
      title: string;
    }[];
    assert.ok(offers.some((o) => o.kind === 'news' && o.id === live && o.title === 'Offered news'));
    assert.ok(!offers.some((o) => o.title === 'Draft news' || o.title === 'Later news'));
    assert.equal((await api.request('PATCH', `/api/news/${draft}`, { token, body: { published: true } })).status, 200);
    offers = (await api.request('GET', '/api/newsletter/offers', { token })).body;
    assert.ok(offers.some((o) => o.id === draft && o.kind === 'news'));
    assert.equal((await api.request('POST', `/api/newsletter/offers/news/${draft}/dismiss`, { token })).status, 204);
    offers = (await api.request('GET', '/api/newsletter/offers', { token })).body;
    assert.ok(!offers.some((o) => o.id === draft && o.kind === 'news'));
    assert.equal((await api.request('GET', '/api/newsletter/offers')).status, 401);
  });

  it('"Dismiss all" dismisses the offers the overlay showed; one that came up after it loaded them stays offered', async () => {
    const offers = async () => (await api.request('GET', '/api/newsletter/offers', { token })).body as { kind: string; id: number }[];
    const essay = await liveItem('essays', { title: 'Shown essay' });
    const news = await liveItem('news', { title: 'Shown news' });
    const shown = (await offers())
      .filter((o) => (o.kind === 'essays' && o.id === essay) || (o.kind === 'news' && o.id === news))
      .map(({ kind, id }) => ({ kind, id }));
    assert.equal(shown.length, 2);
    const later = await liveItem('essays', { title: 'Came up later' });
    const dismissed = await api.request('POST', '/api/newsletter/offers/dismiss', { token, body: { offers: shown } });
    assert.equal(dismissed.status, 204, dismissed.text);
    const left = await offers();
    assert.ok(
      left.some((o) => o.kind === 'essays' && o.id === later),
      'the offer the admin never saw is still offered',
    );
    assert.ok(!left.some((o) => shown.some((s) => s.kind === o.kind && s.id === o.id)), 'the shown offers are gone');
    for (const body of [{}, { offers: 'all' }, { offers: [{ kind: 'nope', id: later }] }, { offers: [{ kind: 'essays', id: 0 }] }]) {
      const res = await api.request('POST', '/api/newsletter/offers/dismiss', { token, body });
      assert.equal(res.status, 400, JSON.stringify(body));
    }
    assert.ok(
      (await offers()).some((o) => o.kind === 'essays' && o.id === later),
      'a refused request dismisses nothing',
    );
    assert.equal((await api.request('POST', '/api/newsletter/offers/dismiss', { body: { offers: shown } })).status, 401);
    const docs = (await api.request('GET', '/api/docs-json')).body;
    const schema = JSON.stringify(docs.paths['/api/newsletter/offers/dismiss']?.post?.requestBody);
    assert.match(schema, /DismissOffersDto/, 'the body is in the OpenAPI document');
    assert.ok(docs.components.schemas.DismissOffersDto.properties.offers);
  });

  it('previews the mail in both languages and sends a test to the admin', async () => {
    const id = await liveItem('essays', { title: 'Preview me', translations: { ar: { title: 'عاينني', excerpt: 'مقالة قصيرة.' } } });
    const preview = keep(
      'get',
      '/api/newsletter/preview',
      await api.request('GET', `/api/newsletter/preview?kind=essays&id=${id}`, { token }),
    );
    assert.equal(preview.status, 200);
    assert.equal(preview.body.en.subject, 'New essay: Preview me');
    assert.equal(preview.body.ar.subject, 'مقالة جديدة: عاينني');
    assert.match(preview.body.ar.html, /dir="rtl"/);
    const test = keep(
      'post',
      '/api/newsletter/test',
      await api.request('POST', '/api/newsletter/test', { token, body: { kind: 'essays', id } }),
    );
    assert.equal(test.status, 202);
    await smtp.until(
      () => mailsTo(smtp, ADMIN.email).filter((m) => /عاينني|Preview me/.test(m.subject ?? '')).length === 2,
      'two test mails',
    );
  });

  it('shows a description written in Markdown formatted in the mail: inline styles, absolute links and images, Arabic right to left, words alone in the text part', async () => {
    const id = await liveItem('books', {
      title: 'Formatted',
      textFormat: 'markdown',
      description:
        '## About\n\nA **novel**, see [the books](/books) and [a review](https://review.example/a).\n\n![Cover](/uploads/books/c.jpg)\n\n<script>x</script>',
      translations: { ar: { title: 'منسق', description: '## عن الكتاب\n\nرواية **قصيرة** و[الكتب](/books).' } },
    });
    const preview = await api.request('GET', `/api/newsletter/preview?kind=books&id=${id}`, { token });
    assert.equal(preview.status, 200);
    const { en, ar } = preview.body;
    assert.match(en.html, /<h2 style="[^"]+">About<\/h2>/);
    assert.match(
      en.html,
      /<p style="[^"]+">A <strong>novel<\/strong>, see <a style="[^"]+" href="https:\/\/site\.example\/books">the books<\/a>/,
    );
    assert.match(en.html, /<a style="[^"]+" href="https:\/\/review\.example\/a" class="external" rel="noopener">a review<\/a>/);
    assert.match(en.html, /<img style="[^"]+" src="https:\/\/site\.example\/uploads\/books\/c\.jpg" alt="Cover">/);
    assert.match(en.html, /&lt;script&gt;x&lt;\/script&gt;/);
    assert.match(ar.html, /<div lang="ar" dir="rtl" style="text-align:right;"><h2 style="[^"]+">عن الكتاب<\/h2>/);
    assert.match(ar.html, /رواية <strong>قصيرة<\/strong>/);
    assert.match(en.text, /About\n\nA novel, see the books and a review\.\n\nCover/);
    assert.doesNotMatch(en.text + ar.text, /\*\*|\]\(|## /);
  });

  let arToken: string;
  it('sends a campaign: each reader in their language, both parts, absolute images, page links, footer, one-click headers, no pixel', async () => {
    await confirmed('en.reader@example.test', 'en', ['essays']);
    await confirmed('ar.reader@example.test', 'ar', ['essays', 'books']);
    await confirmed('news.only@example.test', 'en', ['news']);
    const id = await liveItem('essays', {
      title: 'On <Return> & "Home"',
      translations: { ar: { title: 'عن العودة', excerpt: 'مقالة قصيرة.' } },
    });
    const created = keep(
      'post',
      '/api/newsletter/campaigns',
      await api.request('POST', '/api/newsletter/campaigns', { token, body: { kind: 'essays', id } }),
    );
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.kind, 'essays');
    const done = await campaignDone(created.body.id);
    const readers = ['reader.ar@example.test', 'en.reader@example.test', 'ar.reader@example.test'];
    assert.deepEqual([done.sent, done.failed, done.skipped, done.remaining], [done.total, 0, 0, 0]);
    assert.ok(done.total >= readers.length);
    assert.equal(mailsTo(smtp, 'news.only@example.test').filter((m) => m.subject?.startsWith('New essay')).length, 0);

    const en = mailsTo(smtp, 'en.reader@example.test').find((m) => m.subject === 'New essay: On <Return> & "Home"')!;
    const ar = mailsTo(smtp, 'ar.reader@example.test').find((m) => m.subject === 'مقالة جديدة: عن العودة')!;
    assert.ok(en && ar);
    for (const [mail, lang] of [
      [en, 'en'],
      [ar, 'ar'],
    ] as const) {
      const from = mail.from!.value[0];
      assert.deepEqual([from.name, from.address], ['Writer "from" Gaza', 'letters@site.example']);
      const unsubscribe = headerOf(mail, 'list-unsubscribe');
      assert.match(unsubscribe, /^<https:\/\/site\.example\/api\/newsletter\/unsubscribe\?token=[\w.-]+>$/);
      assert.equal(headerOf(mail, 'list-unsubscribe-post'), 'List-Unsubscribe=One-Click');
      assert.match(mail.messageId!, new RegExp(`^<newsletter-${created.body.id}-\\d+@site\\.example>$`));
      const html = mail.html as string;
      assert.ok(mail.text && html);
      assert.equal(html.match(/<img/g)?.length, 1, 'the content image only: no tracking pixel');
      assert.match(html, /<img src="https:\/\/site\.example\/uploads\/essays\/return\.jpg"/);
      const page = lang === 'ar' ? `https://site.example/ar/essays/${id}` : `https://site.example/essays/${id}`;
      assert.ok(html.includes(`href="${page}"`) && mail.text.includes(page));
      const prefs =
        lang === 'ar' ? 'https://site.example/ar/newsletter/preferences?token=' : 'https://site.example/newsletter/preferences?token=';
      assert.ok(mail.text.includes(prefs) && html.includes(prefs));
      assert.ok(mail.text.includes(lang === 'ar' ? 'أنت تتابع كتابات كاتب من غزة.' : 'You follow the writing of a writer from Gaza.'));
    }
    assert.match(ar.html as string, /<html lang="ar" dir="rtl">/);
    // The button agrees with its noun: an essay (مقالة) is not "اقرأه" (issue 32).
    assert.ok(en.text!.includes(`Read the essay on the site: https://site.example/essays/`), en.text);
    assert.ok(ar.text!.includes('اقرأ المقالة على الموقع: https://site.example/ar/essays/') && !ar.text!.includes('اقرأه'), ar.text);
    assert.match(en.html as string, /<html lang="en" dir="ltr">/);
    assert.ok((en.html as string).includes('On &lt;Return&gt; &amp; &quot;Home&quot;'), 'escaped');
    // The English reader of an essay without an English translation reads its own (English) text.
    assert.match(en.text!, /A short essay\./);
    arToken = linkIn(headerOf(ar, 'list-unsubscribe'), /token=[\w.-]+/).slice('token='.length);

    const second = await api.request('POST', '/api/newsletter/campaigns', { token, body: { kind: 'essays', id } });
    assert.equal(second.status, 409);
    assert.equal(second.body.message, 'This item has already been sent to subscribers.');
    const draft = await liveItem('essays', { published: false });
    assert.equal((await api.request('POST', '/api/newsletter/campaigns', { token, body: { kind: 'essays', id: draft } })).status, 400);
    const list = keep('get', '/api/newsletter/campaigns', await api.request('GET', '/api/newsletter/campaigns', { token }));
    assert.equal(list.body[0].id, created.body.id);
  });

  it('unsubscribes in one click as mail providers do (RFC 8058), idempotently; preferences read and change by the same token', async () => {
    const prefs = keep('get', '/api/newsletter/preferences', await api.request('GET', `/api/newsletter/preferences?token=${arToken}`));
    assert.deepEqual(prefs.body, { email: 'ar.reader@example.test', language: 'ar', topics: ['essays', 'books'], state: 'confirmed' });
    for (let i = 0; i < 2; i++) {
      const res = await rawRequest(api.url, 'POST', `/api/newsletter/unsubscribe?token=${arToken}`, {
        body: 'List-Unsubscribe=One-Click',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      assert.equal(res.status, 200);
      assert.equal(res.text, 'You have been unsubscribed.');
      assert.match(res.headers.get('content-type')!, /^text\/plain/);
    }
    assert.equal((await api.request('GET', `/api/newsletter/preferences?token=${arToken}`)).body.state, 'unsubscribed');
    const back = keep(
      'put',
      '/api/newsletter/preferences',
      await api.request('PUT', `/api/newsletter/preferences?token=${arToken}`, { body: { language: 'en', topics: ['books'] } }),
    );
    assert.deepEqual(back.body, { email: 'ar.reader@example.test', language: 'en', topics: ['books'], state: 'confirmed' });
    // The form lands in the language of the page it was on, whatever the reader's mail language.
    const viaForm = await rawRequest(api.url, 'POST', '/api/newsletter/unsubscribe', { body: form({ token: arToken, lang: 'ar' }) });
    assert.deepEqual([viaForm.status, viaForm.headers.get('location')], [303, '/ar/newsletter/unsubscribed']);
    const bad = await api.request('GET', '/api/newsletter/preferences?token=m1.1.0.forged');
    assert.equal(bad.status, 404);
    assert.equal(bad.body.message, 'This link is invalid or has expired.');
    const badOneClick = await rawRequest(api.url, 'POST', '/api/newsletter/unsubscribe?token=x', {
      body: 'List-Unsubscribe=One-Click',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    assert.equal(badOneClick.status, 404);
    const badForm = await rawRequest(api.url, 'POST', '/api/newsletter/unsubscribe', { body: form({ token: 'x', lang: 'ar' }) });
    assert.deepEqual([badForm.status, badForm.headers.get('location')], [303, '/ar/newsletter/link-invalid']);
  });

  it('takes an unsubscribe during a campaign at once: the rows of readers who left become skipped', async () => {
    const readers = ['mid-1@example.test', 'mid-2@example.test', 'mid-3@example.test', 'mid-4@example.test'];
    for (const r of readers) await confirmed(r, 'en', ['books']);
    const tokens = new Map<string, string>();
    const id = await liveItem('books', { title: 'Mid campaign' });
    let first = '';
    onMessage = async (mail) => {
      if (mail.subject !== 'New book: Mid campaign' || first) return;
      first = recipientOf(mail);
      // The first mail is at the server: everyone else of the campaign leaves now (one at a time is sent: concurrency 1).
      for (const r of readers.filter((x) => x !== first)) {
        tokens.set(r, await manageTokenOf(r));
        const res = await rawRequest(api.url, 'POST', `/api/newsletter/unsubscribe?token=${tokens.get(r)}`, {
          body: 'List-Unsubscribe=One-Click',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        });
        assert.equal(res.status, 200);
      }
    };
    const created = await api.request('POST', '/api/newsletter/campaigns', { token, body: { kind: 'books', id } });
    const done = await campaignDone(created.body.id);
    onMessage = async () => undefined;
    const gotIt = readers.filter((r) => mailsTo(smtp, r).some((m) => m.subject === 'New book: Mid campaign'));
    const left = readers.filter((r) => r !== first);
    assert.deepEqual(gotIt, readers.includes(first) ? [first] : []);
    assert.equal(done.skipped, left.length);
    assert.deepEqual([done.sent, done.failed, done.remaining], [done.total - left.length, 0, 0]);
  });

  it('retries temporary failures with backoff and records permanent ones; three permanent failures pause a reader', async () => {
    await confirmed('flaky@example.test', 'en', ['news']);
    // The bounce address cannot confirm by mail (its mails are refused): it is imported as confirmed instead.
    const file = new FormData();
    file.append('file', new Blob(['email,language,topics\nbounce@example.test,en,news\n'], { type: 'text/csv' }), 'list.csv');
    file.append('consent', 'true');
    assert.equal((await api.request('POST', '/api/subscribers/import', { token, rawBody: file })).status, 200);
    for (let round = 1; round <= 3; round++) {
      const id = await liveItem('news', { title: `Bounce round ${round}` });
      const created = await api.request('POST', '/api/newsletter/campaigns', { token, body: { kind: 'news', id } });
      const done = await campaignDone(created.body.id);
      assert.equal(done.failed, 1, `round ${round}`);
      if (round === 1) {
        assert.equal(
          smtp.received.filter((m) => recipientOf(m) === 'flaky@example.test' && m.subject === 'News: Bounce round 1').length,
          2,
        );
        assert.equal(mailsTo(smtp, 'flaky@example.test').filter((m) => m.subject === 'News: Bounce round 1').length, 1);
      }
      const bounce = await subscriberOf('bounce@example.test');
      assert.equal(bounce.permanentFailures, round);
      assert.equal(bounce.state, round < 3 ? 'confirmed' : 'paused');
    }
  });

  it('exports and imports CSV (consent required; existing addresses updated, not duplicated)', async () => {
    const noConsent = new FormData();
    noConsent.append('file', new Blob(['email\nx@example.test\n']), 'a.csv');
    const refused = await api.request('POST', '/api/subscribers/import', { token, rawBody: noConsent });
    assert.equal(refused.status, 400);
    assert.equal(refused.body.message, 'Confirm that everyone in this file agreed to receive your mails.');
    const file = new FormData();
    file.append(
      'file',
      new Blob([
        'email,language,topics\r\nnew.one@example.test,ar,"essays,news"\r\nEN.READER@example.test,ar,books\r\nnot-an-address,en,\r\n' +
          'new.two@example.test,en,"books; news"\n<quoted@example.test>,en,\r\n',
      ]),
      'a.csv',
    );
    file.append('consent', 'true');
    const imported = keep(
      'post',
      '/api/subscribers/import',
      await api.request('POST', '/api/subscribers/import', { token, rawBody: file }),
    );
    assert.deepEqual(imported.body, {
      created: 2,
      updated: 1,
      skipped: 2,
      errors: [
        { line: 4, message: 'Please enter a valid email address' },
        { line: 6, message: 'Please enter a valid email address' },
      ],
    });
    // A quoted topics field takes commas (issue 32), as well as spaces, ; and |.
    const row = await subscriberOf('new.one@example.test');
    assert.deepEqual([row.state, row.language, row.topics], ['confirmed', 'ar', ['essays', 'news']]);
    assert.deepEqual((await subscriberOf('new.two@example.test')).topics, ['news', 'books']);
    // A reader already here keeps the language and topics they chose (issue 32).
    const kept = await subscriberOf('en.reader@example.test');
    assert.deepEqual([kept.state, kept.language, kept.topics], ['confirmed', 'en', ['essays']]);
    const csv = await api.request('GET', '/api/subscribers/export', { token });
    assert.equal(csv.status, 200);
    assert.match(csv.headers.get('content-type')!, /^text\/csv/);
    assert.match(csv.headers.get('content-disposition')!, /attachment/);
    const lines = csv.text.trim().split('\r\n');
    assert.equal(lines[0], 'email,language,topics,state,createdAt,confirmedAt');
    assert.ok(lines.some((l) => l.startsWith('new.one@example.test,ar,essays news,confirmed,')));
    assert.equal((await api.request('GET', '/api/subscribers/export')).status, 401);
    const list = keep(
      'get',
      '/api/subscribers',
      await api.request('GET', '/api/subscribers?state=confirmed&language=ar&pageSize=2', { token }),
    );
    assert.equal(list.body.pageSize, 2);
    assert.deepEqual(list.body.mailLinks, { base: SITE, local: false });
    assert.ok(list.body.items.length <= 2);
    assert.ok(list.body.counts.byState.confirmed >= list.body.counts.byLanguage.ar);
    // The topic filter counts who a campaign of that kind would mail: new.one follows essays and news, not books.
    const confirmed = (await api.request('GET', '/api/subscribers?state=confirmed&pageSize=200', { token })).body.items as {
      email: string;
      topics: string[];
    }[];
    for (const topic of ['essays', 'news', 'books']) {
      const following = await api.request('GET', `/api/subscribers?state=confirmed&topic=${topic}&pageSize=200`, { token });
      assert.equal(following.status, 200, JSON.stringify(following.body));
      assert.deepEqual(
        following.body.items.map((s: { email: string }) => s.email).sort(),
        confirmed
          .filter((s) => s.topics.includes(topic))
          .map((s) => s.email)
          .sort(),
      );
      assert.equal(following.body.total, following.body.items.length);
    }
    assert.ok(
      !(await api.request('GET', '/api/subscribers?topic=books&state=confirmed', { token })).body.items.some(
        (s: { email: string }) => s.email === 'new.one@example.test',
      ),
    );
    const badTopic = await api.request('GET', '/api/subscribers?topic=plays', { token });
    assert.equal(badTopic.status, 400);
  });

  it('refuses a malformed CSV file, naming the line, and imports nothing from it', async () => {
    const broken = new FormData();
    broken.append('file', new Blob(['email,topics\nok@example.test,"essays\n']), 'b.csv');
    broken.append('consent', 'true');
    const refusedFile = await api.request('POST', '/api/subscribers/import', { token, rawBody: broken });
    assert.equal(refusedFile.status, 400);
    assert.equal(refusedFile.body.message, 'This file is not valid CSV (line 2).');
    assert.equal(await subscriberOf('ok@example.test'), undefined);
  });

  it('removes a subscriber completely on request', async () => {
    const row = await subscriberOf('en.reader@example.test');
    const manage = await manageTokenOf('en.reader@example.test');
    assert.equal((await api.request('GET', `/api/newsletter/preferences?token=${manage}`)).status, 200);
    assert.equal((await api.request('DELETE', `/api/subscribers/${row.id}`, { token })).status, 204);
    assert.equal(await subscriberOf('en.reader@example.test'), undefined);
    const rows = (await api.dataSource.query('SELECT COUNT(*) AS n FROM newsletter_deliveries WHERE subscriberId = ?', [row.id])) as {
      n: number;
    }[];
    assert.equal(Number(rows[0].n), 0);
    assert.equal((await api.request('GET', `/api/newsletter/preferences?token=${manage}`)).status, 404);
    assert.equal((await api.request('DELETE', `/api/subscribers/${row.id}`, { token })).status, 404);
  });

  it('lists the new routes in the OpenAPI document', async () => {
    const docs = (await api.request('GET', '/api/docs-json')).body;
    for (const [route, method] of [
      ['/api/newsletter/subscribe', 'post'],
      ['/api/newsletter/confirm', 'get'],
      ['/api/newsletter/preferences', 'get'],
      ['/api/newsletter/preferences', 'put'],
      ['/api/newsletter/unsubscribe', 'post'],
      ['/api/subscribers', 'get'],
      ['/api/subscribers/{id}', 'delete'],
      ['/api/subscribers/export', 'get'],
      ['/api/subscribers/import', 'post'],
      ['/api/newsletter/offers', 'get'],
      ['/api/newsletter/offers/{kind}/{id}/dismiss', 'post'],
      ['/api/newsletter/preview', 'get'],
      ['/api/newsletter/test', 'post'],
      ['/api/newsletter/campaigns', 'post'],
      ['/api/newsletter/campaigns', 'get'],
      ['/api/newsletter/campaigns/{id}', 'get'],
    ]) {
      assert.ok(docs.paths[route]?.[method], `${method} ${route}`);
    }
  });

  it('documents each JSON answer with its schema, and real answers fit it', async () => {
    const docs = (await api.request('GET', '/api/docs-json')).body;
    const answerSchemas: Record<string, string> = {
      'post /api/newsletter/subscribe 202': 'NewsletterNotice',
      'get /api/newsletter/preferences 200': 'NewsletterPreferences',
      'put /api/newsletter/preferences 200': 'NewsletterPreferences',
      'get /api/subscribers 200': 'SubscriberList',
      'post /api/subscribers/import 200': 'SubscriberImportResult',
      'get /api/newsletter/offers 200': 'NewsletterOffer[]',
      'get /api/newsletter/preview 200': 'NewsletterPreview',
      'post /api/newsletter/test 202': 'NewsletterNotice',
      'post /api/newsletter/campaigns 201': 'Campaign',
      'get /api/newsletter/campaigns 200': 'Campaign[]',
      'get /api/newsletter/campaigns/{id} 200': 'Campaign',
    };
    const schemaOf = (key: string) => {
      const [method, route, status] = key.split(' ');
      return docs.paths[route]?.[method]?.responses?.[status]?.content?.['application/json']?.schema as Json | undefined;
    };
    for (const [key, name] of Object.entries(answerSchemas)) {
      const component = name.replace('[]', '');
      const ref = { $ref: `${COMPONENT}${component}` };
      assert.deepEqual(schemaOf(key), name.endsWith('[]') ? { type: 'array', items: ref } : ref, key);
      assert.ok(docs.components.schemas[component], component);
    }
    assert.deepEqual(docs.components.schemas.NewsletterPreview.required, ['en', 'ar']);
    assert.deepEqual(docs.components.schemas.Subscriber.properties.topics.items.enum, ['essays', 'news', 'books']);

    // Fresh answers over everything the tests before left: subscribers in every state, finished campaigns.
    const subscribers = keep('get', '/api/subscribers', await api.request('GET', '/api/subscribers?pageSize=200', { token }));
    assert.deepEqual([...new Set(subscribers.body.items.map((s: { state: string }) => s.state))].sort(), [
      'confirmed',
      'paused',
      'pending',
      'unsubscribed',
    ]);
    const campaigns = keep('get', '/api/newsletter/campaigns', await api.request('GET', '/api/newsletter/campaigns', { token }));
    for (const campaign of campaigns.body as { id: number }[]) {
      keep('get', '/api/newsletter/campaigns/{id}', await api.request('GET', `/api/newsletter/campaigns/${campaign.id}`, { token }));
    }
    keep('get', '/api/newsletter/offers', await api.request('GET', '/api/newsletter/offers', { token }));

    const check = schemaChecker(docs.components.schemas);
    const checked = new Set<string>();
    for (const { key, body } of answers) {
      assert.ok(answerSchemas[key], `a documented JSON answer: ${key}`);
      check(schemaOf(key)!, body, key);
      checked.add(key);
    }
    assert.deepEqual([...checked].sort(), Object.keys(answerSchemas).sort());
    // The checker itself refuses what the document does not say.
    const campaign = campaigns.body[0];
    assert.throws(
      () => check(schemaOf('get /api/newsletter/campaigns/{id} 200')!, { ...campaign, extra: 1 }, 'extra'),
      /must NOT have additional/,
    );
    assert.throws(
      () => check(schemaOf('get /api/newsletter/campaigns/{id} 200')!, { ...campaign, finishedAt: 'soon' }, 'time'),
      /date-time/,
    );
  });

  it('says when the links in mails would lead to this computer (the site address is localhost)', async () => {
    const saved = await api.request('PATCH', '/api/admin/settings', { token, body: { siteUrl: 'http://localhost:3000' } });
    assert.equal(saved.status, 200, saved.text);
    try {
      const list = await api.request('GET', '/api/subscribers?pageSize=1', { token });
      assert.deepEqual(list.body.mailLinks, { base: 'http://localhost:3000', local: true });
    } finally {
      assert.equal((await api.request('PATCH', '/api/admin/settings', { token, body: { siteUrl: SITE } })).status, 200);
    }
  });

  // Issue 32: a restore sets each table's id counter from the rows it loads, so the id of a reader removed
  // before the backup is given again; their old link must not reach the new reader who gets it.
  it('keeps a removed reader’s old link away from a new reader who gets the same id after a restore', async () => {
    const work = await mkdtemp(path.join(os.tmpdir(), 'newsletter-reuse-'));
    try {
      await confirmed('removed.later@example.test', 'en', ['essays']);
      const removed = await rowOf('removed.later@example.test');
      const highest = (await api.dataSource.query('SELECT MAX(id) AS n FROM newsletter_subscribers')) as { n: number | string }[];
      assert.equal(Number(highest[0].n), removed.id, 'the newest reader');
      const oldLink = await manageTokenOf('removed.later@example.test');
      assert.equal((await api.request('DELETE', `/api/subscribers/${removed.id}`, { token })).status, 204);
      const archive = path.join(work, 'b.tar.gz');
      await runBackup(api.config, { out: archive });
      const varDir = path.join(work, 'target');
      await runRestore(
        loadConfig({ VAR_DIR: varDir, ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: 'restored-password-1', TWO_FACTOR_KEY: KEY }),
        archive,
      );
      const target = await startApi(
        { TWO_FACTOR_KEY: KEY, BACKUP_EVERY: 'off', ADMIN_PASSWORD: 'restored-password-1' },
        { varDir, keepData: true, databaseUrl: '' },
      );
      try {
        const res = await target.request('POST', '/api/newsletter/subscribe', { body: { email: 'newcomer@example.test' } });
        assert.equal(res.status, 202, res.text);
        const newcomer = (await target.dataSource.getRepository(Subscriber).findOneBy({ email: 'newcomer@example.test' }))!;
        // Whether or not the id comes back, the old link is not the newcomer's.
        const prefs = await target.request('GET', `/api/newsletter/preferences?token=${oldLink}`);
        assert.equal(prefs.status, 404, `${newcomer.id} (removed: ${removed.id}): ${prefs.text}`);
        const leave = await rawRequest(target.url, 'POST', `/api/newsletter/unsubscribe?token=${oldLink}`, {
          body: 'List-Unsubscribe=One-Click',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        });
        assert.equal(leave.status, 404);
        const after = (await target.dataSource.getRepository(Subscriber).findOneBy({ id: newcomer.id }))!;
        assert.equal(after.state, 'pending');
        const own = target.app.get(NewsletterTokens).manage(after);
        assert.equal((await target.request('GET', `/api/newsletter/preferences?token=${own}`)).body.email, 'newcomer@example.test');
      } finally {
        await target.close({ keepData: true });
      }
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  });

  // Restored into SQLite on both passes (on the MySQL pass the database is still the running API's).
  it('backs subscribers up without any token, and their links still work after a restore', async () => {
    const work = await mkdtemp(path.join(os.tmpdir(), 'newsletter-backup-'));
    try {
      const manage = await manageTokenOf('new.one@example.test');
      const archive = path.join(work, 'b.tar.gz');
      await runBackup(api.config, { out: archive });
      const bytes = gunzipSync(await (await import('node:fs/promises')).readFile(archive)).toString('utf8');
      assert.ok(bytes.includes('new.one@example.test'), 'subscribers are in the backup');
      assert.ok(!bytes.includes(manage.split('.').at(-1)!), 'no link signature in the backup');
      const varDir = path.join(work, 'target');
      await runRestore(
        loadConfig({ VAR_DIR: varDir, ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: 'restored-password-1', TWO_FACTOR_KEY: KEY }),
        archive,
      );
      const target = await startApi(
        { TWO_FACTOR_KEY: KEY, BACKUP_EVERY: 'off', ADMIN_PASSWORD: 'restored-password-1' },
        { varDir, keepData: true, databaseUrl: '' },
      );
      try {
        const prefs = await target.request('GET', `/api/newsletter/preferences?token=${manage}`);
        assert.equal(prefs.status, 200);
        assert.equal(prefs.body.email, 'new.one@example.test');
      } finally {
        await target.close({ keepData: true });
      }
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  });
});
