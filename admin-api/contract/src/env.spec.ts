import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';

import { EnvReader } from './env.js';

describe('EnvReader', () => {
  it('treats blank as unset and trims values', () => {
    const env = new EnvReader({ A: '  x  ', B: '   ' });
    assert.equal(env.str('A'), 'x');
    assert.equal(env.str('B'), undefined);
    assert.equal(env.int('B', 7, 0, 10), 7);
    assert.deepEqual(env.problems, []);
  });
  it('collects every bad value, by name', () => {
    const env = new EnvReader({ PORT: 'eighty', ON: 'perhaps', MODE: 'sometimes', HOOK: 'ftp://x' });
    assert.equal(env.int('PORT', 3000, 0, 65535), 3000);
    assert.equal(env.bool('ON', true), true);
    assert.equal(env.oneOf('MODE', 'missing', ['missing', 'always']), 'missing');
    assert.equal(env.url('HOOK', ['http:', 'https:']), null);
    assert.deepEqual(env.problems, [
      'PORT must be a whole number from 0 to 65535 (got "eighty")',
      'ON must be true or false (got "perhaps")',
      'MODE must be one of missing, always (got "sometimes")',
      'HOOK must be a http:// or https:// URL',
    ]);
  });
  it('reads secrets from NAME_FILE, dropping one trailing newline, and refuses both forms', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'env-'));
    writeFileSync(path.join(dir, 'secret'), 'p/w#x@y=\n');
    const fromFile = new EnvReader({ SECRET_FILE: 'secret' }, { cwd: dir, fileVariables: ['SECRET'] });
    assert.equal(fromFile.raw('SECRET'), 'p/w#x@y=');
    assert.deepEqual(fromFile.problems, []);
    const both = new EnvReader({ SECRET: 'x', SECRET_FILE: 'secret' }, { cwd: dir, fileVariables: ['SECRET'] });
    assert.deepEqual(both.problems, ['SECRET and SECRET_FILE are both set; set only one']);
    const missing = new EnvReader({ SECRET_FILE: 'nope' }, { cwd: dir, fileVariables: ['SECRET'] });
    assert.match(missing.problems[0], /^SECRET_FILE names a file that cannot be read \(ENOENT: nope\)$/);
    const ignored = new EnvReader({ OTHER_FILE: 'secret' }, { cwd: dir, fileVariables: ['SECRET'] });
    assert.equal(ignored.str('OTHER'), undefined, 'only the listed variables are read from files');
  });
});
