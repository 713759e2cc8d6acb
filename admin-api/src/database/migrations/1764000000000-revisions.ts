import { MigrationInterface, QueryRunner, Table } from 'typeorm';

/**
 * The saved versions of books, essays, artworks, news and plays (ContentRevision). No foreign
 * key to the items: a play removed for good keeps its history. Items that existed before this
 * migration get their first revision (a 'baseline' of the state before) at their next save.
 * QueryRunner table API: runs on SQLite and MySQL/MariaDB.
 */
export class Revisions1764000000000 implements MigrationInterface {
  name = 'Revisions1764000000000';

  async up(qr: QueryRunner): Promise<void> {
    const mysql = qr.connection.options.type === 'mysql';
    await qr.createTable(
      new Table({
        name: 'content_revisions',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'kind', type: 'varchar', length: '20' },
          { name: 'entityId', type: 'int' },
          { name: 'revision', type: 'int' },
          { name: 'action', type: 'varchar', length: '20' },
          { name: 'userId', type: 'int', isNullable: true },
          { name: 'username', type: 'varchar', length: '50', isNullable: true },
          { name: 'createdAt', type: 'datetime', ...(mysql ? { precision: 3 } : {}) },
          { name: 'changedFields', type: 'text' },
          { name: 'restoredFrom', type: 'int', isNullable: true },
          { name: 'snapshot', type: mysql ? 'longtext' : 'text' },
        ],
        indices: [
          { name: 'UQ_content_revisions_item_revision', columnNames: ['kind', 'entityId', 'revision'], isUnique: true },
          { name: 'IDX_content_revisions_kind_action', columnNames: ['kind', 'action'] },
        ],
        ...(mysql ? { engine: 'InnoDB' } : {}),
      }),
    );
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.dropTable('content_revisions');
  }
}
