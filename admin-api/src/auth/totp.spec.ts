import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import {
  base32Decode,
  base32Encode,
  groupedKey,
  hashRecoveryCode,
  hotp,
  newRecoveryCode,
  newTotpSecret,
  normalizeRecoveryCode,
  otpauthUrl,
  totpAt,
  totpStep,
  verifyTotp,
} from './totp.js';

// The shared secret of the RFC test vectors: the ASCII text "12345678901234567890".
const RFC_SECRET = Buffer.from('12345678901234567890', 'ascii');

describe('hotp (RFC 4226, appendix D)', () => {
  it('gives the test vectors for counters 0 to 9', () => {
    const expected = ['755224', '287082', '359152', '969429', '338314', '254676', '287922', '162583', '399871', '520489'];
    assert.deepEqual(
      expected.map((_, counter) => hotp(RFC_SECRET, counter)),
      expected,
    );
  });
});

describe('totpAt (RFC 6238, appendix B, SHA-1)', () => {
  it('gives the 8-digit test vectors at their times', () => {
    const vectors: [number, string][] = [
      [59, '94287082'],
      [1111111109, '07081804'],
      [1111111111, '14050471'],
      [1234567890, '89005924'],
      [2000000000, '69279037'],
      [20000000000, '65353130'],
    ];
    for (const [seconds, code] of vectors) assert.equal(totpAt(RFC_SECRET, seconds * 1000, 8), code, `T=${seconds}`);
  });

  it('makes 6-digit codes that change every 30 seconds', () => {
    assert.equal(totpAt(RFC_SECRET, 59_000), '287082');
    assert.equal(totpStep(29_999), 0);
    assert.equal(totpStep(30_000), 1);
  });
});

describe('verifyTotp with a fixed clock', () => {
  const secret = newTotpSecret();
  const now = 1_764_000_015_000; // the middle of a step
  const codeAt = (offsetSteps: number) => totpAt(secret, now + offsetSteps * 30_000);

  it('accepts the current code and one step either side', () => {
    for (const offset of [-1, 0, 1]) {
      const check = verifyTotp(secret, codeAt(offset), now, null);
      assert.deepEqual(check, { ok: true, step: totpStep(now) + offset }, `offset ${offset}`);
    }
  });

  it('ignores spaces a person types', () => {
    const code = codeAt(0);
    assert.equal(verifyTotp(secret, `${code.slice(0, 3)} ${code.slice(3)}`, now, null).ok, true);
  });

  it('refuses a code used before, and older ones (replay)', () => {
    const first = verifyTotp(secret, codeAt(0), now, null);
    assert.ok(first.ok);
    assert.deepEqual(verifyTotp(secret, codeAt(0), now, first.step), { ok: false, reason: 'reused' });
    assert.deepEqual(verifyTotp(secret, codeAt(-1), now, first.step), { ok: false, reason: 'reused' });
    assert.equal(verifyTotp(secret, codeAt(1), now, first.step).ok, true);
  });

  it('calls a code from outside the window expired', () => {
    assert.deepEqual(verifyTotp(secret, codeAt(-2), now, null), { ok: false, reason: 'expired' });
    assert.deepEqual(verifyTotp(secret, codeAt(-10), now, null), { ok: false, reason: 'expired' });
  });

  it('refuses wrong codes, codes of another secret, a future code and text that is no code', () => {
    const wrong = String((Number(codeAt(0)) + 1) % 1_000_000).padStart(6, '0');
    const candidates = [codeAt(-1), codeAt(0), codeAt(1)];
    if (!candidates.includes(wrong)) assert.deepEqual(verifyTotp(secret, wrong, now, null), { ok: false, reason: 'invalid' });
    assert.equal(verifyTotp(newTotpSecret(), codeAt(0), now, null).ok, false);
    assert.deepEqual(verifyTotp(secret, codeAt(3), now, null), { ok: false, reason: 'invalid' });
    for (const text of ['', '12345', '1234567', 'abcdef'])
      assert.deepEqual(verifyTotp(secret, text, now, null), { ok: false, reason: 'invalid' });
  });
});

describe('base32 and the otpauth address', () => {
  it('round-trips and matches RFC 4648', () => {
    assert.equal(base32Encode(Buffer.from('foobar')), 'MZXW6YTBOI');
    assert.equal(base32Decode('mzxw 6ytb oi').toString(), 'foobar');
    const secret = newTotpSecret();
    assert.deepEqual(base32Decode(base32Encode(secret)), secret);
    assert.equal(base32Encode(secret).length, 32);
  });

  it('names the issuer, account and parameters apps read', () => {
    const text = otpauthUrl('JBSWY3DPEHPK3PXP', 'layla', 'Portfolio');
    assert.ok(text.startsWith('otpauth://totp/Portfolio:layla?'), text);
    const url = new URL(text);
    assert.equal(url.searchParams.get('secret'), 'JBSWY3DPEHPK3PXP');
    assert.equal(url.searchParams.get('issuer'), 'Portfolio');
    assert.equal(url.searchParams.get('digits'), '6');
    assert.equal(url.searchParams.get('period'), '30');
    assert.equal(url.searchParams.get('algorithm'), 'SHA1');
    assert.equal(groupedKey('JBSWY3DPEHPK3PXP'), 'JBSW Y3DP EHPK 3PXP');
  });
});

describe('recovery codes', () => {
  it('are 16 characters in groups of four, all different', () => {
    const codes = Array.from({ length: 10 }, newRecoveryCode);
    for (const code of codes) assert.match(code, /^[a-z2-9]{4}(-[a-z2-9]{4}){3}$/);
    assert.equal(new Set(codes).size, 10);
  });

  it('accept what a person types (case, spaces, no dashes) and hash the same', () => {
    const code = newRecoveryCode();
    const typed = ` ${code.toUpperCase().replaceAll('-', ' ')} `;
    assert.equal(normalizeRecoveryCode(typed), code.replaceAll('-', ''));
    assert.equal(hashRecoveryCode(normalizeRecoveryCode(typed)!), hashRecoveryCode(normalizeRecoveryCode(code)!));
    assert.equal(normalizeRecoveryCode('123456'), null);
  });
});
