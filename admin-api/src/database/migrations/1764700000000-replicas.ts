import { MigrationInterface, QueryRunner, Table } from 'typeorm';

/**
 * What several API replicas share: rate-limit counters (one row per key and window) and leases
 * (one row per job that only one process may run at a time, such as sending rebuild requests).
 * Times are epoch milliseconds in bigint columns, so the atomic upserts bind plain numbers on
 * both databases. QueryRunner table API: runs on SQLite and MySQL/MariaDB.
 */
export class Replicas1764700000000 implements MigrationInterface {
  name = 'Replicas1764700000000';

  async up(qr: QueryRunner): Promise<void> {
    const mysql = qr.connection.options.type === 'mysql';
    await qr.createTable(
      new Table({
        name: 'rate_limits',
        columns: [
          { name: 'key', type: 'varchar', length: '255', isPrimary: true },
          { name: 'count', type: 'int', isNullable: false },
          { name: 'resetAt', type: 'bigint', isNullable: false },
        ],
        indices: [{ name: 'IDX_rate_limits_resetAt', columnNames: ['resetAt'] }],
        ...(mysql ? { engine: 'InnoDB' } : {}),
      }),
    );
    await qr.createTable(
      new Table({
        name: 'leases',
        columns: [
          { name: 'name', type: 'varchar', length: '60', isPrimary: true },
          { name: 'owner', type: 'varchar', length: '100', isNullable: true },
          { name: 'until', type: 'bigint', isNullable: false },
        ],
        ...(mysql ? { engine: 'InnoDB' } : {}),
      }),
    );
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.dropTable('leases');
    await qr.dropTable('rate_limits');
  }
}
