import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { after, describe, it } from 'node:test';

import { type ApiProcess, startApi, startApiProcess, TEST_DB } from './support/harness.js';
import { type SmtpServer, startSmtp } from './support/mail.js';
import { eventually, recipientOf } from './support/newsletter.js';

const KEY = 'newsletter-delivery-test-key-0123456789abcdefgh';
const env = (smtp: SmtpServer) => ({
  SMTP_URL: smtp.url,
  SITE_URL: 'https://site.example',
  TWO_FACTOR_KEY: KEY,
  NEWSLETTER_RATE_PER_MINUTE: '60000',
  NEWSLETTER_CONCURRENCY: '4',
  // Short SMTP steps, so the claims of a killed sender run out within seconds.
  MAIL_TIMEOUT_MS: '3000',
});

/** On MySQL the processes share the suite's database, which nothing else empties between tests. */
async function freshDatabase() {
  if (TEST_DB === 'mysql') await (await startApi()).close();
}

async function readers(api: ApiProcess, token: string, count: number, prefix: string) {
  const lines = [
    'email,language,topics',
    ...Array.from({ length: count }, (_, i) => `${prefix}${i}@example.test,${i % 2 ? 'ar' : 'en'},essays`),
  ];
  const file = new FormData();
  file.append('file', new Blob([`${lines.join('\n')}\n`]), 'readers.csv');
  file.append('consent', 'true');
  const res = await api.request('POST', '/api/subscribers/import', { token, rawBody: file });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.created, count);
}

async function campaignOf(api: ApiProcess, token: string, title: string) {
  const essay = await api.request('POST', '/api/essays', { token, body: { title, excerpt: 'Short', content: 'Text', published: true } });
  assert.equal(essay.status, 201, essay.text);
  const campaign = await api.request('POST', '/api/newsletter/campaigns', { token, body: { kind: 'essays', id: essay.body.id } });
  assert.equal(campaign.status, 201, campaign.text);
  return campaign.body.id as number;
}

/** The campaign's mails per reader: the readers who got it more than once, and those who got none. */
function mailsPerReader(smtp: SmtpServer, prefix: string, count: number, subject: RegExp) {
  const perReader = new Map<string, number>();
  for (const mail of smtp.accepted) {
    if (!subject.test(mail.subject ?? '')) continue;
    perReader.set(recipientOf(mail), (perReader.get(recipientOf(mail)) ?? 0) + 1);
  }
  const twice = [...perReader].filter(([, n]) => n > 1);
  const missing = Array.from({ length: count }, (_, i) => `${prefix}${i}@example.test`).filter((r) => !perReader.has(r));
  return { twice, missing };
}

/** Every reader got the campaign's mail exactly once. */
function exactlyOnce(smtp: SmtpServer, prefix: string, count: number, subject: RegExp) {
  assert.deepEqual(mailsPerReader(smtp, prefix, count, subject), { twice: [], missing: [] });
}

