import { Inject, Injectable } from '@nestjs/common';
import { EntityManager, LessThan, MoreThan, Not } from 'typeorm';

import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { Db } from '../database/db.service.js';
import { AdminSession } from './admin-session.entity.js';
import { AdminUser } from './admin-user.entity.js';
import type { AuthContext } from './auth-context.js';
import { hashToken, newToken } from './tokens.js';

const HOUR = 3_600_000;

/**
 * Bearer sessions. Lifetime SESSION_TTL_HOURS (default 7 days), extended when an admin keeps
 * working past half of it, so an active author is not signed out mid-edit.
 */
@Injectable()
export class SessionsService {
  constructor(
    private readonly db: Db,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  private get ttlMs() {
    return this.config.sessionTtlHours * HOUR;
  }

  async create(userId: number): Promise<string> {
    const token = newToken();
    const now = new Date();
    await this.db.write(async (m) => {
      await m.delete(AdminSession, { userId, expiresAt: LessThan(now) });
      await m.insert(AdminSession, { id: hashToken(token), userId, createdAt: now, expiresAt: new Date(now.getTime() + this.ttlMs) });
    });
    return token;
  }

  /** The admin behind a bearer token, or null when it is unknown, expired or the user inactive. */
  async resolve(token: string): Promise<AuthContext | null> {
    if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return null;
    const id = hashToken(token);
    const session = await this.db.manager.findOneBy(AdminSession, { id, expiresAt: MoreThan(new Date()) });
    if (!session) return null;
    const user = await this.db.manager.findOneBy(AdminUser, { id: session.userId, isActive: true });
    if (!user) return null;
    const remaining = session.expiresAt.getTime() - Date.now();
    if (remaining < this.ttlMs / 2) {
      await this.db.write((m) => m.update(AdminSession, { id }, { expiresAt: new Date(Date.now() + this.ttlMs) }));
    }
    return { user, sessionId: id };
  }

  async end(sessionId: string) {
    await this.db.write((m) => m.delete(AdminSession, { id: sessionId }));
  }

  /** Ends every session of a user (deactivation, password reset), or all but one (password change). */
  async endAllFor(userId: number, manager: EntityManager, exceptSessionId?: string) {
    await manager.delete(AdminSession, exceptSessionId ? { userId, id: Not(exceptSessionId) } : { userId });
  }
}
