import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { Strategy } from 'passport-http-bearer';

import type { AuthContext } from './auth-context.js';
import { SessionsService } from './sessions.service.js';

@Injectable()
export class BearerStrategy extends PassportStrategy(Strategy, 'bearer') {
  constructor(private readonly sessions: SessionsService) {
    super();
  }

  async validate(token: string): Promise<AuthContext | false> {
    return (await this.sessions.resolve(token)) ?? false;
  }
}
