import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

import { AdminRecoveryCode } from '../src/auth/admin-recovery-code.entity.js';
import { AdminSession } from '../src/auth/admin-session.entity.js';
import { AdminTotp } from '../src/auth/admin-totp.entity.js';
import { LoginChallenge } from '../src/auth/login-challenge.entity.js';
import { RateLimiter } from '../src/auth/rate-limiter.js';
import { base32Decode, totpAt } from '../src/auth/totp.js';
import { Clock } from '../src/common/clock.js';
import { ADMIN, type Api, startApi } from './support/harness.js';
import { mailFolder, resetTokenIn } from './support/mail.js';

/** The middle of a 30-second step, so ±1 step is a whole step either side. */
const API_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const T0 = 1_900_000_005_000;
const STEP = 30_000;

const MESSAGES = {
  required: 'Enter the code from your authenticator app to finish signing in.',
  invalid: 'This code is not correct. Check your authenticator app and try again.',
  expired: 'This code has expired. Enter the code your authenticator app shows now.',
  used: 'This code has already been used. Wait for the next code in your authenticator app.',
  recovery: 'This recovery code is not valid or has already been used.',
  challenge: 'This sign-in has expired. Please enter your username and password again.',
};

/** Fixes the API's clock (no waiting for time steps). */
function setClock(api: Api, time: number) {
  api.app.get(Clock).now = () => time;
}

/** Each test of a route starts with a fresh per-account count (the limit itself has its own test). */
const clearAccountLimit = (api: Api, username = ADMIN.username) => api.app.get(RateLimiter).reset(`login:user:${username}`);

const code = (secret: string, time: number) => totpAt(base32Decode(secret), time);

/** Sets up and turns on two-factor sign-in for the admin behind `token`, at time T0. */
async function enable(api: Api, token: string, time = T0) {
  setClock(api, time);
  const setup = await api.request('POST', '/api/admin/two-factor/setup', { token });
  assert.equal(setup.status, 200, setup.text);
  const confirm = await api.request('POST', '/api/admin/two-factor/confirm', { token, body: { code: code(setup.body.secret, time) } });
  assert.equal(confirm.status, 200, confirm.text);
  return { secret: setup.body.secret as string, recoveryCodes: confirm.body.recoveryCodes as string[] };
}

async function passwordStep(api: Api, username = ADMIN.username, password = ADMIN.password) {
  const res = await api.request('POST', '/api/admin/login', { body: { username, password } });
  assert.equal(res.status, 401, res.text);
  assert.equal(res.body.messageKey, 'error.twoFactorRequired');
  return res.body.challenge as string;
}

async function addAdmin(api: Api, token: string, username: string) {
  const res = await api.request('POST', '/api/admin/users', {
    token,
    body: { username, email: `${username}@example.test`, name: `Admin ${username}`, password: 'second-admin-pass' },
  });
  assert.equal(res.status, 201, res.text);
  return res.body.id as number;
}

describe('POST /api/admin/two-factor/setup', () => {
  let api: Api;
  before(async () => (api = await startApi()));
  after(() => api.close());

  it('answers a secret, its otpauth address and a QR code; stores the secret encrypted', async () => {
    const token = await api.login();
    const res = await api.request('POST', '/api/admin/two-factor/setup', { token });
    assert.equal(res.status, 200);
    assert.deepEqual(Object.keys(res.body).sort(), ['otpauthUrl', 'qrSvg', 'secret']);
    assert.match(res.body.secret, /^[A-Z2-7]{32}$/);
    assert.equal(
      res.body.otpauthUrl,
      `otpauth://totp/Portfolio:admin?secret=${res.body.secret}&issuer=Portfolio&algorithm=SHA1&digits=6&period=30`,
    );
    assert.match(res.body.qrSvg, /^<svg[^>]*>[\s\S]*<\/svg>$/);
    const [row] = await api.dataSource.getRepository(AdminTotp).find();
    assert.ok(row.totpSecret.startsWith('v1.'));
    assert.ok(!row.totpSecret.includes(res.body.secret));
    assert.ok(!row.totpSecret.includes(base32Decode(res.body.secret).toString('base64url')));
    const status = await api.request('GET', '/api/admin/two-factor', { token });
    assert.deepEqual(status.body, { enabled: false, enabledAt: null, pendingSetup: true, recoveryCodesLeft: 0 });
  });

  it('needs a session', async () => {
    const res = await api.request('POST', '/api/admin/two-factor/setup');
    assert.equal(res.status, 401);
  });
});

