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
   * writes therefore queue up one after another (SQLite allows one writer anyway). Each begins
   * IMMEDIATE (see data-source.ts), so a write of another process is waited for, not failed.
   */
  write<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    if (this.dataSource.options.type !== 'better-sqlite3') return this.dataSource.transaction(work);
    const run = this.writeQueue.then(() => this.dataSource.transaction(work));
    this.writeQueue = run.catch(() => undefined);
    return run;
  }
}
