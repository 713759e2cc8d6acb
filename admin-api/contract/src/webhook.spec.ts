import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, it } from 'node:test';

import { isFresh, MAX_CLOCK_SKEW_MS, sign, SIGNATURE_HEADER, statusHeaders, statusPayload, TIMESTAMP_HEADER, verify } from './webhook.js';

describe('the rebuild webhook signature', () => {
  const secret = 'a-test-secret-0123456789';
  it("is GitHub's: sha256= and the hex HMAC-SHA256 of the exact body", () => {
    const body = '{"reason":"manual"}';
    assert.equal(sign(secret, body), `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`);
  });
  it('verifies the right signature only', () => {
    const body = '{"a":1}';
    assert.equal(verify(secret, body, sign(secret, body)), true);
    assert.equal(verify(secret, '{"a":2}', sign(secret, body)), false);
    assert.equal(verify('another-secret-0123456', body, sign(secret, body)), false);
    assert.equal(verify(secret, body, sign(secret, body).slice(0, -1)), false);
    assert.equal(verify(secret, body, undefined), false);
  });
  it('signs a status request by its timestamp', () => {
    const headers = statusHeaders(secret, 1_700_000_000_000);
    assert.equal(headers[TIMESTAMP_HEADER], '1700000000000');
    assert.equal(verify(secret, statusPayload('1700000000000'), headers[SIGNATURE_HEADER]), true);
  });
  it('accepts times within the allowed clock skew only', () => {
    const now = 1_700_000_000_000;
    assert.equal(isFresh(now - MAX_CLOCK_SKEW_MS, now), true);
    assert.equal(isFresh(now + MAX_CLOCK_SKEW_MS + 1, now), false);
    assert.equal(isFresh(Number.NaN, now), false);
  });
});