describe('POST /api/admin/two-factor/confirm', () => {
  let api: Api;
  let token: string;
  before(async () => {
    api = await startApi();
    token = await api.login();
  });
  after(() => api.close());

  it('refuses a missing, wrong or expired code and stays off', async () => {
    setClock(api, T0);
    const missing = await api.request('POST', '/api/admin/two-factor/confirm', { token, body: {} });
    assert.equal(missing.status, 400);
    assert.equal(missing.body.errors.code, 'Enter the 6-digit code from your authenticator app');
    const notStarted = await api.request('POST', '/api/admin/two-factor/confirm', { token, body: { code: '123456' } });
    assert.equal(notStarted.status, 400);
    assert.equal(notStarted.body.messageKey, 'error.twoFactorNotStarted');

    const setup = await api.request('POST', '/api/admin/two-factor/setup', { token });
    const right = code(setup.body.secret, T0);
    const wrong = right === '000000' ? '000001' : '000000';
    const bad = await api.request('POST', '/api/admin/two-factor/confirm', { token, body: { code: wrong } });
    assert.equal(bad.status, 400);
    assert.deepEqual(bad.body.errors, { code: MESSAGES.invalid });
    assert.deepEqual(bad.body.errorKeys, { code: { key: 'error.twoFactorCodeInvalid' } });
    const old = await api.request('POST', '/api/admin/two-factor/confirm', {
      token,
      body: { code: code(setup.body.secret, T0 - 3 * STEP) },
    });
    assert.equal(old.status, 400);
    assert.equal(old.body.errors.code, MESSAGES.expired);
    assert.equal((await api.request('GET', '/api/admin/two-factor', { token })).body.enabled, false);
  });

  it('turns it on with a current code and answers 10 recovery codes, of which only hashes are kept', async () => {
    setClock(api, T0);
    const setup = await api.request('POST', '/api/admin/two-factor/setup', { token });
    const res = await api.request('POST', '/api/admin/two-factor/confirm', { token, body: { code: code(setup.body.secret, T0) } });
    assert.equal(res.status, 200);
    assert.equal(res.body.recoveryCodes.length, 10);
    for (const c of res.body.recoveryCodes) assert.match(c, /^[a-z2-9]{4}(-[a-z2-9]{4}){3}$/);
    const stored = await api.dataSource.getRepository(AdminRecoveryCode).find();
    assert.equal(stored.length, 10);
    const dump = JSON.stringify(stored);
    for (const c of res.body.recoveryCodes) assert.ok(!dump.includes(c) && !dump.includes(c.replaceAll('-', '')));
    const status = await api.request('GET', '/api/admin/two-factor', { token });
    assert.equal(status.body.enabled, true);
    assert.equal(status.body.pendingSetup, false);
    assert.equal(status.body.recoveryCodesLeft, 10);
    assert.ok(!Number.isNaN(Date.parse(status.body.enabledAt)));

    const again = await api.request('POST', '/api/admin/two-factor/setup', { token });
    assert.equal(again.status, 409);
    assert.equal(again.body.message, 'Two-factor sign-in is already on. Turn it off first to set it up again.');
  });
});

