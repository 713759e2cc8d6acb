import { createHmac } from 'node:crypto';

/**
 * The rebuild webhook's signature: HMAC-SHA256 of the exact bytes sent, in the header
 * `X-Signature-256: sha256=<hex>` (the convention of GitHub's webhooks, so common receivers and
 * hosted build hooks can check it). The builder in infra/builder computes the same.
 */
export const SIGNATURE_HEADER = 'x-signature-256';
export const TIMESTAMP_HEADER = 'x-timestamp';

export function sign(secret: string, payload: string): string {
  return `sha256=${createHmac('sha256', secret).update(payload).digest('hex')}`;
}

/** GET requests have no body: the status request signs its timestamp, so it cannot be replayed later. */
export function statusRequestPayload(timestamp: string): string {
  return `GET /status ${timestamp}`;
}
