import {
  BadRequestException,
  ConflictException,
  ForbiddenException,
  HttpException,
  HttpStatus,
  Injectable,
  Logger,
  UnauthorizedException,
} from '@nestjs/common';
import type { MessageKey } from '@portfolio/contract/messages';
import type { RecoveryCodesResponse, TwoFactorSetup, TwoFactorStatus } from '@portfolio/contract/types';
import { type EntityManager, In, IsNull, LessThan, MoreThan, Not } from 'typeorm';
import { renderSVG } from 'uqr';

import { notice, refusal } from '../common/api-message.js';
import { Clock } from '../common/clock.js';
import { findOrFail } from '../common/find-or-fail.js';
import { Db } from '../database/db.service.js';
import { AdminRecoveryCode } from './admin-recovery-code.entity.js';
import { AdminTotp } from './admin-totp.entity.js';
import { AdminUser } from './admin-user.entity.js';
import type { AuthContext } from './auth-context.js';
import type { TotpLoginDto, TwoFactorConfirmDto } from './dto/two-factor.dto.js';
import { LoginChallenge } from './login-challenge.entity.js';
import { verifyPassword } from './passwords.js';
import { LIMITS, loginAccountKey, RateLimiter } from './rate-limiter.js';
import { SessionsService } from './sessions.service.js';
import { hashToken, newToken } from './tokens.js';
import {
  base32Encode,
  hashRecoveryCode,
  newRecoveryCode,
  newTotpSecret,
  normalizeRecoveryCode,
  otpauthUrl,
  RECOVERY_CODE_COUNT,
  verifyTotp,
} from './totp.js';
import { TwoFactorKey } from './two-factor-key.js';

const CHALLENGE_TTL_MS = 5 * 60_000;
const ISSUER = 'Portfolio';
/** Wrong codes or passwords when turning two-factor off or renewing recovery codes, per admin. */
const CONFIRM_LIMIT = { limit: 5, windowMs: 15 * 60_000 };

const REASON_KEYS: Record<'invalid' | 'expired' | 'reused', MessageKey> = {
  invalid: 'error.twoFactorCodeInvalid',
  expired: 'error.twoFactorCodeExpired',
  reused: 'error.twoFactorCodeUsed',
};

/** A refused code: the message names what was wrong, as the `code` field's problem too. */
class CodeRefused extends Error {
  constructor(readonly key: MessageKey) {
    super(key);
  }
}

/**
 * Optional TOTP per admin (RFC 6238), with one-time recovery codes, and the second step of a
 * sign-in. The password step (AuthService.login) hands over to `challenge()` for admins who turned
 * it on; the code step counts against the same rate limits as the password step.
 */
@Injectable()
export class TwoFactorService {
  private readonly logger = new Logger('TwoFactor');

  constructor(
    private readonly db: Db,
    private readonly sessions: SessionsService,
    private readonly limiter: RateLimiter,
    private readonly key: TwoFactorKey,
    private readonly clock: Clock,
  ) {}

  async isEnabled(userId: number, manager: EntityManager = this.db.manager): Promise<boolean> {
    return (await manager.countBy(AdminTotp, { userId, enabledAt: Not(IsNull()) })) > 0;
  }

  /** The ids of the admins among `userIds` who have two-factor sign-in on. */
  async enabledAmong(userIds: number[]): Promise<Set<number>> {
    if (!userIds.length) return new Set();
    const rows = await this.db.manager.find(AdminTotp, { select: { userId: true, enabledAt: true }, where: { userId: In(userIds) } });
    return new Set(rows.filter((r) => r.enabledAt).map((r) => r.userId));
  }

  async status(auth: AuthContext): Promise<TwoFactorStatus> {
    const row = await this.db.manager.findOneBy(AdminTotp, { userId: auth.user.id });
    const recoveryCodesLeft = row?.enabledAt
      ? await this.db.manager.countBy(AdminRecoveryCode, { userId: auth.user.id, usedAt: IsNull() })
      : 0;
    return {
      enabled: Boolean(row?.enabledAt),
      enabledAt: row?.enabledAt ? row.enabledAt.toISOString() : null,
      pendingSetup: Boolean(row && !row.enabledAt),
      recoveryCodesLeft,
    };
  }

  /** A new secret waiting for its first code; the only answer that ever carries the secret. */
  async startSetup(auth: AuthContext): Promise<TwoFactorSetup> {
    const secret = newTotpSecret();
    const sealed = this.key.encrypt(secret);
    await this.db.write(async (m) => {
      const row = await m.findOneBy(AdminTotp, { userId: auth.user.id });
      if (row?.enabledAt) throw new ConflictException(refusal('error.twoFactorAlreadyOn'));
      const now = new Date();
      if (row) await m.update(AdminTotp, { userId: auth.user.id }, { totpSecret: sealed, lastUsedStep: null, updatedAt: now });
      else
        await m.insert(AdminTotp, {
          userId: auth.user.id,
          totpSecret: sealed,
          enabledAt: null,
          lastUsedStep: null,
          createdAt: now,
          updatedAt: now,
        });
    });
    const key = base32Encode(secret);
    const url = otpauthUrl(key, auth.user.username, ISSUER);
    return { secret: key, otpauthUrl: url, qrSvg: renderSVG(url, { border: 2, ecc: 'M' }) };
  }

