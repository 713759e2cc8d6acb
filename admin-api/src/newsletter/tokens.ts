import { createHmac, timingSafeEqual } from 'node:crypto';

import { Injectable } from '@nestjs/common';
import { isLang, type Lang } from '@portfolio/contract/languages';

import { TwoFactorKey } from '../auth/two-factor-key.js';

/** A confirmation link works this long. */
export const CONFIRM_TTL_MS = 48 * 3_600_000;

export interface ConfirmClaim {
  subscriberId: number;
  issuedAt: number;
  language: Lang;
}
export interface ManageClaim {
  subscriberId: number;
  generation: number;
}

/**
 * The newsletter's links carry no stored secret: a token is its claims plus an HMAC of them under a
 * key derived from the server's two-factor key, so a database dump or a backup holds no working
 * link, and a restored database's links keep working on the same server. A confirm token says who
 * and when it was issued (valid 48 h, and only while that wait for confirmation lasts); a manage
 * token (preferences, unsubscribe) says who and the subscriber's link generation.
 */
@Injectable()
export class NewsletterTokens {
  private key: Buffer | undefined;

  constructor(private readonly keys: TwoFactorKey) {}

  private sign(payload: string): string {
    this.key ??= this.keys.derive('newsletter-links');
    return createHmac('sha256', this.key).update(payload).digest().subarray(0, 18).toString('base64url');
  }

  private verify(payload: string, signature: string): boolean {
    const expected = Buffer.from(this.sign(payload));
    const given = Buffer.from(signature);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }

  confirm(subscriberId: number, language: Lang, issuedAt = Date.now()): string {
    const payload = `c1.${subscriberId}.${Math.floor(issuedAt / 1000)}.${language}`;
    return `${payload}.${this.sign(payload)}`;
  }

  manage(subscriberId: number, generation: number): string {
    const payload = `m1.${subscriberId}.${generation}`;
    return `${payload}.${this.sign(payload)}`;
  }

  /** The claims of a genuine confirm token (expiry not checked here), or null. */
  readConfirm(token: unknown): ConfirmClaim | null {
    const parts = typeof token === 'string' && token.length < 200 ? token.split('.') : [];
    if (parts.length !== 5 || parts[0] !== 'c1' || !/^\d{1,10}$/.test(parts[1]) || !/^\d{1,12}$/.test(parts[2]) || !isLang(parts[3]))
      return null;
    if (!this.verify(parts.slice(0, 4).join('.'), parts[4])) return null;
    return { subscriberId: Number(parts[1]), issuedAt: Number(parts[2]) * 1000, language: parts[3] };
  }

  /** The language a confirm token names, even an expired one (for the link-invalid page), else null. */
  languageOf(token: unknown): Lang | null {
    return this.readConfirm(token)?.language ?? null;
  }

  readManage(token: unknown): ManageClaim | null {
    const parts = typeof token === 'string' && token.length < 200 ? token.split('.') : [];
    if (parts.length !== 4 || parts[0] !== 'm1' || !/^\d{1,10}$/.test(parts[1]) || !/^\d{1,10}$/.test(parts[2])) return null;
    if (!this.verify(parts.slice(0, 3).join('.'), parts[3])) return null;
    return { subscriberId: Number(parts[1]), generation: Number(parts[2]) };
  }
}
