import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';

/** The kinds that can be scheduled: they have a publication flag or state. Artworks have none. */
export const SCHEDULED_TABLES = ['books', 'essays', 'news', 'plays'] as const;

/**
 * Scheduled publishing: books, essays, news and plays gain `publishAt` (UTC; null = no schedule).
 * Until that time anonymous readers do not see the item; at that time the API's scheduler writes an
 * outbox row, so it goes live through the normal publishing path. The scheduler's progress (every
 * publishAt up to this time, in ms since the epoch, is announced) is one row of `read_counters`,
 * claimed with a conditional update so that of several API replicas exactly one writes each row.
 * QueryRunner table API: runs on SQLite and MySQL/MariaDB.
 */
export class PublishAt1764500000000 implements MigrationInterface {
  name = 'PublishAt1764500000000';

  async up(qr: QueryRunner): Promise<void> {
    const mysql = qr.connection.options.type === 'mysql';
    for (const table of SCHEDULED_TABLES) {
      await qr.addColumn(
        table,
        new TableColumn({ name: 'publishAt', type: 'datetime', isNullable: true, ...(mysql ? { precision: 3 } : {}) }),
      );
    }
    // No item has a publishAt yet: nothing before now is left to announce.
    await qr.query(`INSERT INTO read_counters (name, value) VALUES ('publishScheduledUpTo', ?)`, [Date.now()]);
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.query(`DELETE FROM read_counters WHERE name = 'publishScheduledUpTo'`);
    for (const table of SCHEDULED_TABLES) await qr.dropColumn(table, 'publishAt');
  }
}
