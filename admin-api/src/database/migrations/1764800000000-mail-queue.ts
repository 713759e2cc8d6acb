import { MigrationInterface, QueryRunner, Table } from 'typeorm';

/** The mail queue (mail/outgoing-mail.entity.ts). QueryRunner table API: runs on SQLite and MySQL/MariaDB. */
export class MailQueue1764800000000 implements MigrationInterface {
  name = 'MailQueue1764800000000';

  async up(qr: QueryRunner): Promise<void> {
    const mysql = qr.connection.options.type === 'mysql';
    await qr.createTable(
      new Table({
        name: 'mail_queue',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'recipient', type: 'varchar', length: '320' },
          { name: 'subject', type: 'varchar', length: '255' },
          { name: 'body', type: 'text' },
          { name: 'createdAt', type: 'bigint' },
          { name: 'dueAt', type: 'bigint' },
          { name: 'claimedBy', type: 'varchar', length: '100', isNullable: true },
          { name: 'attempts', type: 'int' },
          { name: 'failedAt', type: 'bigint', isNullable: true },
          { name: 'lastError', type: 'varchar', length: '500', isNullable: true },
        ],
        indices: [{ name: 'IDX_mail_queue_failedAt_dueAt', columnNames: ['failedAt', 'dueAt'] }],
        ...(mysql ? { engine: 'InnoDB' } : {}),
      }),
    );
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.dropTable('mail_queue');
  }
}
