import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';

@Injectable()
export class Db {
  private writeQueue: Promise<unknown> = Promise.resolve();

  constructor(readonly dataSource: DataSource) {}

  get manager(): EntityManager {
    return this.dataSource.manager;
  }

  /**
   * Runs `work` in one transaction: saved whole or not at all. TypeORM's SQLite driver shares a
   * single connection, so concurrent transactions would nest into each other's; on SQLite the
   * writes therefore queue up one after another (SQLite allows one writer anyway).
   */
  write<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    if (this.dataSource.options.type !== 'better-sqlite3') return this.dataSource.transaction(work);
    const run = this.writeQueue.then(() => retryWhenBusy(() => this.dataSource.transaction(work)));
    this.writeQueue = run.catch(() => undefined);
    return run;
  }
}

/**
 * Another process writing the same SQLite file (a second replica, a backup) can make a transaction
 * that read before it writes fail at once with SQLITE_BUSY: the busy timeout cannot wait there
 * without a deadlock. The transaction was rolled back whole, so it is run again, a few times.
 */
async function retryWhenBusy<T>(run: () => Promise<T>, tries = 5): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      if (attempt >= tries || !isBusy(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 10 * 2 ** attempt));
    }
  }
}

function isBusy(error: unknown): boolean {
  const e = error as { code?: unknown; driverError?: { code?: unknown }; message?: unknown };
  return /^SQLITE_BUSY/.test(String(e?.code ?? e?.driverError?.code ?? '')) || /database is locked/.test(String(e?.message ?? ''));
}