describe('POST /api/admin/login (two steps for admins with two-factor sign-in)', () => {
  let api: Api;
  let secret: string;
  let token: string;
  before(async () => {
    api = await startApi();
    token = await api.login();
    ({ secret } = await enable(api, token));
  });
  after(() => api.close());

  it('keeps the answer of admins without it exactly {user, sessionId}', async () => {
    const id = await addAdmin(api, token, 'plain');
    const res = await api.request('POST', '/api/admin/login', { body: { username: 'plain', password: 'second-admin-pass' } });
    assert.equal(res.status, 200);
    assert.deepEqual(Object.keys(res.body).sort(), ['sessionId', 'user']);
    assert.equal(res.body.user.id, id);
  });

  it('answers the password step with a challenge and no session', async () => {
    const sessionsBefore = await api.dataSource.getRepository(AdminSession).count();
    const res = await api.request('POST', '/api/admin/login', { body: { username: ADMIN.username, password: ADMIN.password } });
    assert.equal(res.status, 401);
    assert.equal(res.body.statusCode, 401);
    assert.equal(res.body.message, MESSAGES.required);
    assert.equal(res.body.messageKey, 'error.twoFactorRequired');
    assert.match(res.body.challenge, /^[A-Za-z0-9_-]{43}$/);
    assert.ok(Date.parse(res.body.challengeExpiresAt) > Date.now());
    assert.equal(res.body.sessionId, undefined);
    assert.equal(res.body.user, undefined);
    assert.equal(await api.dataSource.getRepository(AdminSession).count(), sessionsBefore);
    const stored = await api.dataSource.getRepository(LoginChallenge).find();
    assert.ok(stored.every((row) => row.id !== res.body.challenge));
  });

  it('still answers a wrong password as before', async () => {
    const res = await api.request('POST', '/api/admin/login', { body: { username: ADMIN.username, password: 'not-the-password' } });
    assert.deepEqual(res.body, { statusCode: 401, message: 'Invalid username or password', messageKey: 'error.invalidCredentials' });
  });

  it('documents both steps in OpenAPI', async () => {
    const doc = (await api.request('GET', '/api/docs-json')).body;
    assert.ok(doc.paths['/api/admin/login/totp'].post);
    assert.deepEqual(doc.paths['/api/admin/login'].post.responses['200'].content['application/json'].schema, {
      $ref: '#/components/schemas/LoginResponse',
    });
    assert.ok(JSON.stringify(doc.paths['/api/admin/login'].post.responses['401']).includes('TwoFactorRequiredBody'));
    for (const name of ['TotpLoginDto', 'TwoFactorStatus', 'TwoFactorSetup', 'RecoveryCodesResponse', 'TwoFactorRequiredBody']) {
      assert.ok(doc.components.schemas[name], name);
    }
    for (const route of [
      '/api/admin/two-factor',
      '/api/admin/two-factor/setup',
      '/api/admin/two-factor/confirm',
      '/api/admin/two-factor/disable',
      '/api/admin/two-factor/recovery-codes',
      '/api/admin/users/{id}/two-factor',
    ]) {
      assert.ok(doc.paths[route], route);
    }
  });

  describe('POST /api/admin/login/totp', () => {
    it('gives the session for the challenge and a current code', async () => {
      setClock(api, T0 + 2 * STEP);
      const challenge = await passwordStep(api);
      const res = await api.request('POST', '/api/admin/login/totp', { body: { challenge, code: code(secret, T0 + 2 * STEP) } });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(Object.keys(res.body).sort(), ['sessionId', 'user']);
      assert.equal(res.body.user.username, ADMIN.username);
      assert.equal((await api.request('GET', '/api/admin/me', { token: res.body.sessionId })).status, 200);
      const reuseChallenge = await api.request('POST', '/api/admin/login/totp', { body: { challenge, code: code(secret, T0 + 3 * STEP) } });
      assert.equal(reuseChallenge.status, 401);
      assert.equal(reuseChallenge.body.message, MESSAGES.challenge);
    });

    it('refuses the same code twice (replay), even with a new challenge', async () => {
      await clearAccountLimit(api);
      setClock(api, T0 + 4 * STEP);
      const now = code(secret, T0 + 4 * STEP);
      const first = await api.request('POST', '/api/admin/login/totp', { body: { challenge: await passwordStep(api), code: now } });
      assert.equal(first.status, 200);
      const second = await api.request('POST', '/api/admin/login/totp', { body: { challenge: await passwordStep(api), code: now } });
      assert.equal(second.status, 401);
      assert.equal(second.body.message, MESSAGES.used);
      assert.deepEqual(second.body.errorKeys, { code: { key: 'error.twoFactorCodeUsed' } });
      // The code of the step before is older than the one used: refused too.
      const previous = await api.request('POST', '/api/admin/login/totp', {
        body: { challenge: await passwordStep(api), code: code(secret, T0 + 3 * STEP) },
      });
      assert.equal(previous.body.message, MESSAGES.used);
    });

    it('refuses an expired code and a wrong one with their messages', async () => {
      await clearAccountLimit(api);
      setClock(api, T0 + 20 * STEP);
      const expired = await api.request('POST', '/api/admin/login/totp', {
        body: { challenge: await passwordStep(api), code: code(secret, T0 + 17 * STEP) },
      });
      assert.equal(expired.status, 401);
      assert.deepEqual(expired.body.errors, { code: MESSAGES.expired });
      const right = code(secret, T0 + 20 * STEP);
      const wrong = right === '999999' ? '999998' : '999999';
      const bad = await api.request('POST', '/api/admin/login/totp', { body: { challenge: await passwordStep(api), code: wrong } });
      assert.equal(bad.status, 401);
      assert.deepEqual(bad.body.errors, { code: MESSAGES.invalid });
      assert.equal(bad.body.messageKey, 'error.twoFactorCodeInvalid');
      await clearAccountLimit(api);
      const ok = await api.request('POST', '/api/admin/login/totp', { body: { challenge: await passwordStep(api), code: right } });
      assert.equal(ok.status, 200);
    });

    it('refuses an unknown or expired challenge', async () => {
      await clearAccountLimit(api);
      setClock(api, T0 + 30 * STEP);
      const unknown = await api.request('POST', '/api/admin/login/totp', {
        body: { challenge: 'x'.repeat(43), code: code(secret, T0 + 30 * STEP) },
      });
      assert.equal(unknown.status, 401);
      assert.deepEqual(unknown.body, { statusCode: 401, message: MESSAGES.challenge, messageKey: 'error.twoFactorChallengeInvalid' });
      const challenge = await passwordStep(api);
      await api.dataSource
        .createQueryBuilder()
        .update(LoginChallenge)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .execute();
      const late = await api.request('POST', '/api/admin/login/totp', { body: { challenge, code: code(secret, T0 + 30 * STEP) } });
      assert.equal(late.body.message, MESSAGES.challenge);
      const empty = await api.request('POST', '/api/admin/login/totp', { body: { challenge: '', code: '' } });
      assert.equal(empty.status, 400);
      assert.equal(empty.body.errors.code, 'Enter the 6-digit code from your authenticator app');
    });
  });
});

