import { BadRequestException, Inject, Injectable, Logger, UnauthorizedException } from '@nestjs/common';
import { type EntityManager, MoreThan } from 'typeorm';

import { notice, refusal } from '../common/api-message.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { Db } from '../database/db.service.js';
import { MailQueue } from '../mail/mail-queue.js';
import { AdminUser } from './admin-user.entity.js';
import type { AuthContext } from './auth-context.js';
import { ChangePasswordDto } from './dto/change-password.dto.js';
import { LoginDto } from './dto/login.dto.js';
import { ResetPasswordDto } from './dto/reset-password.dto.js';
import { LoginChallenge } from './login-challenge.entity.js';
import { PasswordResetToken } from './password-reset-token.entity.js';
import { hashPassword, timingDummyHash, verifyPassword } from './passwords.js';
import { loginAccountKey, RateLimiter } from './rate-limiter.js';
import { LIMITS } from './rate-limiter.js';
import { SessionsService } from './sessions.service.js';
import { hashToken, newToken } from './tokens.js';
import { TwoFactorService } from './two-factor.service.js';

export { LIMITS };
const MINUTE = 60_000;
const RESET_TOKEN_TTL_MS = 60 * MINUTE;

@Injectable()
export class AuthService {
  private readonly logger = new Logger('Auth');

