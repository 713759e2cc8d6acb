import { MigrationInterface, QueryRunner, Table } from 'typeorm';

/**
 * The state of backups, one row: when the last one ran and how it went (the overlay shows it),
 * when the next scheduled one is due, and a lease so that of several API replicas only one makes
 * it. QueryRunner table API: runs on SQLite and MySQL/MariaDB.
 */
export class Backups1764100000000 implements MigrationInterface {
  name = 'Backups1764100000000';

  async up(qr: QueryRunner): Promise<void> {
    const mysql = qr.connection.options.type === 'mysql';
    const datetime = (name: string, isNullable = true) => ({ name, type: 'datetime', isNullable, ...(mysql ? { precision: 3 } : {}) });
    await qr.createTable(
      new Table({
        name: 'backup_state',
        columns: [
          { name: 'name', type: 'varchar', length: '40', isPrimary: true },
          { name: 'leaseOwner', type: 'varchar', length: '100', isNullable: true },
          datetime('leaseUntil', false),
          datetime('nextRunAt'),
          datetime('lastStartedAt'),
          datetime('lastFinishedAt'),
          { name: 'lastOk', type: 'boolean', isNullable: true },
          { name: 'lastTrigger', type: 'varchar', length: '20', isNullable: true },
          { name: 'lastFile', type: 'varchar', length: '500', isNullable: true },
          { name: 'lastSize', type: 'bigint', isNullable: true },
          { name: 'lastError', type: 'varchar', length: '1000', isNullable: true },
          datetime('lastSuccessAt'),
          { name: 'lastSuccessFile', type: 'varchar', length: '500', isNullable: true },
          { name: 'lastSuccessSize', type: 'bigint', isNullable: true },
        ],
        ...(mysql ? { engine: 'InnoDB' } : {}),
      }),
    );
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.dropTable('backup_state');
  }
}