  /** The first code from the app turns two-factor sign-in on and gives the recovery codes, once. */
  async confirmSetup(auth: AuthContext, code: string): Promise<RecoveryCodesResponse> {
    const codes = await this.db.write(async (m) => {
      const row = await m.findOneBy(AdminTotp, { userId: auth.user.id });
      if (row?.enabledAt) throw new ConflictException(refusal('error.twoFactorAlreadyOn'));
      if (!row) throw new BadRequestException(refusal('error.twoFactorNotStarted'));
      const secret = this.key.decrypt(row.totpSecret);
      if (!secret) throw new BadRequestException(refusal('error.twoFactorNotStarted'));
      const check = verifyTotp(secret, code, this.clock.now(), row.lastUsedStep);
      if (!check.ok) throw new BadRequestException(refusal(REASON_KEYS[check.reason], { field: 'code' }));
      const now = new Date();
      await m.update(AdminTotp, { userId: auth.user.id }, { enabledAt: now, lastUsedStep: check.step, updatedAt: now });
      return this.replaceRecoveryCodes(m, auth.user.id);
    });
    this.logger.log(`Two-factor sign-in turned on for admin ${auth.user.id}`);
    return { recoveryCodes: codes };
  }

  async disable(auth: AuthContext, dto: TwoFactorConfirmDto) {
    await this.confirmIdentity(auth, dto);
    await this.db.write((m) => removeTwoFactor(m, auth.user.id));
    this.logger.log(`Two-factor sign-in turned off by admin ${auth.user.id}`);
    return notice('notice.twoFactorDisabled');
  }

  async regenerateRecoveryCodes(auth: AuthContext, dto: TwoFactorConfirmDto): Promise<RecoveryCodesResponse> {
    await this.confirmIdentity(auth, dto);
    return { recoveryCodes: await this.db.write((m) => this.replaceRecoveryCodes(m, auth.user.id)) };
  }

  /** Another admin turns it off for someone who lost their device (and their recovery codes). */
  async resetFor(userId: number, auth: AuthContext) {
    if (userId === auth.user.id) throw new BadRequestException(refusal('error.twoFactorResetSelf'));
    await this.db.write(async (m) => {
      const user = await findOrFail(m, AdminUser, userId, 'error.userNotFound');
      // The main administrator is protected like its account: no other admin weakens its sign-in.
      if (user.isSuperadmin) throw new ForbiddenException(refusal('error.superadminTwoFactor'));
      if (!(await this.isEnabled(userId, m))) throw new ConflictException(refusal('error.twoFactorOff'));
      await removeTwoFactor(m, userId);
    });
    this.logger.log(`Two-factor sign-in of admin ${userId} reset by admin ${auth.user.id}`);
  }

  /** After a right password: a short-lived challenge for the code step instead of a session. */
  async challenge(user: AdminUser): Promise<never> {
    const token = newToken();
    const now = new Date();
    const expiresAt = new Date(now.getTime() + CHALLENGE_TTL_MS);
    await this.db.write(async (m) => {
      await m.delete(LoginChallenge, { userId: user.id, expiresAt: LessThan(now) });
      await m.insert(LoginChallenge, { id: hashToken(token), userId: user.id, expiresAt, createdAt: now });
    });
    throw new HttpException(
      {
        statusCode: HttpStatus.UNAUTHORIZED,
        ...refusal('error.twoFactorRequired'),
        challenge: token,
        challengeExpiresAt: expiresAt.toISOString(),
      },
      HttpStatus.UNAUTHORIZED,
    );
  }

