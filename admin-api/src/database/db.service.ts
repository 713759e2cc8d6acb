import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, type EntityTarget, type ObjectLiteral } from 'typeorm';

/**
 * The writes waiting for each SQLite file in this process. Shared by every connection of the process
 * to that file: a transaction waiting for SQLite's lock blocks the thread (the driver is synchronous),
 * so a second connection here must never wait for one that this same thread holds.
 */
const writeQueues = new Map<string, Promise<unknown>>();

@Injectable()
export class Db {
  constructor(readonly dataSource: DataSource) {}

  get manager(): EntityManager {
    return this.dataSource.manager;
  }

  /**
   * Runs `work` in one transaction: saved whole or not at all. TypeORM's SQLite driver shares a
   * single connection, so concurrent transactions would nest into each other's; on SQLite the
   * writes therefore queue up one after another, per file (SQLite allows one writer anyway). Each begins
   * IMMEDIATE (see data-source.ts), so a write of another process is waited for, not failed.
   */
  write<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    if (this.dataSource.options.type !== 'better-sqlite3') return this.dataSource.transaction(work);
    const file = String(this.dataSource.options.database);
    const run = (writeQueues.get(file) ?? Promise.resolve()).then(() => this.dataSource.transaction(work));
    writeQueues.set(
      file,
      run.catch(() => undefined),
    );
    return run;
  }
}

/**
 * Inserts many rows in one statement, without TypeORM's reload of the new rows. That reload's SQL
 * names the new ids, so on SQLite each insert prepared a statement of its own, whose native memory
 * stays until V8 collects it: 10,000 subscribers imported one `insert` at a time grew the API by
 * 71 MB (infra/bench/newsletter.mjs).
 */
export async function insertRows<T extends ObjectLiteral>(m: EntityManager, target: EntityTarget<T>, rows: Partial<T>[]) {
  if (!rows.length) return;
  await m
    .createQueryBuilder()
    .insert()
    .into(target)
    .values(rows as never)
    .callListeners(false)
    .updateEntity(false)
    .execute();
}
