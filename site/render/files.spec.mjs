import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { eachLimited } from './files.mjs';

/** A task that finishes when the test says so. */
function gate() {
  let open;
  const opened = new Promise((resolve) => (open = resolve));
  return { open, opened };
}

describe('eachLimited', () => {
  it('runs at most `limit` items at once and every item once', async () => {
    let running = 0;
    let most = 0;
    const seen = [];
    await eachLimited([...Array(20).keys()], 3, async (item) => {
      running++;
      most = Math.max(most, running);
      await new Promise((resolve) => setImmediate(resolve));
      seen.push(item);
      running--;
    });
    assert.equal(most, 3);
    assert.deepEqual(
      seen.sort((a, b) => a - b),
      [...Array(20).keys()],
    );
  });

  it('after a failure starts no new item, lets the running ones finish, then throws the first error', async () => {
    const slow = gate();
    const started = [];
    const finished = [];
    const done = eachLimited([0, 1, 2, 3, 4, 5], 2, async (item) => {
      started.push(item);
      if (item === 0) {
        await slow.opened;
        finished.push(item);
        return;
      }
      if (item === 1) throw new Error('first');
      throw new Error('later');
    });
    // Item 1 failed at once: item 0 is still running, and nothing after it starts.
    await new Promise((resolve) => setImmediate(resolve));
    slow.open();
    await assert.rejects(done, /^Error: first$/);
    assert.deepEqual(finished, [0], 'the running item finished before the error was thrown');
    assert.deepEqual(started, [0, 1]);
  });
});