describe('recovery codes', () => {
  let api: Api;
  let recoveryCodes: string[];
  let secret: string;
  before(async () => {
    api = await startApi();
    ({ recoveryCodes, secret } = await enable(api, await api.login()));
  });
  after(() => api.close());

  it('sign in once each, typed in any case and without dashes', async () => {
    const [first] = recoveryCodes;
    const typed = first.toUpperCase().replaceAll('-', '');
    const res = await api.request('POST', '/api/admin/login/totp', { body: { challenge: await passwordStep(api), code: typed } });
    assert.equal(res.status, 200, res.text);
    const again = await api.request('POST', '/api/admin/login/totp', { body: { challenge: await passwordStep(api), code: first } });
    assert.equal(again.status, 401);
    assert.deepEqual(again.body.errors, { code: MESSAGES.recovery });
    const token = (
      await api.request('POST', '/api/admin/login/totp', { body: { challenge: await passwordStep(api), code: recoveryCodes[1] } })
    ).body.sessionId;
    const status = await api.request('GET', '/api/admin/two-factor', { token });
    assert.equal(status.body.recoveryCodesLeft, 8);
  });

  it('POST /api/admin/two-factor/recovery-codes gives 10 new ones and the old ones stop working', async () => {
    setClock(api, T0 + 5 * STEP);
    const token = (
      await api.request('POST', '/api/admin/login/totp', { body: { challenge: await passwordStep(api), code: recoveryCodes[2] } })
    ).body.sessionId;
    const none = await api.request('POST', '/api/admin/two-factor/recovery-codes', { token, body: {} });
    assert.equal(none.status, 400);
    assert.equal(none.body.errors.code, 'Enter a current code from your authenticator app, or your password');
    const res = await api.request('POST', '/api/admin/two-factor/recovery-codes', { token, body: { code: code(secret, T0 + 5 * STEP) } });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.recoveryCodes.length, 10);
    const old = await api.request('POST', '/api/admin/login/totp', {
      body: { challenge: await passwordStep(api), code: recoveryCodes[3] },
    });
    assert.equal(old.body.message, MESSAGES.recovery);
    const fresh = await api.request('POST', '/api/admin/login/totp', {
      body: { challenge: await passwordStep(api), code: res.body.recoveryCodes[0] },
    });
    assert.equal(fresh.status, 200);
  });
});

