import { ExecutionContext, Injectable, UnauthorizedException } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';

import { refusal } from '../common/api-message.js';
import { IS_PUBLIC } from './auth-context.js';

/**
 * Global guard: every route needs a valid admin session unless marked @Public(). On public
 * routes a valid token still identifies the admin, and an invalid one is simply anonymous.
 */
@Injectable()
export class SessionAuthGuard extends AuthGuard('bearer') {
  constructor(private readonly reflector: Reflector) {
    super();
  }

  handleRequest<T>(error: unknown, user: T, _info: unknown, context: ExecutionContext): T {
    if (error) throw error;
    if (user) return user;
    const isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()]);
    if (isPublic) return null as T;
    throw new UnauthorizedException(refusal('error.authenticationRequired'));
  }
}
