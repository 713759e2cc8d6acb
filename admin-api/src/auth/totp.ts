import { createHash, randomBytes } from 'node:crypto';

import { HOTP, Secret, TOTP as Totp } from 'otpauth';

/**
 * Time-based one-time passwords as every authenticator app makes them (otpauth: RFC 6238 over
 * RFC 4226), HMAC-SHA-1, 6 digits, 30-second steps. A code is accepted for the current step and one
 * step either side (clock drift, typing time), and never twice: the caller keeps the last used step.
 */
export const TOTP = { digits: 6, stepSeconds: 30, window: 1 } as const;
/** How far back a code still counts as 'expired' rather than 'wrong' (5 minutes), for a clearer message. */
const EXPIRED_LOOKBACK_STEPS = 10;

const secretOf = (bytes: Buffer) => new Secret({ buffer: Uint8Array.from(bytes).buffer });

export const base32Encode = (bytes: Buffer) => secretOf(bytes).base32;

/** Also what a person types: any case, spaces, dashes, padding. */
export const base32Decode = (text: string) => Buffer.from(Secret.fromBase32(text.replace(/[\s=-]/g, '')).bytes);

/** RFC 4226: the one-time password of `counter`. */
export const hotp = (secret: Buffer, counter: number, digits: number = TOTP.digits) =>
  HOTP.generate({ secret: secretOf(secret), counter, digits });

/** The time step a moment falls in. */
export const totpStep = (timeMs: number) => Totp.counter({ period: TOTP.stepSeconds, timestamp: timeMs });

/** RFC 6238: the code shown at `timeMs`. */
export const totpAt = (secret: Buffer, timeMs: number, digits: number = TOTP.digits) =>
  Totp.generate({ secret: secretOf(secret), period: TOTP.stepSeconds, timestamp: timeMs, digits });

export type TotpCheck = { ok: true; step: number } | { ok: false; reason: 'invalid' | 'expired' | 'reused' };

/**
 * Checks a code typed at `timeMs`. `lastUsedStep` is the step of the last code accepted for this
 * secret: that code and older ones are refused as reused (RFC 6238, section 5.2).
 */
export function verifyTotp(secret: Buffer, code: string, timeMs: number, lastUsedStep: number | null): TotpCheck {
  const token = code.replace(/\s+/g, '');
  if (!/^\d{6}$/.test(token)) return { ok: false, reason: 'invalid' };
  const key = secretOf(secret);
  const now = totpStep(timeMs);
  const delta = HOTP.validate({ token, secret: key, counter: now, window: TOTP.window });
  if (delta !== null) {
    const step = now + delta;
    return lastUsedStep !== null && step <= lastUsedStep ? { ok: false, reason: 'reused' } : { ok: true, step };
  }
  for (let step = now - TOTP.window - 1; step >= now - EXPIRED_LOOKBACK_STEPS; step--) {
    if (HOTP.validate({ token, secret: key, counter: step, window: 0 }) !== null) return { ok: false, reason: 'expired' };
  }
  return { ok: false, reason: 'invalid' };
}

/** A new 160-bit secret (RFC 4226's recommended length for HMAC-SHA-1). */
export const newTotpSecret = () => randomBytes(20);

/** The otpauth:// address an authenticator app reads from the QR code (Key Uri Format). */
export function otpauthUrl(secretBase32: string, account: string, issuer: string): string {
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(account)}`;
  const params = new URLSearchParams({
    secret: secretBase32,
    issuer,
    algorithm: 'SHA1',
    digits: String(TOTP.digits),
    period: String(TOTP.stepSeconds),
  });
  return `otpauth://totp/${label}?${params.toString()}`;
}

/** The base32 secret in groups of four, easier to type into an app by hand. */
export const groupedKey = (secretBase32: string) => secretBase32.replace(/(.{4})(?=.)/g, '$1 ');

// Recovery codes: 16 characters of an alphabet without look-alikes (80 bits), shown as xxxx-xxxx-xxxx-xxxx.
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
export const RECOVERY_CODE_COUNT = 10;

export function newRecoveryCode(): string {
  const bytes = randomBytes(16);
  let code = '';
  for (let i = 0; i < 16; i++) code += RECOVERY_ALPHABET[bytes[i] % RECOVERY_ALPHABET.length];
  return code.replace(/(.{4})(?=.)/g, '$1-');
}

/** Whatever the admin typed (case, spaces, dashes) as the code's canonical form, or null. */
export function normalizeRecoveryCode(typed: string): string | null {
  const clean = typed.toLowerCase().replace(/[\s-]/g, '');
  return /^[a-z0-9]{16}$/.test(clean) ? clean : null;
}

/** What the database keeps of a recovery code (80 random bits: a plain hash is enough). */
export const hashRecoveryCode = (normalized: string) => createHash('sha256').update(`recovery:${normalized}`).digest('hex');
