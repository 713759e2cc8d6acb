import { randomBytes } from 'node:crypto';
import os from 'node:os';

import type { EntityManager } from 'typeorm';

import type { Db } from '../database/db.service.js';

/** Names this process in lease rows (host, pid and a random part, so a restarted pid is someone else). */
export const PROCESS_OWNER = `${os.hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;

/**
 * A lease in the `leases` table: a row with an owner and an expiry, taken with one conditional
 * UPDATE, so of several API replicas exactly one holds it at a time. A holder that dies frees it
 * when `until` passes. Raw SQL with numbers only (portable, and libsql binds no Date).
 */
export class Lease {
  constructor(
    private readonly db: Db,
    readonly name: string,
    // One owner per holder object, not per process: two holders in one process (tests) are rivals too.
    readonly owner: string = `${PROCESS_OWNER}:${randomBytes(3).toString('hex')}`,
  ) {}

  private q(sql: string) {
    return portable(this.db, sql);
  }

  /**
   * Takes (or renews) the lease for `ttlMs`. Free means expired; `evenInBackoff` also takes a
   * lease that a holder released with a later `until` (a wait before the next retry).
   */
  async acquire(ttlMs: number, now = Date.now(), evenInBackoff = false): Promise<boolean> {
    await this.ensureRow();
    const sql = this.q(
      `UPDATE "leases" SET "owner" = ?, "until" = ? WHERE "name" = ? AND ("owner" = ? OR "until" < ?${evenInBackoff ? ' OR "owner" IS NULL' : ''})`,
    );
    return (await this.db.write((m) => run(m, sql, [this.owner, now + ttlMs, this.name, this.owner, now]))) === 1;
  }

  /** Gives the lease back; with `notBefore`, no replica takes it before then (retry backoff). */
  async release(notBefore = 0): Promise<void> {
    const sql = this.q(`UPDATE "leases" SET "owner" = NULL, "until" = ? WHERE "name" = ? AND "owner" = ?`);
    await this.db.write((m) => run(m, sql, [notBefore, this.name, this.owner]));
  }

  async holder(): Promise<{ owner: string | null; until: number } | null> {
    const rows = (await this.db.manager.query(this.q(`SELECT "owner", "until" FROM "leases" WHERE "name" = ?`), [this.name])) as {
      owner: string | null;
      until: string | number;
    }[];
    return rows[0] ? { owner: rows[0].owner, until: Number(rows[0].until) } : null;
  }

  private created = false;
  private async ensureRow() {
    if (this.created) return;
    const insert =
      this.db.dataSource.options.type === 'mysql'
        ? 'INSERT IGNORE INTO `leases` (`name`, `owner`, `until`) VALUES (?, NULL, 0)'
        : 'INSERT OR IGNORE INTO "leases" ("name", "owner", "until") VALUES (?, NULL, 0)';
    await this.db.write((m) => run(m, insert, [this.name]));
    this.created = true;
  }
}

/** Double-quoted identifiers as each database wants them. */
export function portable(db: Db, sql: string): string {
  return db.dataSource.options.type === 'mysql' ? sql.replace(/"/g, '`') : sql;
}

/** Runs a raw write inside `m`'s transaction and answers how many rows it changed. */
export async function run(m: EntityManager, sql: string, params: unknown[]): Promise<number> {
  const result = (await m.queryRunner!.query(sql, params, true)) as { affected?: number };
  return result.affected ?? 0;
}
