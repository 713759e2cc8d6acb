// The rebuild webhook's signature, the same as admin-api/src/publishing/signature.ts computes:
// `X-Signature-256: sha256=<hex HMAC-SHA256 of the exact body bytes>` (GitHub's webhook convention).
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'x-signature-256';
export const TIMESTAMP_HEADER = 'x-timestamp';
/** Signed requests older (or newer) than this are refused, so a captured one cannot be replayed later. */
export const MAX_CLOCK_SKEW_MS = 5 * 60 * 1000;

export function sign(secret, payload) {
  return `sha256=${createHmac('sha256', secret).update(payload).digest('hex')}`;
}

/** Constant-time comparison, so the answer's timing tells nothing about how much of a guess was right. */
export function verify(secret, payload, signature) {
  if (typeof signature !== 'string') return false;
  const expected = Buffer.from(sign(secret, payload));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** GET /status has no body: it signs its timestamp instead. */
export function statusPayload(timestamp) {
  return `GET /status ${timestamp}`;
}

/** Headers for a signed GET /status (used by start.mjs and the benchmark; admin-api has its own copy). */
export function statusHeaders(secret, now = Date.now()) {
  const timestamp = String(now);
  return { [TIMESTAMP_HEADER]: timestamp, [SIGNATURE_HEADER]: sign(secret, statusPayload(timestamp)) };
}

export function isFresh(epochMs, now = Date.now()) {
  return Number.isFinite(epochMs) && Math.abs(now - epochMs) <= MAX_CLOCK_SKEW_MS;
}
