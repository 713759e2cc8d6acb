import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';

import type { AppConfig } from '../config/config.js';
import { TwoFactorKey } from './two-factor-key.js';

const withKey = (key: string | null, keyFile: string) => new TwoFactorKey({ twoFactor: { key, keyFile } } as AppConfig);

describe('TwoFactorKey', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'two-factor-key-'));
  const secret = Buffer.from('12345678901234567890');

  it('seals a secret so the stored text does not show it, and opens it again', () => {
    const box = withKey('a'.repeat(32), path.join(dir, 'unused.key'));
    const sealed = box.encrypt(secret);
    assert.match(sealed, /^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    assert.ok(!sealed.includes(secret.toString('base64url')) && !sealed.includes(secret.toString('hex')));
    assert.notEqual(box.encrypt(secret), sealed, 'a fresh nonce each time');
    assert.deepEqual(box.decrypt(sealed), secret);
  });

  it('cannot open a secret sealed with another key, nor a damaged one', () => {
    const sealed = withKey('a'.repeat(32), path.join(dir, 'unused.key')).encrypt(secret);
    assert.equal(withKey('b'.repeat(32), path.join(dir, 'unused.key')).decrypt(sealed), null);
    const parts = sealed.split('.');
    parts[3] = `${parts[3].slice(0, -2)}AA`;
    assert.equal(withKey('a'.repeat(32), path.join(dir, 'unused.key')).decrypt(parts.join('.')), null);
    assert.equal(withKey('a'.repeat(32), path.join(dir, 'unused.key')).decrypt('not-sealed'), null);
  });

  it('without TWO_FACTOR_KEY makes a key file once (owner-only) and every process uses it', () => {
    const file = path.join(dir, 'secrets', 'two-factor.key');
    const sealed = withKey(null, file).encrypt(secret);
    assert.equal(statSync(file).mode & 0o777, 0o600);
    const first = readFileSync(file, 'utf8');
    assert.deepEqual(withKey(null, file).decrypt(sealed), secret);
    assert.equal(readFileSync(file, 'utf8'), first);
  });
});
