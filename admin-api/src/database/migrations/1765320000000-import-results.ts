import { type MigrationInterface, type QueryRunner, TableColumn } from 'typeorm';

/** Import jobs: what the apply saved (the overlay links to it), and how many runs started without ending. */
export class ImportResults1765320000000 implements MigrationInterface {
  name = 'ImportResults1765320000000';

  async up(qr: QueryRunner): Promise<void> {
    const mysql = qr.connection.options.type === 'mysql';
    await qr.addColumn('import_jobs', new TableColumn({ name: 'results', type: mysql ? 'longtext' : 'text', isNullable: true }));
    await qr.addColumn('import_jobs', new TableColumn({ name: 'attempts', type: 'int', default: 0 }));
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.dropColumn('import_jobs', 'attempts');
    await qr.dropColumn('import_jobs', 'results');
  }
}