describe('rate limits cover the code step', () => {
  let api: Api;
  let secret: string;
  before(async () => {
    api = await startApi();
    ({ secret } = await enable(api, await api.login()));
  });
  after(() => api.close());

  it('counts both steps against the account: after 5 attempts even the right code is refused with 429', async () => {
    setClock(api, T0 + STEP);
    const right = code(secret, T0 + STEP);
    const wrong = right === '123456' ? '654321' : '123456';
    const challenge = await passwordStep(api); // attempt 1
    for (let i = 0; i < 4; i++) {
      const res = await api.request('POST', '/api/admin/login/totp', { body: { challenge, code: wrong } }); // attempts 2 to 5
      assert.equal(res.status, 401);
    }
    const blocked = await api.request('POST', '/api/admin/login/totp', { body: { challenge, code: right } });
    assert.equal(blocked.status, 429);
    assert.equal(blocked.body.messageKey, 'error.tooManyAttempts');
    assert.ok(Number(blocked.headers.get('retry-after')) > 0);
    // A right password does not open the account again.
    const password = await api.request('POST', '/api/admin/login', { body: { username: ADMIN.username, password: ADMIN.password } });
    assert.equal(password.status, 429);
  });
});

describe('password reset does not bypass two-factor sign-in', () => {
  let api: Api;
  before(async () => {
    api = await startApi();
    await enable(api, await api.login());
  });
  after(() => api.close());

  it('asks for the code after a reset by e-mail; a sign-in begun with the old password ends', async () => {
    const begun = await passwordStep(api);
    await api.request('POST', '/api/admin/forgot-password', { body: { email: ADMIN.email } });
    const token = resetTokenIn(await mailFolder(api.config.varDir).next());
    const reset = await api.request('POST', '/api/admin/reset-password', {
      body: { token, password: 'after-reset-pass', confirmPassword: 'after-reset-pass' },
    });
    assert.equal(reset.status, 200);
    const res = await api.request('POST', '/api/admin/login', { body: { username: ADMIN.username, password: 'after-reset-pass' } });
    assert.equal(res.status, 401);
    assert.equal(res.body.messageKey, 'error.twoFactorRequired');
    assert.equal(res.body.sessionId, undefined);
    const old = await api.request('POST', '/api/admin/login/totp', { body: { challenge: begun, code: '123456' } });
    assert.equal(old.status, 401);
    assert.equal(old.body.message, MESSAGES.challenge);
  });
});