  constructor(
    private readonly db: Db,
    private readonly sessions: SessionsService,
    private readonly limiter: RateLimiter,
    private readonly mail: MailQueue,
    private readonly twoFactor: TwoFactorService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async login(dto: LoginDto, clientIp: string) {
    const account = loginAccountKey(dto.username);
    const client = `login:ip:${clientIp}`;
    await this.limiter.consume(client, LIMITS.loginPerClient.limit, LIMITS.loginPerClient.windowMs);
    await this.limiter.consume(account, LIMITS.loginPerAccount.limit, LIMITS.loginPerAccount.windowMs);

    const user = await this.db.manager
      .createQueryBuilder(AdminUser, 'u')
      .addSelect('u.passwordHash')
      .where('LOWER(u.username) = :username', { username: dto.username.trim().toLowerCase() })
      .getOne();
    const valid = await verifyPassword(user?.passwordHash ?? (await timingDummyHash()), dto.password);
    if (!user || !valid || !user.isActive) throw new UnauthorizedException(refusal('error.invalidCredentials'));
    // With two-factor sign-in the attempt stays counted until the code step succeeds, so the
    // password step cannot be used to reset the limit on guessing codes.
    if (await this.twoFactor.isEnabled(user.id)) return this.twoFactor.challenge(user);
    await this.limiter.reset(account);
    await this.limiter.refund(client);
    const sessionId = await this.sessions.create(user.id);
    return { user, sessionId };
  }

  logout(auth: AuthContext) {
    return this.sessions.end(auth.sessionId);
  }

  async changePassword(auth: AuthContext, dto: ChangePasswordDto) {
    // A wrong current password counts as a failed sign-in of the account: a stolen session must
    // not become a way round the login limit to guess the password.
    const account = loginAccountKey(auth.user.username);
    await this.limiter.consume(account, LIMITS.loginPerAccount.limit, LIMITS.loginPerAccount.windowMs);
    const current = await this.db.manager
      .createQueryBuilder(AdminUser, 'u')
      .addSelect('u.passwordHash')
      .where('u.id = :id', { id: auth.user.id })
      .getOneOrFail();
    if (!(await verifyPassword(current.passwordHash, dto.currentPassword))) {
      throw new BadRequestException(refusal('validation.currentIncorrect', { field: 'currentPassword' }));
    }
    await this.limiter.reset(account);
    const passwordHash = await hashPassword(dto.newPassword);
    await this.db.write(async (m) => {
      await m.update(AdminUser, { id: auth.user.id }, { passwordHash, updatedAt: new Date() });
      await this.sessions.endAllFor(auth.user.id, m, auth.sessionId);
      await endResetLinks(m, auth.user.id);
    });
    return notice('notice.passwordChanged');
  }

  /** Always answers the same, so the form cannot be used to find out which addresses are admins. */
  async forgotPassword(email: string, clientIp: string) {
    const normalized = email.trim().toLowerCase();
    await this.limiter.consume(`reset:ip:${clientIp}`, LIMITS.resetPerClient.limit, LIMITS.resetPerClient.windowMs);
    await this.limiter.consume(`reset:email:${normalized}`, LIMITS.resetPerAccount.limit, LIMITS.resetPerAccount.windowMs);

    const user = await this.db.manager
      .createQueryBuilder(AdminUser, 'u')
      .where('LOWER(u.email) = :email', { email: normalized })
      .andWhere('u.isActive = :active', { active: true })
      .getOne();
    if (user) {
      const token = newToken();
      const now = new Date();
      // The token travels in the fragment, which browsers never send to servers or write to access logs.
      const link = `${this.config.publicUrl}/#reset-password=${token}`;
      // Queued, not sent: the answer must not wait for the mail server, or its time would tell
      // which addresses are admins'.
      await this.db.write(async (m) => {
        await m.insert(PasswordResetToken, {
          id: hashToken(token),
          userId: user.id,
          createdAt: now,
          expiresAt: new Date(now.getTime() + RESET_TOKEN_TTL_MS),
          usedAt: null,
        });
        await this.mail.enqueue(m, {
          to: user.email,
          subject: 'Reset your admin password',
          text: [
            `Hello ${user.name},`,
            '',
            'Someone asked to reset the password of your admin account. To choose a new password, open this link within one hour:',
            '',
            link,
            '',
            'If it was not you, ignore this message: your password stays as it is.',
          ].join('\n'),
        });
      });
      this.mail.wake();
    } else {
      this.logger.log('Password reset requested for an address that is not an active admin');
    }
    return notice('notice.resetLinkSent');
  }

  async resetPassword(dto: ResetPasswordDto, clientIp: string) {
    await this.limiter.consume(`reset-confirm:ip:${clientIp}`, LIMITS.resetPerClient.limit, LIMITS.resetPerClient.windowMs);
    const invalid = () => new BadRequestException(refusal('error.resetLinkInvalid', { field: 'token' }));
    const id = hashToken(dto.token.trim());
    const passwordHash = await hashPassword(dto.password);
    const done = await this.db.write(async (m) => {
      const token = await m.findOneBy(PasswordResetToken, { id, expiresAt: MoreThan(new Date()) });
      if (!token || token.usedAt) return false;
      const user = await m.findOneBy(AdminUser, { id: token.userId, isActive: true });
      if (!user) return false;
      // Conditional update: of two requests racing with one token, only one can succeed.
      const claimed = await m
        .createQueryBuilder()
        .update(PasswordResetToken)
        .set({ usedAt: new Date() })
        .where('id = :id AND usedAt IS NULL', { id })
        .execute();
      if (!claimed.affected) return false;
      await m.update(AdminUser, { id: user.id }, { passwordHash, updatedAt: new Date() });
      await this.sessions.endAllFor(user.id, m);
      // The user's other links were asked for before this reset: none may set the password again.
      await endResetLinks(m, user.id);
      // Sign-ins waiting for their two-factor code began with the old password: they end too.
      await m.delete(LoginChallenge, { userId: user.id });
      return true;
    });
    if (!done) throw invalid();
    return notice('notice.passwordReset');
  }
}

/** Ends every reset link of the user that is still usable. */
function endResetLinks(m: EntityManager, userId: number) {
  return m
    .createQueryBuilder()
    .update(PasswordResetToken)
    .set({ usedAt: new Date() })
    .where('userId = :userId AND usedAt IS NULL', { userId })
    .execute();
}
