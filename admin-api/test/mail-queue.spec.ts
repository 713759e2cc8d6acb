import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';

import type { LoggerService } from '@nestjs/common';

import { APP_CONFIG } from '../src/config/config.js';
import { Db } from '../src/database/db.service.js';
import { MailQueue } from '../src/mail/mail-queue.js';
import { MailTransport } from '../src/mail/mail-transport.js';
import { OutgoingMail } from '../src/mail/outgoing-mail.entity.js';
import { ADMIN, type Api, type ApiProcess, startApi, startApiProcess, TEST_DB } from './support/harness.js';
import { resetTokenIn, type SmtpServer, startSmtp } from './support/mail.js';

class RecordingLogger implements LoggerService {
  lines: string[] = [];
  log(message: unknown, context?: string) {
    this.lines.push(`${context ?? ''} ${String(message)}`);
  }
  error(message: unknown, context?: string) {
    this.log(message, context);
  }
  warn(message: unknown, context?: string) {
    this.log(message, context);
  }
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(condition: () => Promise<boolean>, what: string, ms = 30_000) {
  for (const deadline = Date.now() + ms; Date.now() < deadline; await delay(25)) {
    if (await condition()) return;
  }
  throw new Error(`timed out waiting for ${what}`);
}

const queued = (api: Api) => api.dataSource.getRepository(OutgoingMail).find();
const forgot = (api: Pick<Api, 'request'>, email: string) => api.request('POST', '/api/admin/forgot-password', { body: { email } });

describe('POST /api/admin/forgot-password with a mail server that takes its time', () => {
  const logger = new RecordingLogger();
  let api: Api;
  let smtp: SmtpServer;
  let answered!: () => void;
  const bothAnswered = new Promise<void>((resolve) => (answered = resolve));
  before(async () => {
    // The server keeps each message until the test has both answers, then takes 0.4 s more. (At most
    // 10 s: an API that waits for the server then fails the test instead of hanging it.)
    smtp = await startSmtp(async () => {
      await Promise.race([bothAnswered, sleep(10_000, undefined, { ref: false })]);
      await delay(400);
    });
    api = await startApi({ SMTP_URL: smtp.url }, { logger });
  });
  after(async () => {
    await api.close();
    await smtp.close();
  });

  it("answers for an admin's address as for an unknown one, before the mail server has accepted anything", async () => {
    const unknown = await forgot(api, 'nobody@example.test');
    const admin = await forgot(api, ADMIN.email);
    assert.equal(smtp.accepted.length, 0, 'the answer waited for the mail server');
    answered();
    assert.equal(admin.status, 200);
    assert.deepEqual(admin.body, unknown.body);
    assert.equal(admin.body.message, 'If this address belongs to an admin, a reset link has been sent to it.');
    await smtp.until(() => smtp.accepted.length === 1, 'the reset mail');
    const [mail] = smtp.accepted;
    assert.equal(mail.subject, 'Reset your admin password');
    assert.deepEqual(mail.to && !Array.isArray(mail.to) ? mail.to.value.map((a) => a.address) : null, [ADMIN.email]);
    assert.ok(mail.text?.includes(`${api.config.publicUrl}/#reset-password=`));
  });

  it('keeps the token out of the logs, and out of every table once the mail is sent; the link works', async () => {
    const token = resetTokenIn(smtp.accepted[0].text!);
    await until(async () => (await queued(api)).length === 0, 'the sent mail to leave the queue');
    const tables = (await api.dataSource.query(
      TEST_DB === 'mysql'
        ? 'SELECT table_name AS name FROM information_schema.tables WHERE table_schema = DATABASE()'
        : "SELECT name FROM sqlite_master WHERE type = 'table'",
    )) as { name: string }[];
    assert.ok(tables.some((t) => t.name === 'mail_queue'));
    for (const { name } of tables) {
      const rows = await api.dataSource.query(`SELECT * FROM ${api.dataSource.driver.escape(name)}`);
      assert.ok(!JSON.stringify(rows).includes(token), `the token is in ${name}`);
    }
    assert.ok(
      logger.lines.some((l) => l.includes('Sent mail #')),
      logger.lines.join('\n'),
    );
    assert.ok(!logger.lines.join('\n').includes(token), 'the token is in the logs');
    const reset = await api.request('POST', '/api/admin/reset-password', {
      body: { token, password: 'from-the-mail', confirmPassword: 'from-the-mail' },
    });
    assert.equal(reset.status, 200);
  });
});

describe('mail delivery failures', () => {
  let api: Api;
  let smtp: SmtpServer;
  before(async () => {
    smtp = await startSmtp(async (mail) => {
      const to = mail.to && !Array.isArray(mail.to) ? mail.to.text : '';
      if (to.includes('bounce@')) return { code: 550, message: 'No such mailbox here' };
      const earlier = smtp.received.filter((m) => m.to && !Array.isArray(m.to) && m.to.text === to).length;
      if (to.includes('flaky@') && earlier === 1) return { code: 451, message: 'Busy, try again later' };
    });
    api = await startApi({ SMTP_URL: smtp.url });
    const token = await api.login();
    for (const name of ['flaky', 'bounce']) {
      const res = await api.request('POST', '/api/admin/users', {
        token,
        body: { username: name, email: `${name}@example.test`, name, password: 'a-password' },
      });
      assert.equal(res.status, 201, res.text);
    }
  });
  after(async () => {
    await api.close();
    await smtp.close();
  });

  it('tries again after a temporary refusal (451) and delivers once', async () => {
    assert.equal((await forgot(api, 'flaky@example.test')).status, 200);
    await smtp.until(() => smtp.accepted.length === 1, 'the second try');
    assert.equal(smtp.received.length, 2);
    assert.equal(smtp.received[0].text, smtp.accepted[0].text);
    await until(async () => (await queued(api)).length === 0, 'the sent mail to leave the queue');
  });

  it('records a permanent refusal (550) with its reason, without the link, and stops trying', async () => {
    assert.equal((await forgot(api, 'bounce@example.test')).status, 200);
    await until(async () => (await queued(api)).some((m) => m.failedAt !== null), 'the refusal to be recorded');
    const [failed] = await queued(api);
    assert.equal(failed.recipient, 'bounce@example.test');
    assert.equal(failed.subject, 'Reset your admin password');
    assert.equal(failed.body, '');
    assert.equal(failed.attempts, 1);
    assert.equal(failed.claimedBy, null);
    assert.match(failed.lastError!, /550 No such mailbox here/);
    assert.equal(smtp.received.filter((m) => m.text?.includes('Hello bounce')).length, 1);
  });
});

describe('the mail queue across a crash and across replicas', () => {
  it('sends a mail whose API was killed (SIGKILL) before the server accepted it after a restart, exactly once', async () => {
    // eslint-disable-next-line prefer-const -- assigned once the SMTP server that kills it exists
    let proc: ApiProcess;
    let crashed!: () => void;
    const crash = new Promise<void>((resolve) => (crashed = resolve));
    const smtp = await startSmtp(async (_mail, index) => {
      if (index > 0) return;
      // The first message has reached the server but is not accepted yet: the API dies now.
      await proc.kill();
      crashed();
      return { code: 421, message: 'Closing' };
    });
    const env = { SMTP_URL: smtp.url, MAIL_TIMEOUT_MS: '1000' };
    const fresh = await startApi();
    await fresh.close({ keepData: true });
    const varDir = fresh.config.varDir;
    proc = await startApiProcess(env, { varDir });
    let restarted: Api | undefined;
    try {
      assert.equal((await forgot(proc, ADMIN.email)).status, 200);
      await crash;
      assert.equal(smtp.accepted.length, 0);

      restarted = await startApi(env, { varDir, keepData: true });
      await smtp.until(() => smtp.accepted.length === 1, 'the mail after the restart');
      await until(async () => (await queued(restarted!)).length === 0, 'the sent mail to leave the queue');
      assert.equal(smtp.accepted.length, 1);
      assert.equal(smtp.received.length, 2);
      const token = resetTokenIn(smtp.accepted[0].text!);
      assert.equal(token, resetTokenIn(smtp.received[0].text!));
      const reset = await restarted.request('POST', '/api/admin/reset-password', {
        body: { token, password: 'after-the-crash', confirmPassword: 'after-the-crash' },
      });
      assert.equal(reset.status, 200);
    } finally {
      await proc.kill();
      await restarted?.close();
      await smtp.close();
    }
  });

  it('of two senders reaching for the same mail at once, exactly one gets it', async () => {
    const api = await startApi();
    try {
      const db = api.app.get(Db);
      const rivals = [0, 1].map(() => new MailQueue(db, api.app.get(MailTransport), api.app.get(APP_CONFIG)));
      // Queued without waking anyone: only the two rivals look.
      await db.write((m) => rivals[0].enqueue(m, { to: 'someone@example.test', subject: 'One mail', text: 'Hello' }));
      const claims = await Promise.all(rivals.map((q) => q.claimNext()));
      assert.equal(claims.filter(Boolean).length, 1, JSON.stringify(claims));
      assert.equal((await queued(api))[0].attempts, 1);
    } finally {
      await api.close();
    }
  });

  it('two replicas send each queued mail exactly once', async () => {
    const smtp = await startSmtp();
    const a = await startApi({ SMTP_URL: smtp.url });
    const b = await startApiProcess({ SMTP_URL: smtp.url }, { varDir: a.config.varDir });
    try {
      const token = await a.login();
      const addresses = Array.from({ length: 6 }, (_, i) => `reader${i}@example.test`);
      for (const [i, email] of addresses.entries()) {
        const res = await a.request('POST', '/api/admin/users', {
          token,
          body: { username: `reader${i}`, email, name: `Reader ${i}`, password: 'a-password' },
        });
        assert.equal(res.status, 201, res.text);
      }
      const answers = await Promise.all(addresses.map((email, i) => forgot(i % 2 ? a : b, email)));
      assert.deepEqual(
        answers.map((r) => r.status),
        Array(6).fill(200),
      );
      await smtp.until(() => smtp.accepted.length >= 6, 'six mails');
      await until(async () => (await queued(a)).length === 0, 'the queue to empty');
      // A second sender of the same row would still be talking to the server: stopping waits for it.
      await b.stop();
      const sentTo = smtp.received.map((m) => (m.to && !Array.isArray(m.to) ? m.to.text : '')).sort();
      assert.deepEqual(sentTo, [...addresses].sort());
    } finally {
      await b.stop();
      await a.close();
      await smtp.close();
    }
  });
});