describe('DELETE /api/admin/users/{id}/two-factor', () => {
  let api: Api;
  let adminToken: string;
  let ranaId: number;
  before(async () => {
    api = await startApi();
    adminToken = await api.login();
    ranaId = await addAdmin(api, adminToken, 'rana');
    await enable(api, await api.login('rana', 'second-admin-pass'));
  });
  after(() => api.close());

  it('the users list says who has two-factor sign-in', async () => {
    const list = await api.request('GET', '/api/admin/users', { token: adminToken });
    const rana = list.body.find((u: { id: number }) => u.id === ranaId);
    assert.equal(rana.twoFactorEnabled, true);
  });

  it('lets another admin turn it off; that admin then signs in with the password alone', async () => {
    const res = await api.request('DELETE', `/api/admin/users/${ranaId}/two-factor`, { token: adminToken });
    assert.equal(res.status, 204);
    const login = await api.request('POST', '/api/admin/login', { body: { username: 'rana', password: 'second-admin-pass' } });
    assert.equal(login.status, 200);
    const list = await api.request('GET', '/api/admin/users', { token: adminToken });
    assert.equal(list.body.find((u: { id: number }) => u.id === ranaId).twoFactorEnabled, false);
    assert.equal(await api.dataSource.getRepository(AdminRecoveryCode).countBy({ userId: ranaId }), 0);
    assert.equal(await api.dataSource.getRepository(AdminTotp).countBy({ userId: ranaId }), 0);
  });

  it('refuses oneself, an admin without it, an unknown user and no session', async () => {
    const me = (await api.request('GET', '/api/admin/me', { token: adminToken })).body;
    const self = await api.request('DELETE', `/api/admin/users/${me.id}/two-factor`, { token: adminToken });
    assert.equal(self.status, 400);
    assert.equal(self.body.message, 'Turn your own two-factor sign-in off from the Two-factor sign-in screen.');
    const off = await api.request('DELETE', `/api/admin/users/${ranaId}/two-factor`, { token: adminToken });
    assert.equal(off.status, 409);
    assert.equal(off.body.message, 'Two-factor sign-in is not on for this account.');
    const unknown = await api.request('DELETE', '/api/admin/users/9999/two-factor', { token: adminToken });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.message, 'User not found');
    assert.equal((await api.request('DELETE', `/api/admin/users/${ranaId}/two-factor`)).status, 401);
  });
});

describe("the main administrator's two-factor sign-in", () => {
  it('no other admin turns it off; the operator can (npm run two-factor:off), and the password alone signs in again', async () => {
    let api = await startApi();
    try {
      const adminToken = await api.login();
      const superId = (await api.request('GET', '/api/admin/me', { token: adminToken })).body.id as number;
      await addAdmin(api, adminToken, 'rana');
      await enable(api, adminToken);
      const ranaToken = await api.login('rana', 'second-admin-pass');
      const refused = await api.request('DELETE', `/api/admin/users/${superId}/two-factor`, { token: ranaToken });
      assert.equal(refused.status, 403);
      assert.equal(refused.body.messageKey, 'error.superadminTwoFactor');
      assert.equal(await api.dataSource.getRepository(AdminTotp).countBy({ userId: superId }), 1, 'still on');
      await passwordStep(api);

      // Phone and recovery codes lost: the operator, on the server, with the API's settings.
      const cli = (args: string[]) =>
        spawnSync(process.execPath, [path.join(API_ROOT, 'dist/src/auth/cli.js'), ...args], {
          env: {
            PATH: process.env.PATH ?? '',
            VAR_DIR: api.config.varDir,
            ...(process.env.TEST_DB === 'mysql' ? { DATABASE_URL: process.env.TEST_MYSQL_URL! } : {}),
          },
          encoding: 'utf8',
        });
      const unknown = cli(['nobody']);
      assert.equal(unknown.status, 1);
      assert.equal(unknown.stderr.trim(), 'There is no admin named "nobody".');
      const done = cli([ADMIN.username]);
      assert.equal(done.status, 0, done.stderr);
      assert.match(done.stdout, /Two-factor sign-in of "admin" is off/);
      assert.equal(cli([ADMIN.username]).status, 1, 'nothing left to turn off');
      await api.close({ keepData: true });
      api = await startApi({}, { varDir: api.config.varDir, keepData: true });
      assert.equal(
        (await api.request('POST', '/api/admin/login', { body: { username: ADMIN.username, password: ADMIN.password } })).status,
        200,
      );
    } finally {
      await api.close();
    }
  });
});

