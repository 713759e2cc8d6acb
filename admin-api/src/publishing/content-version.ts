import { Injectable } from '@nestjs/common';

import { Db } from '../database/db.service.js';

export interface ReadVersions {
  /** Changes whenever public content changes: the newest outbox row (same transaction as every change). */
  content: number;
  /** Changes with every counted book download (book answers show the count). */
  downloads: number;
}

/**
 * What public answers depend on, read in one query. Shared by all API replicas because it lives
 * in the database.
 */
@Injectable()
export class ContentVersion {
  constructor(private readonly db: Db) {}

  async current(): Promise<ReadVersions> {
    const [row] = (await this.db.manager.query(
      `SELECT (SELECT MAX(id) FROM outbox_events) AS content, (SELECT value FROM read_counters WHERE name = 'downloads') AS downloads`,
    )) as { content: number | string | null; downloads: number | string | null }[];
    return { content: Number(row?.content ?? 0), downloads: Number(row?.downloads ?? 0) };
  }
}
