import assert from 'node:assert/strict';
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

  it('reads a MySQL URL', () => {
    const config = loadConfig({ DATABASE_URL: 'mysql://u:p@db:3306/portfolio' });
    assert.deepEqual(config.database, { kind: 'mysql', url: 'mysql://u:p@db:3306/portfolio' });
  });

  it('lists every bad variable at once, by name', () => {
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'postgres://x/y', SEED_DEMO: 'perhaps', ADMIN_PASSWORD: '123', REBUILD_WEBHOOK_URL: 'http://b/hook' });
      assert.fail('should throw');
    } catch (error) {
      assert.ok(error instanceof ConfigError);
      const text = error.problems.join('\n');
      for (const name of ['PORT', 'DATABASE_URL', 'SEED_DEMO', 'ADMIN_PASSWORD', 'REBUILD_WEBHOOK_SECRET']) assert.match(text, new RegExp(name));
      assert.equal(error.problems.length, 5);
    }
  });
});
