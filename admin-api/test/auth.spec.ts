import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';

import { messageText } from '@portfolio/contract/messages';

import { AdminSession } from '../src/auth/admin-session.entity.js';
import { PasswordResetToken } from '../src/auth/password-reset-token.entity.js';
import { OutgoingMail } from '../src/mail/outgoing-mail.entity.js';
import { ADMIN, type Api, startApi } from './support/harness.js';
import { mailFolder, resetTokenIn } from './support/mail.js';

describe('POST /api/admin/login', () => {
  let api: Api;
  before(async () => (api = await startApi()));
  after(() => api.close());

  it('returns the user and a session id, never the password hash', async () => {
    const res = await api.request('POST', '/api/admin/login', { body: { username: ADMIN.username, password: ADMIN.password } });
    assert.equal(res.status, 200);
    assert.equal(res.body.user.username, ADMIN.username);
    assert.match(res.body.sessionId, /^[A-Za-z0-9_-]{43}$/);
    assert.ok(!res.text.includes('passwordHash'));
    assert.ok(!res.text.includes('argon2'));
  });

  it('answers the same for a wrong password and an unknown user', async () => {
    const wrong = await api.request('POST', '/api/admin/login', { body: { username: ADMIN.username, password: 'nope-nope' } });
    const unknown = await api.request('POST', '/api/admin/login', { body: { username: 'ghost', password: 'nope-nope' } });
    assert.equal(wrong.status, 401);
    assert.deepEqual(wrong.body, { statusCode: 401, message: 'Invalid username or password', messageKey: 'error.invalidCredentials' });
    assert.deepEqual(unknown.body, wrong.body);
  });

  it('gives the specification messages for missing fields', async () => {
    const res = await api.request('POST', '/api/admin/login', { body: { username: '', password: '' } });
    assert.equal(res.status, 400);
    assert.equal(res.body.errors.username, 'Username is required');
    assert.equal(res.body.errors.password, 'Password is required');
    assert.deepEqual(res.body.errorKeys, {
      username: { key: 'validation.usernameRequired' },
      password: { key: 'validation.passwordRequired' },
    });
    const missing = await api.request('POST', '/api/admin/login', { body: {} });
    assert.equal(missing.body.errors.username, 'Username is required');
    assert.equal(missing.body.errors.password, 'Password is required');
  });

  it('stores only a hash of the session token', async () => {
    const token = await api.login();
    const rows = await api.dataSource.getRepository(AdminSession).find();
    assert.ok(rows.length > 0);
    assert.ok(rows.every((r) => r.id !== token && /^[0-9a-f]{64}$/.test(r.id)));
  });
});

describe('login rate limit', () => {
  let api: Api;
  before(async () => (api = await startApi()));
  after(() => api.close());

  it('answers 429 with Retry-After after 5 failures for one account, even with the right password', async () => {
    for (let i = 0; i < 5; i++) {
      const res = await api.request('POST', '/api/admin/login', { body: { username: ADMIN.username, password: `wrong-${i}` } });
      assert.equal(res.status, 401);
    }
    const blocked = await api.request('POST', '/api/admin/login', { body: { username: ADMIN.username, password: ADMIN.password } });
    assert.equal(blocked.status, 429);
    assert.match(blocked.body.message, /^Too many attempts\. Please try again in \d+ minutes?\.$/);
    assert.equal(blocked.body.messageKey, 'error.tooManyAttempts');
    assert.deepEqual(blocked.body.messageParams, { minutes: 15 });
    assert.equal(messageText(blocked.body.messageKey, 'en', blocked.body.messageParams), blocked.body.message);
    assert.ok(Number(blocked.headers.get('retry-after')) > 0);
  });

  it('counts parallel attempts: 12 at once for one account get at most 5 answers other than 429', async () => {
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        api.request('POST', '/api/admin/login', { body: { username: 'parallel', password: `guess-${i}` } }),
      ),
    );
    assert.ok(results.filter((r) => r.status !== 429).length <= 5, results.map((r) => r.status).join(','));
  });

  it('also limits one client trying many accounts', async () => {
    let last = 0;
    for (let i = 0; i < 25 && last !== 429; i++) {
      last = (await api.request('POST', '/api/admin/login', { body: { username: `user${i}`, password: 'whatever' } })).status;
    }
    assert.equal(last, 429);
  });
});

