import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Time-based one-time passwords as every authenticator app makes them: RFC 6238 over RFC 4226,
 * HMAC-SHA-1, 6 digits, 30-second steps. A code is accepted for the current step and one step
 * either side (clock drift, typing time), and never twice: the caller keeps the last used step.
 */
export const TOTP = { digits: 6, stepSeconds: 30, window: 1 } as const;
/** How far back a code still counts as 'expired' rather than 'wrong' (5 minutes), for a clearer message. */
const EXPIRED_LOOKBACK_STEPS = 10;

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export function base32Encode(bytes: Buffer): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

export function base32Decode(text: string): Buffer {
  const clean = text.toUpperCase().replace(/[\s=-]/g, '');
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const char of clean) {
    const index = BASE32.indexOf(char);
    if (index < 0) throw new Error('Not a base32 text');
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** RFC 4226: the one-time password of `counter`. */
export function hotp(secret: Buffer, counter: number, digits: number = TOTP.digits): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac('sha1', secret).update(message).digest();
  const offset = mac[mac.length - 1] & 0x0f;
  const binary = (mac.readUInt32BE(offset) & 0x7fffffff) % 10 ** digits;
  return String(binary).padStart(digits, '0');
}

/** The time step a moment falls in. */
export const totpStep = (timeMs: number) => Math.floor(timeMs / 1000 / TOTP.stepSeconds);

/** RFC 6238: the code shown at `timeMs`. */
export const totpAt = (secret: Buffer, timeMs: number, digits: number = TOTP.digits) => hotp(secret, totpStep(timeMs), digits);

export type TotpCheck = { ok: true; step: number } | { ok: false; reason: 'invalid' | 'expired' | 'reused' };

const sameCode = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/**
 * Checks a code typed at `timeMs`. `lastUsedStep` is the step of the last code accepted for this
 * secret: that code and older ones are refused as reused (RFC 6238, section 5.2).
 */
export function verifyTotp(secret: Buffer, code: string, timeMs: number, lastUsedStep: number | null): TotpCheck {
  const typed = code.replace(/\s+/g, '');
  if (!/^\d{6}$/.test(typed)) return { ok: false, reason: 'invalid' };
  const now = totpStep(timeMs);
  for (let delta = -TOTP.window; delta <= TOTP.window; delta++) {
    const step = now + delta;
    if (!sameCode(hotp(secret, step), typed)) continue;
    if (lastUsedStep !== null && step <= lastUsedStep) return { ok: false, reason: 'reused' };
    return { ok: true, step };
  }
  for (let step = now - TOTP.window - 1; step >= now - EXPIRED_LOOKBACK_STEPS; step--) {
    if (sameCode(hotp(secret, step), typed)) return { ok: false, reason: 'expired' };
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
