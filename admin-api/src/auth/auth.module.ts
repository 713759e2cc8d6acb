import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { PassportModule } from '@nestjs/passport';

import { MailModule } from '../mail/mail.module.js';
import { AuthController } from './auth.controller.js';
import { AuthService } from './auth.service.js';
import { BearerStrategy } from './bearer.strategy.js';
import { RateLimiter } from './rate-limiter.js';
import { SessionAuthGuard } from './session-auth.guard.js';
import { SessionsService } from './sessions.service.js';
import { TwoFactorController } from './two-factor.controller.js';
import { TwoFactorService } from './two-factor.service.js';
import { TwoFactorKey } from './two-factor-key.js';

/** Sign-in, sessions and two-factor; its guard protects every route not marked public. */
@Module({
  imports: [PassportModule, MailModule],
  controllers: [AuthController, TwoFactorController],
  providers: [
    { provide: APP_GUARD, useClass: SessionAuthGuard },
    RateLimiter,
    SessionsService,
    BearerStrategy,
    AuthService,
    TwoFactorKey,
    TwoFactorService,
  ],
  exports: [RateLimiter, SessionsService, TwoFactorService, TwoFactorKey],
})
export class AuthModule {}
