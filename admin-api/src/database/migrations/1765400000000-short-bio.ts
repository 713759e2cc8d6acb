import { type MigrationInterface, type QueryRunner, TableColumn } from 'typeorm';

/**
 * Issue 33: the author's short bio in both languages (the bio box at the end of essays and news).
 * Null on an existing install: the box then shows the biography's first sentences.
 */
export class ShortBio1765400000000 implements MigrationInterface {
  name = 'ShortBio1765400000000';

  async up(qr: QueryRunner): Promise<void> {
    await qr.addColumns('site_settings', [
      new TableColumn({ name: 'shortBioEn', type: 'varchar', length: '500', isNullable: true }),
      new TableColumn({ name: 'shortBioAr', type: 'varchar', length: '500', isNullable: true }),
    ]);
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.dropColumn('site_settings', 'shortBioAr');
    await qr.dropColumn('site_settings', 'shortBioEn');
  }
}
