import { Injectable } from '@nestjs/common';
import { Db } from '../database/db.service.js';
import { OutboxEvent } from './outbox-event.entity.js';

/**
 * A number that changes whenever public content changes: the newest outbox row, written in the
 * same transaction as every change. Shared by all API replicas because it lives in the database.
 */
@Injectable()
export class ContentVersion {
  constructor(private readonly db: Db) {}

  async current(): Promise<number> {
    const row = await this.db.manager.createQueryBuilder(OutboxEvent, 'e').select('MAX(e.id)', 'v').getRawOne<{ v: number | string | null }>();
    return Number(row?.v ?? 0);
  }
}