describe('POST /api/admin/two-factor/disable', () => {
  let api: Api;
  let secret: string;
  let token: string;
  before(async () => {
    api = await startApi();
    token = await api.login();
    ({ secret } = await enable(api, token));
  });
  after(() => api.close());

  it('needs a current code or the right password', async () => {
    const none = await api.request('POST', '/api/admin/two-factor/disable', { token, body: {} });
    assert.equal(none.status, 400);
    assert.deepEqual(none.body.errorKeys, { code: { key: 'validation.codeOrPasswordRequired' } });
    const wrong = await api.request('POST', '/api/admin/two-factor/disable', { token, body: { password: 'not-it-at-all' } });
    assert.equal(wrong.status, 400);
    assert.deepEqual(wrong.body.errors, { password: 'Current password is incorrect' });
    setClock(api, T0);
    const used = await api.request('POST', '/api/admin/two-factor/disable', { token, body: { code: code(secret, T0) } });
    assert.equal(used.status, 400);
    assert.deepEqual(used.body.errors, { code: MESSAGES.used });
  });

  it('turns it off with the password; the next login gives a session at once', async () => {
    const res = await api.request('POST', '/api/admin/two-factor/disable', { token, body: { password: ADMIN.password } });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { message: 'Two-factor sign-in is off.', messageKey: 'notice.twoFactorDisabled' });
    assert.equal(
      (await api.request('POST', '/api/admin/login', { body: { username: ADMIN.username, password: ADMIN.password } })).status,
      200,
    );
    const again = await api.request('POST', '/api/admin/two-factor/disable', { token, body: { password: ADMIN.password } });
    assert.equal(again.status, 409);
  });

  it('turns it off with a current code', async () => {
    ({ secret } = await enable(api, token, T0 + 10 * STEP));
    setClock(api, T0 + 11 * STEP);
    const res = await api.request('POST', '/api/admin/two-factor/disable', { token, body: { code: code(secret, T0 + 11 * STEP) } });
    assert.equal(res.status, 200);
  });
});

describe('two-factor secrets never leave the server after setup', () => {
  let api: Api;
  before(async () => (api = await startApi()));
  after(() => api.close());

  it('appear in no answer but the setup one', async () => {
    let token = await api.login();
    const { secret, recoveryCodes } = await enable(api, token);
    setClock(api, T0 + STEP);
    const challenge = await passwordStep(api);
    const texts: string[] = [];
    const login = await api.request('POST', '/api/admin/login/totp', { body: { challenge, code: code(secret, T0 + STEP) } });
    token = login.body.sessionId;
    texts.push(login.text);
    for (const route of ['/api/admin/me', '/api/admin/two-factor', '/api/admin/users', '/api/docs-json']) {
      texts.push((await api.request('GET', route, { token })).text);
    }
    const raw = base32Decode(secret);
    for (const text of texts) {
      assert.ok(!text.includes(secret), 'base32 secret');
      assert.ok(!text.includes(raw.toString('hex')) && !text.includes(raw.toString('base64')), 'raw secret');
      assert.ok(!/totpSecret|codeHash/.test(text), 'secret columns');
      for (const c of recoveryCodes) assert.ok(!text.includes(c), 'recovery code');
    }
  });
});
