import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { trimMalloc, withMallocEnv } from './malloc.mjs';

const rssAnonMb = () => Number(/RssAnon:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))[1]) / 1024;

describe('trimMalloc', () => {
  it('gives back free memory that lies between blocks still in use (Linux, glibc)', { skip: process.platform !== 'linux' && 'Linux only' }, async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc');
    // 300,000 small native blocks, one in 64 kept: the heap's free space is all between kept blocks.
    let blocks = Array.from({ length: 300_000 }, () => Buffer.allocUnsafeSlow(300).fill(1));
    const kept = blocks.filter((_, i) => i % 64 === 0);
    blocks = null;
    gc();
    gc();
    const before = rssAnonMb();
    assert.equal(await trimMalloc(), true);
    const after = rssAnonMb();
    assert.ok(before - after > 40, `resident anonymous memory ${before.toFixed(0)} → ${after.toFixed(0)} MB`);
    assert.equal(kept.length, 4688);
  });

  it('keeps the allocator settings an operator set', () => {
    assert.deepEqual(withMallocEnv({ MALLOC_ARENA_MAX: '4' }), { MALLOC_ARENA_MAX: '4', MALLOC_MMAP_THRESHOLD_: '65536', MALLOC_TRIM_THRESHOLD_: '131072' });
  });
});
