import { MigrationInterface, QueryRunner, Table } from 'typeorm';

/** The rebuild sender's log of attempts. QueryRunner table API: runs on SQLite and MySQL/MariaDB. */
export class PublishAttempts1763800000000 implements MigrationInterface {
  name = 'PublishAttempts1763800000000';

  async up(qr: QueryRunner): Promise<void> {
    const mysql = qr.connection.options.type === 'mysql';
    await qr.createTable(
      new Table({
        name: 'publish_attempts',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'idempotencyKey', type: 'varchar', length: '100' },
          { name: 'reason', type: 'varchar', length: '20' },
          { name: 'firstEventId', type: 'int', isNullable: true },
          { name: 'lastEventId', type: 'int', isNullable: true },
          { name: 'changeCount', type: 'int' },
          { name: 'attempt', type: 'int' },
          { name: 'startedAt', type: 'datetime', ...(mysql ? { precision: 3 } : {}) },
          { name: 'durationMs', type: 'int' },
          { name: 'statusCode', type: 'int', isNullable: true },
          { name: 'succeeded', type: 'boolean' },
          { name: 'error', type: 'varchar', length: '500', isNullable: true },
        ],
        indices: [{ name: 'IDX_publish_attempts_succeeded_id', columnNames: ['succeeded', 'id'] }],
        ...(mysql ? { engine: 'InnoDB' } : {}),
      }),
    );
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.dropTable('publish_attempts');
  }
}
