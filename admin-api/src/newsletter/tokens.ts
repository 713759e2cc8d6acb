import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

import { Injectable } from '@nestjs/common';
import { isLang, type Lang } from '@portfolio/contract/languages';

import { TwoFactorKey } from '../auth/two-factor-key.js';

/** A confirmation link works this long. */
export const CONFIRM_TTL_MS = 48 * 3_600_000;

/**
 * A reader's link nonce: 128 random bits (a new reader's, or a reader's who subscribes again). Not a
 * secret on its own (it is in backups): a link also needs the HMAC key, which the database never holds.
 */
export const newLinkNonce = () => randomBytes(16).toString('base64url');

/** What a link is checked against: the reader's row. */
export interface LinkHolder {
  id: number;
  linkNonce: string | null;
  linkGeneration: number;
}

/** A token's claims, read before the row it names is found; `holds` then says whether it is that row's. */
interface Claim {
  subscriberId: number;
  /** The signed part of the token, and its signature. */
  payload: string;
  signature: string;
  /** Issued before issue 32: bound to the id and the generation only. */
  legacy: boolean;
}
export interface ConfirmClaim extends Claim {
  issuedAt: number;
  language: Lang;
}
export interface ManageClaim extends Claim {
  generation: number;
}

/**
 * The newsletter's links carry no stored secret: a token is its claims plus an HMAC of them and of
 * the reader's `linkNonce` (a random value kept in their row) under a key derived from the server's
 * two-factor key. A database dump or a backup holds no working link (the key is not in it), a
 * restored database's links keep working on the same server, and a link works only for the row it was
 * made for: a reader removed, or a new reader who gets an old id after a restore, is out of reach of
 * the old links, and a new nonce ends them all. A confirm token also says when it was issued (valid
 * 48 h, and only while that wait for confirmation lasts); a manage token is for preferences and
 * unsubscribing.
 *
 * Tokens made before issue 32 (`c1.`, `m1.`: id and generation, no nonce) are still in readers'
 * mailboxes: they count only for rows of that time (generation 0; every later row and every new
 * nonce has a higher one).
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

  /** Whether a token read by readConfirm/readManage was made for this row (and is not a forgery). */
  holds(claim: Claim, row: LinkHolder | null): boolean {
    if (!row || row.id !== claim.subscriberId) return false;
    if (claim.legacy) {
      const generation = (claim as ManageClaim).generation ?? 0;
      return row.linkGeneration === 0 && generation === 0 && this.verify(claim.payload, claim.signature);
    }
    return row.linkNonce !== null && this.verify(`${claim.payload}.${row.linkNonce}`, claim.signature);
  }

  private bound(payload: string, row: LinkHolder): string {
    if (!row.linkNonce) throw new Error(`newsletter subscriber ${row.id} has no link nonce`);
    return `${payload}.${this.sign(`${payload}.${row.linkNonce}`)}`;
  }

  confirm(row: LinkHolder, language: Lang, issuedAt = Date.now()): string {
    return this.bound(`c2.${row.id}.${Math.floor(issuedAt / 1000)}.${language}`, row);
  }

  manage(row: LinkHolder): string {
    return this.bound(`m2.${row.id}`, row);
  }

  /** The claims of a well-formed confirm token (signature and expiry checked later: `holds`), or null. */
  readConfirm(token: unknown): ConfirmClaim | null {
    const parts = typeof token === 'string' && token.length < 200 ? token.split('.') : [];
    if (
      parts.length !== 5 ||
      !['c1', 'c2'].includes(parts[0]) ||
      !/^\d{1,10}$/.test(parts[1]) ||
      !/^\d{1,12}$/.test(parts[2]) ||
      !isLang(parts[3])
    )
      return null;
    return {
      subscriberId: Number(parts[1]),
      issuedAt: Number(parts[2]) * 1000,
      language: parts[3],
      payload: parts.slice(0, 4).join('.'),
      signature: parts[4],
      legacy: parts[0] === 'c1',
    };
  }

  readManage(token: unknown): ManageClaim | null {
    const parts = typeof token === 'string' && token.length < 200 ? token.split('.') : [];
    if (parts[0] === 'm2' && parts.length === 3 && /^\d{1,10}$/.test(parts[1]))
      return { subscriberId: Number(parts[1]), generation: -1, payload: parts.slice(0, 2).join('.'), signature: parts[2], legacy: false };
    if (parts[0] === 'm1' && parts.length === 4 && /^\d{1,10}$/.test(parts[1]) && /^\d{1,10}$/.test(parts[2]))
      return {
        subscriberId: Number(parts[1]),
        generation: Number(parts[2]),
        payload: parts.slice(0, 3).join('.'),
        signature: parts[3],
        legacy: true,
      };
    return null;
  }
}
