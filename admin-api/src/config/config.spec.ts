import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';

import { ConfigError, loadConfig } from './config.js';

describe('loadConfig', () => {
  it('gives the embedded defaults', () => {
    const config = loadConfig({}, '/srv/app');
    assert.equal(config.port, 3000);
    assert.equal(config.host, '127.0.0.1');
    assert.equal(config.varDir, '/srv/app/var');
    assert.deepEqual(config.database, { kind: 'sqlite', file: path.join('/srv/app/var', 'data', 'portfolio.sqlite') });
    assert.equal(config.admin.username, 'admin');
    assert.equal(config.admin.password, null);
    assert.equal(config.seedDemo, true);
  });

  it('reads a MySQL URL, decoding an encoded password', () => {
    const config = loadConfig({ DATABASE_URL: 'mysql://u:p%2Fw%23x%40y@db:3307/portfolio' });
    assert.deepEqual(config.database, { kind: 'mysql', host: 'db', port: 3307, user: 'u', password: 'p/w#x@y', database: 'portfolio' });
  });

  it('reads the database from separate variables, the password exactly as given (also from a file)', () => {
    const password = 'k/8+Qz#a@b=';
    const direct = loadConfig({
      DATABASE_HOST: 'mysql',
      DATABASE_USER: 'portfolio',
      DATABASE_PASSWORD: password,
      DATABASE_NAME: 'portfolio',
    });
    assert.deepEqual(direct.database, { kind: 'mysql', host: 'mysql', port: 3306, user: 'portfolio', password, database: 'portfolio' });
    const dir = mkdtempSync(path.join(os.tmpdir(), 'config-'));
    writeFileSync(path.join(dir, 'db-password'), `${password}\n`);
    const fromFile = loadConfig({
      DATABASE_HOST: 'mysql',
      DATABASE_USER: 'portfolio',
      DATABASE_PASSWORD_FILE: path.join(dir, 'db-password'),
      DATABASE_NAME: 'portfolio',
    });
    assert.deepEqual(fromFile.database, direct.database);
  });

  it('says which database variables are missing or clash', () => {
    assert.throws(() => loadConfig({ DATABASE_HOST: 'mysql' }), /DATABASE_USER, DATABASE_NAME must be set too/);
    assert.throws(
      () => loadConfig({ DATABASE_URL: 'mysql://u:p@db/x', DATABASE_HOST: 'mysql' }),
      /DATABASE_URL and DATABASE_HOST are both set/,
    );
    assert.throws(
      () => loadConfig({ ADMIN_PASSWORD_FILE: '/nonexistent/secret' }),
      /ADMIN_PASSWORD_FILE names a file that cannot be read \(ENOENT/,
    );
  });

  it('trusts exactly the proxies it is told about, never every X-Forwarded-For', () => {
    assert.equal(loadConfig({}).trustProxy, false);
    assert.equal(loadConfig({ TRUST_PROXY: '1' }).trustProxy, 1);
    assert.deepEqual(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1,::1' }).trustProxy, ['10.0.0.0/8', '127.0.0.1', '::1']);
    assert.throws(() => loadConfig({ TRUST_PROXY: 'true' }), /TRUST_PROXY=true would believe any X-Forwarded-For/);
    assert.throws(() => loadConfig({ TRUST_PROXY: '10.0.0.0/40' }), /not valid: 10.0.0.0\/40/);
    assert.throws(() => loadConfig({ TRUST_PROXY: '0.0.0.0/0' }), /0.0.0.0\/0 is every address/);
    assert.throws(() => loadConfig({ TRUST_PROXY: '10.0.0.1, ::/0' }), /::\/0 is every address/);
  });

  it('keeps every revision unless REVISIONS_KEEP says how many', () => {
    assert.deepEqual(loadConfig({}).revisions, { keep: 0 });
    assert.deepEqual(loadConfig({ REVISIONS_KEEP: '20' }).revisions, { keep: 20 });
    assert.throws(
      () => loadConfig({ REVISIONS_KEEP: 'some' }),
      (error: ConfigError) => {
        assert.deepEqual(error.problems, ['REVISIONS_KEEP must be a whole number from 0 to 1000000 (got "some")']);
        return true;
      },
    );
  });

  it('limits imports by default (a 500 MB export is refused) and reports every bad IMPORT_* setting together', () => {
    const MB = 1024 * 1024;
    assert.deepEqual(loadConfig({}, '/srv/app').imports, {
      dir: path.join('/srv/app/var', 'imports'),
      maxFileBytes: 200 * MB,
      maxUncompressedBytes: 1024 * MB,
      maxEntries: 20_000,
      maxItems: 5000,
      maxTextBytes: 100 * MB,
      maxImageBytes: 25 * MB,
      imageTimeoutMs: 20_000,
    });
    assert.equal(loadConfig({ IMPORT_MAX_MB: '600' }).imports.maxFileBytes, 600 * MB);
    assert.throws(
      () => loadConfig({ IMPORT_MAX_MB: '0', IMPORT_IMAGE_TIMEOUT_MS: 'soon' }),
      (error: ConfigError) => {
        assert.deepEqual(error.problems, [
          'IMPORT_MAX_MB must be a whole number from 1 to 4096 (got "0")',
          'IMPORT_IMAGE_TIMEOUT_MS must be a whole number from 100 to 600000 (got "soon")',
        ]);
        return true;
      },
    );
  });

  it('takes the two-factor key from TWO_FACTOR_KEY or its file, else a key file under VAR_DIR', () => {
    assert.deepEqual(loadConfig({}, '/srv/app').twoFactor, { key: null, keyFile: path.join('/srv/app/var', 'secrets', 'two-factor.key') });
    const key = 'k'.repeat(40);
    assert.equal(loadConfig({ TWO_FACTOR_KEY: key }).twoFactor.key, key);
    const dir = mkdtempSync(path.join(os.tmpdir(), 'config-test-'));
    writeFileSync(path.join(dir, 'two-factor-key'), `${key}\n`);
    assert.equal(loadConfig({ TWO_FACTOR_KEY_FILE: path.join(dir, 'two-factor-key') }).twoFactor.key, key);
    assert.throws(
      () => loadConfig({ TWO_FACTOR_KEY: 'short' }),
      (error: ConfigError) => {
        assert.deepEqual(error.problems, ['TWO_FACTOR_KEY must be at least 32 characters (e.g. openssl rand -hex 32)']);
        return true;
      },
    );
  });

  it('lists every bad variable at once, by name', () => {
    try {
      loadConfig({
        PORT: 'eighty',
        DATABASE_URL: 'postgres://x/y',
        SEED_DEMO: 'perhaps',
        ADMIN_PASSWORD: '123',
        REBUILD_WEBHOOK_URL: 'http://b/hook',
      });
      assert.fail('should throw');
    } catch (error) {
      assert.ok(error instanceof ConfigError);
      const text = error.problems.join('\n');
      for (const name of ['PORT', 'DATABASE_URL', 'SEED_DEMO', 'ADMIN_PASSWORD', 'REBUILD_WEBHOOK_SECRET'])
        assert.match(text, new RegExp(name));
      assert.equal(error.problems.length, 5);
    }
  });
});