  /** POST /api/admin/login/totp: the challenge and a code (or recovery code) give the session. */
  async completeLogin(dto: TotpLoginDto, clientIp: string) {
    const client = `login:ip:${clientIp}`;
    await this.limiter.consume(client, LIMITS.loginPerClient.limit, LIMITS.loginPerClient.windowMs);
    const id = /^[A-Za-z0-9_-]{20,100}$/.test(dto.challenge) ? hashToken(dto.challenge) : null;
    const pending = id ? await this.db.manager.findOneBy(LoginChallenge, { id, expiresAt: MoreThan(new Date()) }) : null;
    const user = pending ? await this.db.manager.findOneBy(AdminUser, { id: pending.userId, isActive: true }) : null;
    if (!pending || !user) throw new UnauthorizedException(refusal('error.twoFactorChallengeInvalid'));
    const account = loginAccountKey(user.username);
    await this.limiter.consume(account, LIMITS.loginPerAccount.limit, LIMITS.loginPerAccount.windowMs);

    try {
      await this.db.write(async (m) => {
        await this.useCode(m, user.id, dto.code);
        const claimed = await m.delete(LoginChallenge, { id: pending.id });
        if (!claimed.affected) throw new CodeRefused('error.twoFactorChallengeInvalid');
      });
    } catch (error) {
      if (error instanceof CodeRefused) {
        const field = error.key === 'error.twoFactorChallengeInvalid' ? {} : { field: 'code' };
        throw new UnauthorizedException(refusal(error.key, field));
      }
      throw error;
    }
    await this.limiter.reset(account);
    // Both steps of a successful sign-in are given back to the client's address.
    await this.limiter.refund(client);
    await this.limiter.refund(client);
    const sessionId = await this.sessions.create(user.id);
    return { user, sessionId };
  }

  /** Accepts a current TOTP code or an unused recovery code of the admin, once; throws CodeRefused. */
  private async useCode(m: EntityManager, userId: number, typed: string) {
    const row = await m.findOneBy(AdminTotp, { userId });
    if (!row?.enabledAt) throw new CodeRefused('error.twoFactorOff');
    const recovery = normalizeRecoveryCode(typed);
    if (recovery) {
      const used = await m
        .createQueryBuilder()
        .update(AdminRecoveryCode)
        .set({ usedAt: new Date() })
        .where('userId = :userId AND codeHash = :hash AND usedAt IS NULL', { userId, hash: hashRecoveryCode(recovery) })
        .execute();
      if (!used.affected) throw new CodeRefused('error.recoveryCodeInvalid');
      this.logger.log(`Admin ${userId} used a recovery code`);
      return;
    }
    const secret = this.key.decrypt(row.totpSecret);
    if (!secret) {
      this.logger.error(`The two-factor secret of admin ${userId} cannot be decrypted: TWO_FACTOR_KEY (or the key file) changed`);
      throw new CodeRefused('error.twoFactorUnavailable');
    }
    const check = verifyTotp(secret, typed, this.clock.now(), row.lastUsedStep);
    if (!check.ok) throw new CodeRefused(REASON_KEYS[check.reason]);
    // Conditional update: of two requests racing with one code, only one gets through.
    const claimed = await m
      .createQueryBuilder()
      .update(AdminTotp)
      .set({ lastUsedStep: check.step, updatedAt: new Date() })
      .where('userId = :userId AND (lastUsedStep IS NULL OR lastUsedStep < :step)', { userId, step: check.step })
      .execute();
    if (!claimed.affected) throw new CodeRefused('error.twoFactorCodeUsed');
  }

  /** A current code (or recovery code) or the password, for changes to one's own two-factor sign-in. */
  private async confirmIdentity(auth: AuthContext, dto: TwoFactorConfirmDto) {
    if (!(await this.isEnabled(auth.user.id))) throw new ConflictException(refusal('error.twoFactorOff'));
    const code = dto.code?.trim();
    const password = dto.password;
    if (!code && !password) throw new BadRequestException(refusal('validation.codeOrPasswordRequired', { field: 'code' }));
    await this.limiter.consume(`two-factor:user:${auth.user.id}`, CONFIRM_LIMIT.limit, CONFIRM_LIMIT.windowMs);
    if (code) {
      try {
        await this.db.write((m) => this.useCode(m, auth.user.id, code));
      } catch (error) {
        if (error instanceof CodeRefused) throw new BadRequestException(refusal(error.key, { field: 'code' }));
        throw error;
      }
    } else {
      const current = await this.db.manager
        .createQueryBuilder(AdminUser, 'u')
        .addSelect('u.passwordHash')
        .where('u.id = :id', { id: auth.user.id })
        .getOneOrFail();
      if (!(await verifyPassword(current.passwordHash, password!))) {
        throw new BadRequestException(refusal('validation.currentIncorrect', { field: 'password' }));
      }
    }
    await this.limiter.reset(`two-factor:user:${auth.user.id}`);
  }

  private async replaceRecoveryCodes(m: EntityManager, userId: number): Promise<string[]> {
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
    const now = new Date();
    await m.delete(AdminRecoveryCode, { userId });
    await m.insert(
      AdminRecoveryCode,
      codes.map((code) => ({ userId, codeHash: hashRecoveryCode(normalizeRecoveryCode(code)!), usedAt: null, createdAt: now })),
    );
    return codes;
  }
}

/** Turns an admin's two-factor sign-in off: its secret, recovery codes and pending code steps go. */
export async function removeTwoFactor(m: EntityManager, userId: number) {
  await m.delete(AdminRecoveryCode, { userId });
  await m.delete(LoginChallenge, { userId });
  await m.delete(AdminTotp, { userId });
}
