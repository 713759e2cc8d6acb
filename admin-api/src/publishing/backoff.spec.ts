import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { retryDelayMs } from './backoff.js';

describe('retryDelayMs', () => {
  it('doubles with each failure, between half and all of the ceiling', () => {
    assert.equal(
      retryDelayMs(1, 1000, 60_000, () => 0),
      500,
    );
    assert.equal(
      retryDelayMs(1, 1000, 60_000, () => 1),
      1000,
    );
    assert.equal(
      retryDelayMs(2, 1000, 60_000, () => 0),
      1000,
    );
    assert.equal(
      retryDelayMs(3, 1000, 60_000, () => 1),
      4000,
    );
    for (let i = 0; i < 100; i++) {
      const d = retryDelayMs(4, 1000, 60_000);
      assert.ok(d >= 4000 && d <= 8000, String(d));
    }
  });

  it('never waits longer than the cap', () => {
    assert.equal(
      retryDelayMs(30, 1000, 60_000, () => 1),
      60_000,
    );
    assert.equal(
      retryDelayMs(1000, 1000, 60_000, () => 0),
      30_000,
    );
  });
});
