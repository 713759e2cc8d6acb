// The builder's own settings rules: the secret (also from REBUILD_WEBHOOK_SECRET_FILE, as Docker and
// Kubernetes secrets provide it; the file rules themselves are tested once, in @portfolio/contract/env),
// its minimum length, and the API address.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';

import { BuilderConfigError, loadBuilderConfig } from '../builder/config.mjs';
import { makeLog } from '../builder/log.mjs';

const dir = mkdtempSync(path.join(os.tmpdir(), 'builder-config-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const problemsOf = (env) => {
  try {
    loadBuilderConfig(env, dir);
  } catch (error) {
    assert.ok(error instanceof BuilderConfigError);
    return error.problems;
  }
  return [];
};

describe('builder configuration: REBUILD_WEBHOOK_SECRET_FILE', () => {
  it('reads the secret from the file, without the trailing newline secret files usually end with', () => {
    const secret = 'k/8+Qz#a@b=0123456789abcdef';
    writeFileSync(path.join(dir, 'webhook-secret'), `${secret}\n`);
    assert.equal(loadBuilderConfig({ REBUILD_WEBHOOK_SECRET_FILE: path.join(dir, 'webhook-secret') }, dir).secret, secret);
    assert.equal(
      loadBuilderConfig({ REBUILD_WEBHOOK_SECRET_FILE: 'webhook-secret' }, dir).secret,
      secret,
      'relative to the working folder',
    );
    assert.equal(loadBuilderConfig({ REBUILD_WEBHOOK_SECRET: secret }, dir).secret, secret, 'the variable itself still works');
  });

  it('says what is wrong: a short secret in the file, no secret at all, an API address that is not http(s)', () => {
    writeFileSync(path.join(dir, 'short'), 'short\n');
    assert.match(
      problemsOf({ REBUILD_WEBHOOK_SECRET_FILE: path.join(dir, 'short') }).join('\n'),
      /REBUILD_WEBHOOK_SECRET must be set \(16 characters or more\)/,
    );
    assert.match(problemsOf({}).join('\n'), /REBUILD_WEBHOOK_SECRET must be set .*REBUILD_WEBHOOK_SECRET_FILE/);
    const secret = 'a-long-enough-secret-0123456789';
    assert.deepEqual(problemsOf({ REBUILD_WEBHOOK_SECRET: secret, SITE_API_URL: 'ftp://api.example' }), [
      'SITE_API_URL must be a http:// or https:// URL',
    ]);
    assert.equal(loadBuilderConfig({ REBUILD_WEBHOOK_SECRET: secret, SITE_API_URL: 'http://api:3000/' }, dir).apiUrl, 'http://api:3000');
  });
});

describe('builder logs (LOG_FORMAT)', () => {
  const secret = 'a-long-enough-secret-0123456789';
  it('writes [builder] lines by default and one JSON object per line with LOG_FORMAT=json, failures on stderr', () => {
    assert.equal(loadBuilderConfig({ REBUILD_WEBHOOK_SECRET: secret }, dir).logFormat, 'text');
    assert.equal(loadBuilderConfig({ REBUILD_WEBHOOK_SECRET: secret, LOG_FORMAT: 'json' }, dir).logFormat, 'json');
    assert.deepEqual(problemsOf({ REBUILD_WEBHOOK_SECRET: secret, LOG_FORMAT: 'xml' }), [
      'LOG_FORMAT must be one of text, json (got "xml")',
    ]);
    const written = { out: [], err: [] };
    const streams = {
      out: { write: (s) => written.out.push(s) },
      err: { write: (s) => written.err.push(s) },
      now: () => new Date('2026-11-23T10:00:00.000Z'),
    };
    makeLog('text', streams)('publish 3 live');
    const json = makeLog('json', streams);
    json('publish 4 live');
    json('build 5 FAILED, the live site is unchanged: "x"\n    tail');
    assert.deepEqual(written.out.slice(0, 1), ['[builder] publish 3 live\n']);
    assert.deepEqual(JSON.parse(written.out[1]), {
      time: '2026-11-23T10:00:00.000Z',
      level: 'info',
      context: 'builder',
      message: 'publish 4 live',
    });
    assert.equal(written.err.length, 1);
    assert.deepEqual(JSON.parse(written.err[0]), {
      time: '2026-11-23T10:00:00.000Z',
      level: 'error',
      context: 'builder',
      message: 'build 5 FAILED, the live site is unchanged: "x"\n    tail',
    });
  });
});
