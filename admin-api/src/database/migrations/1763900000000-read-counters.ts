import { MigrationInterface, QueryRunner, Table } from 'typeorm';

/**
 * Counters that change what public reads answer without being content changes (no rebuild):
 * `downloads` goes up with every counted book download, so cached public book answers are
 * renewed. QueryRunner table API: runs on SQLite and MySQL/MariaDB.
 */
export class ReadCounters1763900000000 implements MigrationInterface {
  name = 'ReadCounters1763900000000';

  async up(qr: QueryRunner): Promise<void> {
    const mysql = qr.connection.options.type === 'mysql';
    await qr.createTable(
      new Table({
        name: 'read_counters',
        columns: [
          { name: 'name', type: 'varchar', length: '40', isPrimary: true },
          { name: 'value', type: 'bigint', default: 0 },
        ],
        ...(mysql ? { engine: 'InnoDB' } : {}),
      }),
    );
    await qr.query(`INSERT INTO read_counters (name, value) VALUES ('downloads', 0)`);
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.dropTable('read_counters');
  }
}