describe('GET /api/admin/me and POST /api/admin/logout', () => {
  let api: Api;
  before(async () => (api = await startApi()));
  after(() => api.close());

  it('returns the signed-in user for a valid token', async () => {
    const token = await api.login();
    const res = await api.request('GET', '/api/admin/me', { token });
    assert.equal(res.status, 200);
    assert.equal(res.body.username, ADMIN.username);
    assert.equal(res.body.email, ADMIN.email);
    assert.equal(res.body.passwordHash, undefined);
  });

  it('answers 401 without a token or with a made-up one', async () => {
    assert.equal((await api.request('GET', '/api/admin/me')).status, 401);
    const res = await api.request('GET', '/api/admin/me', { token: 'x'.repeat(43) });
    assert.equal(res.status, 401);
    assert.equal(res.body.statusCode, 401);
  });

  it('ends the session on logout', async () => {
    const token = await api.login();
    assert.equal((await api.request('POST', '/api/admin/logout', { token })).status, 204);
    assert.equal((await api.request('GET', '/api/admin/me', { token })).status, 401);
    assert.equal((await api.request('POST', '/api/books', { token, body: { title: 'x' } })).status, 401);
  });

  it('refuses an expired session', async () => {
    const token = await api.login();
    await api.dataSource
      .createQueryBuilder()
      .update(AdminSession)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .execute();
    assert.equal((await api.request('GET', '/api/admin/me', { token })).status, 401);
  });
});

describe('POST /api/admin/password', () => {
  let api: Api;
  before(async () => (api = await startApi()));
  after(() => api.close());

  it('gives the specification messages', async () => {
    const token = await api.login();
    const res = await api.request('POST', '/api/admin/password', {
      token,
      body: { currentPassword: '', newPassword: '123', confirmPassword: '' },
    });
    assert.equal(res.status, 400);
    assert.deepEqual(res.body.errors, {
      currentPassword: 'Current password is required',
      newPassword: 'New password must be at least 6 characters',
      confirmPassword: 'Please confirm your password',
    });
    const mismatch = await api.request('POST', '/api/admin/password', {
      token,
      body: { currentPassword: ADMIN.password, newPassword: 'abcdef', confirmPassword: 'abcdeg' },
    });
    assert.deepEqual(mismatch.body.errors, { confirmPassword: "Passwords don't match" });
  });

  it('refuses a wrong current password', async () => {
    const token = await api.login();
    const res = await api.request('POST', '/api/admin/password', {
      token,
      body: { currentPassword: 'not-it', newPassword: 'abcdefg', confirmPassword: 'abcdefg' },
    });
    assert.equal(res.status, 400);
    assert.equal(res.body.errors.currentPassword, 'Current password is incorrect');
  });

  it('changes the password and ends the other sessions, keeping this one', async () => {
    const other = await api.login();
    const token = await api.login();
    const res = await api.request('POST', '/api/admin/password', {
      token,
      body: { currentPassword: ADMIN.password, newPassword: 'brand-new-pass', confirmPassword: 'brand-new-pass' },
    });
    assert.equal(res.status, 200);
    assert.equal((await api.request('GET', '/api/admin/me', { token })).status, 200);
    assert.equal((await api.request('GET', '/api/admin/me', { token: other })).status, 401);
    await api.login(ADMIN.username, 'brand-new-pass');
    const old = await api.request('POST', '/api/admin/login', { body: { username: ADMIN.username, password: ADMIN.password } });
    assert.equal(old.status, 401);
  });
});

describe('forgot and reset password', () => {
  let api: Api;
  let mails: ReturnType<typeof mailFolder>;
  before(async () => {
    api = await startApi();
    mails = mailFolder(api.config.varDir);
  });
  after(() => api.close());

  it('validates the e-mail address', async () => {
    const res = await api.request('POST', '/api/admin/forgot-password', { body: { email: 'not-an-email' } });
    assert.equal(res.status, 400);
    assert.equal(res.body.errors.email, 'Please enter a valid email address');
  });

  it('answers the same for unknown addresses and sends no mail', async () => {
    const known = await api.request('POST', '/api/admin/forgot-password', { body: { email: 'nobody@example.test' } });
    assert.equal(known.status, 200);
    assert.equal(await api.dataSource.getRepository(OutgoingMail).count(), 0, 'nothing queued');
    await assert.rejects(readdir(path.join(api.config.varDir, 'mail')));
  });

  it('validates the reset form with the specification messages', async () => {
    const res = await api.request('POST', '/api/admin/reset-password', { body: { token: '', password: '123', confirmPassword: '' } });
    assert.equal(res.status, 400);
    assert.deepEqual(res.body.errors, {
      token: 'Reset token is required',
      password: 'Password must be at least 6 characters',
      confirmPassword: 'Please confirm your password',
    });
    const mismatch = await api.request('POST', '/api/admin/reset-password', {
      body: { token: 'abc', password: 'abcdef', confirmPassword: 'abcxyz' },
    });
    assert.deepEqual(mismatch.body.errors, { confirmPassword: "Passwords don't match" });
  });

  it('writes a reset link to the mail folder; the token works once and ends all sessions', async () => {
    const session = await api.login();
    const ask = await api.request('POST', '/api/admin/forgot-password', { body: { email: ADMIN.email.toUpperCase() } });
    assert.equal(ask.status, 200);
    const token = resetTokenIn(await mails.next());

    const reset = await api.request('POST', '/api/admin/reset-password', {
      body: { token, password: 'after-reset', confirmPassword: 'after-reset' },
    });
    assert.equal(reset.status, 200);
    assert.equal((await api.request('GET', '/api/admin/me', { token: session })).status, 401);
    await api.login(ADMIN.username, 'after-reset');

    const again = await api.request('POST', '/api/admin/reset-password', {
      body: { token, password: 'second-try', confirmPassword: 'second-try' },
    });
    assert.equal(again.status, 400);
    assert.equal(again.body.message, 'This reset link is invalid or has expired. Please ask for a new one.');
  });

  it('refuses an expired token', async () => {
    await api.request('POST', '/api/admin/forgot-password', { body: { email: ADMIN.email } });
    const token = resetTokenIn(await mails.next());
    await api.dataSource
      .createQueryBuilder()
      .update(PasswordResetToken)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .execute();
    const res = await api.request('POST', '/api/admin/reset-password', {
      body: { token, password: 'abcdefgh', confirmPassword: 'abcdefgh' },
    });
    assert.equal(res.status, 400);
  });
});