describe('newsletter delivery survives a crash and shares work between replicas', () => {
  const cleanup: (() => Promise<unknown>)[] = [];
  after(async () => {
    for (const step of cleanup.reverse()) await step().catch(() => undefined);
  });

  // A killed sender's claims must run out before another takes its rows: on a busy machine this takes minutes, not the usual 2.
  it('a sender killed mid-campaign (SIGKILL) and started again: no mail lost, a few at most twice', { timeout: 360_000 }, async () => {
    // A slow-ish server: each message takes 20 ms to be answered.
    await freshDatabase();
    const smtp = await startSmtp(() => new Promise((resolve) => setTimeout(resolve, 20)));
    cleanup.push(() => smtp.close());
    const first = await startApiProcess(env(smtp));
    cleanup.push(
      () => first.kill(),
      () => rm(first.varDir, { recursive: true, force: true }),
    );
    const token = await first.login();
    await readers(first, token, 300, 'crash');
    const id = await campaignOf(first, token, 'Crash test');
    await smtp.until(
      () => smtp.accepted.filter((m) => m.subject === 'New essay: Crash test').length >= 60,
      'the first mails of the campaign',
    );
    await first.kill();
    const sentBefore = smtp.accepted.filter((m) => m.subject === 'New essay: Crash test').length;
    assert.ok(sentBefore < 300, 'killed mid-campaign');

    const second = await startApiProcess(env(smtp), { varDir: first.varDir });
    cleanup.push(() => second.stop());
    const token2 = await second.login();
    const done = await eventually(
      async () => (await second.request('GET', `/api/newsletter/campaigns/${id}`, { token: token2 })).body,
      (c) => c.state === 'done',
      'the campaign to finish after the restart',
      300_000,
    );
    assert.deepEqual([done.total, done.sent, done.failed, done.skipped, done.remaining], [300, 300, 0, 0, 0]);
    // A row is sent once the server's answer is recorded: done means every mail is at the server.
    // None is lost; the kill can repeat only mails the server took that the killed sender had not
    // yet recorded: the end of a worker's next mail waits for that record: one per connection at most.
    const { twice, missing } = mailsPerReader(smtp, 'crash', 300, /^(New essay|مقالة جديدة): Crash test$/);
    assert.deepEqual(missing, []);
    const connections = Number(env(smtp).NEWSLETTER_CONCURRENCY);
    assert.ok(twice.length <= connections && twice.every(([, n]) => n === 2), `sent again: ${JSON.stringify(twice)}`);
    // Stopped here, not after the suite: on MySQL the next test's campaign is in the same database.
    await second.stop();
  });

  it('two replicas sending one campaign: exactly one mail each', { timeout: 360_000 }, async () => {
    await freshDatabase();
    const smtp = await startSmtp(() => new Promise((resolve) => setTimeout(resolve, 5)));
    cleanup.push(() => smtp.close());
    const one = await startApiProcess(env(smtp));
    cleanup.push(() => rm(one.varDir, { recursive: true, force: true }));
    const two = await startApiProcess(env(smtp), { varDir: one.varDir });
    cleanup.push(
      () => two.stop(),
      () => one.stop(),
    );
    const token = await one.login();
    await readers(one, token, 200, 'replica');
    const id = await campaignOf(one, token, 'Replica test');
    // The other replica finds the rows by itself (it polls): both send.
    const done = await eventually(
      async () => (await one.request('GET', `/api/newsletter/campaigns/${id}`, { token })).body,
      (c) => c.state === 'done',
      'the campaign to finish',
      120_000,
    );
    assert.deepEqual([done.total, done.sent, done.failed, done.skipped, done.remaining], [200, 200, 0, 0, 0]);
    // Done means every row has its outcome: the server has answered every mail by now.
    exactlyOnce(smtp, 'replica', 200, /^(New essay|مقالة جديدة): Replica test$/);
    // Mails go one after another on a few connections per process, not one connection each.
    assert.ok(smtp.connections <= 20, `${smtp.connections} connections for 200 mails`);
    await two.stop();
    await one.stop();
  });
});

describe('newsletter sending rate', () => {
  const cleanup: (() => Promise<unknown>)[] = [];
  after(async () => {
    for (const step of cleanup.reverse()) await step().catch(() => undefined);
  });

  it('keeps to NEWSLETTER_RATE_PER_MINUTE across its long-lived connections', async () => {
    await freshDatabase();
    const arrivals: number[] = [];
    const smtp = await startSmtp(async (mail) => {
      if (/Rate test$/.test(mail.subject ?? '')) arrivals.push(Date.now());
    });
    cleanup.push(() => smtp.close());
    // 1200 a minute: one mail every 50 ms, whatever the four connections could do.
    const api = await startApiProcess({ ...env(smtp), NEWSLETTER_RATE_PER_MINUTE: '1200' });
    cleanup.push(
      () => api.stop(),
      () => rm(api.varDir, { recursive: true, force: true }),
    );
    const token = await api.login();
    await readers(api, token, 30, 'rate');
    const id = await campaignOf(api, token, 'Rate test');
    const done = await eventually(
      async () => (await api.request('GET', `/api/newsletter/campaigns/${id}`, { token })).body,
      (c) => c.state === 'done',
      'the campaign to finish',
      120_000,
    );
    assert.deepEqual([done.total, done.sent, done.failed, done.skipped, done.remaining], [30, 30, 0, 0, 0]);
    exactlyOnce(smtp, 'rate', 30, /^(New essay|مقالة جديدة): Rate test$/);
    // 30 mails take 29 intervals of 50 ms at least; the first may arrive late (connecting on a busy machine), so well over half of that.
    const spread = Math.max(...arrivals) - Math.min(...arrivals);
    assert.ok(spread >= 29 * 50 * 0.6, `30 mails within ${spread} ms`);
    await api.stop();
  });
});
