import { HttpException, HttpStatus, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

import { refusal } from '../common/api-message.js';
import { portable, run } from '../common/lease.js';
import { Db } from '../database/db.service.js';

const MINUTE = 60_000;
/** Sign-in (both steps of a two-factor sign-in count) and password-reset limits. */
export const LIMITS = {
  loginPerAccount: { limit: 5, windowMs: 15 * MINUTE },
  loginPerClient: { limit: 20, windowMs: 15 * MINUTE },
  resetPerAccount: { limit: 3, windowMs: 60 * MINUTE },
  resetPerClient: { limit: 10, windowMs: 15 * MINUTE },
};

/** The counter of failed sign-ins of an account (also wrong current passwords of a password change). */
export const loginAccountKey = (username: string) => `login:user:${username.trim().toLowerCase()}`;

/**
 * Fixed-window counters kept in the database (table `rate_limits`, one row per key), so every
 * API replica counts against the same numbers: each attempt is one atomic upsert that starts a new
 * window or adds one, then reads the row back in the same transaction.
 */
@Injectable()
export class RateLimiter {
  private sinceSweep = 0;

  constructor(private readonly db: Db) {}

  private get mysql() {
    return this.db.dataSource.options.type === 'mysql';
  }

  /** Throws 429 with Retry-After when `key` already used up `limit` in its window. */
  async check(key: string, limit: number) {
    const rows = (await this.db.manager.query(
      portable(this.db, 'SELECT "count", "resetAt" FROM "rate_limits" WHERE "key" = ? AND "resetAt" > ?'),
      [key, Date.now()],
    )) as Row[];
    const row = rows[0];
    if (row && Number(row.count) >= limit) throw tooMany(Number(row.resetAt));
  }

  /**
   * Counts this attempt first, then refuses it when it goes over `limit`: requests running in
   * parallel (on any replica) cannot all slip past a check made before their slow work finishes.
   */
  async consume(key: string, limit: number, windowMs: number) {
    const over = await this.db.write(async (m) => {
      const row = await this.count(m, key, windowMs);
      if (Number(row.count) <= limit) return null;
      // Refused attempts do not extend the lock-out.
      await run(m, portable(this.db, 'UPDATE "rate_limits" SET "count" = ? WHERE "key" = ?'), [limit, key]);
      return Number(row.resetAt);
    });
    if (over !== null) throw tooMany(over);
  }

  async hit(key: string, windowMs: number) {
    await this.db.write((m) => this.count(m, key, windowMs));
  }

  /** Gives back one attempt (a successful login does not count against the client's address). */
  async refund(key: string) {
    const sql = portable(this.db, 'UPDATE "rate_limits" SET "count" = "count" - 1 WHERE "key" = ? AND "count" > 0 AND "resetAt" > ?');
    await this.db.write((m) => run(m, sql, [key, Date.now()]));
  }

  async reset(key: string) {
    await this.db.write((m) => run(m, portable(this.db, 'DELETE FROM "rate_limits" WHERE "key" = ?'), [key]));
  }

  private async count(m: EntityManager, key: string, windowMs: number): Promise<Row> {
    const now = Date.now();
    const upsert = this.mysql
      ? 'INSERT INTO `rate_limits` (`key`, `count`, `resetAt`) VALUES (?, 1, ?) ON DUPLICATE KEY UPDATE `count` = IF(`resetAt` <= ?, 1, `count` + 1), `resetAt` = IF(`resetAt` <= ?, VALUES(`resetAt`), `resetAt`)'
      : 'INSERT INTO "rate_limits" ("key", "count", "resetAt") VALUES (?, 1, ?) ON CONFLICT("key") DO UPDATE SET "count" = CASE WHEN "resetAt" <= ? THEN 1 ELSE "count" + 1 END, "resetAt" = CASE WHEN "resetAt" <= ? THEN excluded."resetAt" ELSE "resetAt" END';
    await run(m, upsert, [key, now + windowMs, now, now]);
    const rows = (await m.query(portable(this.db, 'SELECT "count", "resetAt" FROM "rate_limits" WHERE "key" = ?'), [key])) as Row[];
    if (++this.sinceSweep >= 1000) {
      this.sinceSweep = 0;
      await run(m, portable(this.db, 'DELETE FROM "rate_limits" WHERE "resetAt" < ?'), [now]);
    }
    return rows[0]!;
  }
}

interface Row {
  count: number | string;
  resetAt: number | string;
}

function tooMany(resetAt: number) {
  const retryAfter = Math.max(1, Math.ceil((resetAt - Date.now()) / 1000));
  const minutes = Math.ceil(retryAfter / 60);
  return new HttpException(
    {
      statusCode: HttpStatus.TOO_MANY_REQUESTS,
      ...(minutes === 1 ? refusal('error.tooManyAttemptsOneMinute') : refusal('error.tooManyAttempts', { params: { minutes } })),
      retryAfter,
    },
    HttpStatus.TOO_MANY_REQUESTS,
  );
}