describe('reset links end with a new password', () => {
  let api: Api;
  let mails: ReturnType<typeof mailFolder>;
  before(async () => {
    api = await startApi();
    mails = mailFolder(api.config.varDir);
  });
  after(() => api.close());

  it('a password change ends the links asked for before it', async () => {
    const token = await api.login();
    const created = await api.request('POST', '/api/admin/users', {
      token,
      body: { username: 'second', email: 'second@example.test', name: 'Second', password: 'second-pass' },
    });
    assert.equal(created.status, 201, created.text);
    assert.equal((await api.request('POST', '/api/admin/forgot-password', { body: { email: 'second@example.test' } })).status, 200);
    const link = resetTokenIn(await mails.next());
    const session = await api.login('second', 'second-pass');
    const change = await api.request('POST', '/api/admin/password', {
      token: session,
      body: { currentPassword: 'second-pass', newPassword: 'changed-pass', confirmPassword: 'changed-pass' },
    });
    assert.equal(change.status, 200);
    const res = await api.request('POST', '/api/admin/reset-password', {
      body: { token: link, password: 'from-old-link', confirmPassword: 'from-old-link' },
    });
    assert.equal(res.status, 400);
    await api.login('second', 'changed-pass');
  });

  it('a reset by one link ends the other links asked for before it', async () => {
    const links: string[] = [];
    for (let i = 0; i < 3; i++) {
      assert.equal((await api.request('POST', '/api/admin/forgot-password', { body: { email: ADMIN.email } })).status, 200);
      links.push(resetTokenIn(await mails.next()));
    }
    const reset = await api.request('POST', '/api/admin/reset-password', {
      body: { token: links[1], password: 'chosen-once', confirmPassword: 'chosen-once' },
    });
    assert.equal(reset.status, 200);
    for (const token of [links[0], links[2]]) {
      const again = await api.request('POST', '/api/admin/reset-password', {
        body: { token, password: 'chosen-twice', confirmPassword: 'chosen-twice' },
      });
      assert.equal(again.status, 400);
      assert.equal(again.body.message, 'This reset link is invalid or has expired. Please ask for a new one.');
    }
    await api.login(ADMIN.username, 'chosen-once');
  });
});

describe('POST /api/admin/password counts wrong current passwords as failed sign-ins', () => {
  let api: Api;
  before(async () => (api = await startApi()));
  after(() => api.close());

  const change = (token: string, currentPassword: string) =>
    api.request('POST', '/api/admin/password', {
      token,
      body: { currentPassword, newPassword: 'never-set-pass', confirmPassword: 'never-set-pass' },
    });

  it('answers 429 like the login after 5 wrong tries, even for the right password, and the sign-in of that account is closed too', async () => {
    const token = await api.login();
    for (let i = 0; i < 5; i++) {
      const res = await change(token, `guess-${i}`);
      assert.equal(res.status, 400);
      assert.equal(res.body.errors.currentPassword, 'Current password is incorrect');
    }
    const blocked = await change(token, ADMIN.password);
    assert.equal(blocked.status, 429);
    assert.equal(blocked.body.message, 'Too many attempts. Please try again in 15 minutes.');
    assert.equal(blocked.body.messageKey, 'error.tooManyAttempts');
    assert.ok(Number(blocked.headers.get('retry-after')) > 0);
    const login = await api.request('POST', '/api/admin/login', { body: { username: ADMIN.username, password: ADMIN.password } });
    assert.equal(login.status, 429);
    assert.deepEqual({ ...login.body, retryAfter: 0 }, { ...blocked.body, retryAfter: 0 });
    // The password did not change.
    assert.equal((await api.request('GET', '/api/admin/me', { token })).status, 200);
  });
});
