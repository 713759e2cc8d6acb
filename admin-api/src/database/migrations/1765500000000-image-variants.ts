import { MigrationInterface, QueryRunner, Table } from 'typeorm';

/**
 * The image variant jobs (image-variants/image-variant-job.entity.ts) and the record of which
 * recipe the one-time backfill of older uploads has run for. QueryRunner table API: runs on SQLite and MySQL/MariaDB.
 */
export class ImageVariants1765500000000 implements MigrationInterface {
  name = 'ImageVariants1765500000000';

  async up(qr: QueryRunner): Promise<void> {
    const mysql = qr.connection.options.type === 'mysql';
    await qr.createTable(
      new Table({
        name: 'image_variant_jobs',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'path', type: 'varchar', length: '255', isUnique: true },
          { name: 'recipe', type: 'varchar', length: '100' },
          { name: 'state', type: 'varchar', length: '10' },
          { name: 'attempts', type: 'int' },
          { name: 'dueAt', type: 'bigint' },
          { name: 'claimedBy', type: 'varchar', length: '100', isNullable: true },
          { name: 'lastError', type: 'varchar', length: '500', isNullable: true },
          { name: 'createdAt', type: 'bigint' },
          { name: 'updatedAt', type: 'bigint' },
        ],
        indices: [{ name: 'IDX_image_variant_jobs_state_dueAt', columnNames: ['state', 'dueAt'] }],
        ...(mysql ? { engine: 'InnoDB' } : {}),
      }),
    );
    await qr.createTable(
      new Table({
        name: 'image_variant_backfills',
        columns: [
          { name: 'recipe', type: 'varchar', length: '100', isPrimary: true },
          { name: 'doneAt', type: 'bigint' },
        ],
        ...(mysql ? { engine: 'InnoDB' } : {}),
      }),
    );
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.dropTable('image_variant_backfills');
    await qr.dropTable('image_variant_jobs');
  }
}
