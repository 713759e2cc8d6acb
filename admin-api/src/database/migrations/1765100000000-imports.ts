import { type MigrationInterface, type QueryRunner, Table, TableColumn } from 'typeorm';

/** Imports of other blogs' exports (import/): the jobs, the memory of imported items, and the outbox's full-publish rows. */
export class Imports1765100000000 implements MigrationInterface {
  name = 'Imports1765100000000';

  async up(qr: QueryRunner): Promise<void> {
    const mysql = qr.connection.options.type === 'mysql';
    const json = (name: string) => ({ name, type: mysql ? 'longtext' : 'text' });
    const datetime = (name: string, isNullable = false) => ({ name, type: 'datetime', isNullable, ...(mysql ? { precision: 3 } : {}) });
    await qr.createTable(
      new Table({
        name: 'import_jobs',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'state', type: 'varchar', length: '20' },
          { name: 'format', type: 'varchar', length: '20' },
          { name: 'fileName', type: 'varchar', length: '255' },
          { name: 'storedName', type: 'varchar', length: '255' },
          datetime('createdAt'),
          datetime('finishedAt', true),
          { name: 'createdByUserId', type: 'int', isNullable: true },
          json('mapping'),
          json('report'),
          { name: 'itemsDone', type: 'int', default: 0 },
          { name: 'itemsTotal', type: 'int', default: 0 },
          { name: 'imagesDone', type: 'int', default: 0 },
          { name: 'imagesTotal', type: 'int', default: 0 },
          json('applyWarnings'),
          json('images'),
          { name: 'error', type: 'varchar', length: '1000', isNullable: true },
        ],
        ...(mysql ? { engine: 'InnoDB' } : {}),
      }),
    );
    await qr.createTable(
      new Table({
        name: 'imported_items',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'source', type: 'varchar', length: '255' },
          { name: 'sourceId', type: 'varchar', length: '255' },
          { name: 'kind', type: 'varchar', length: '20' },
          { name: 'itemId', type: 'int' },
          { name: 'digest', type: 'varchar', length: '64' },
          datetime('importedAt'),
        ],
        uniques: [{ name: 'UQ_imported_items_source_sourceId', columnNames: ['source', 'sourceId'] }],
        ...(mysql ? { engine: 'InnoDB' } : {}),
      }),
    );
    await qr.addColumn('outbox_events', new TableColumn({ name: 'fullPublish', type: 'boolean', default: 0 }));
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.dropColumn('outbox_events', 'fullPublish');
    await qr.dropTable('imported_items');
    await qr.dropTable('import_jobs');
  }
}
