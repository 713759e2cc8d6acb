import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';

const TABLES = ['books', 'essays', 'artworks', 'news', 'plays'];

/**
 * Content in two languages: every content table gains `contentLanguage` ('en' | 'ar', null =
 * detected from the text) and `translations` (JSON text of the other language's fields; null is
 * read as none). QueryRunner table API: runs on SQLite and MySQL/MariaDB.
 */
export class Translations1764300000000 implements MigrationInterface {
  name = 'Translations1764300000000';

  async up(qr: QueryRunner): Promise<void> {
    const mysql = qr.connection.options.type === 'mysql';
    for (const table of TABLES) {
      await qr.addColumns(table, [
        new TableColumn({ name: 'contentLanguage', type: 'varchar', length: '2', isNullable: true }),
        new TableColumn({ name: 'translations', type: mysql ? 'longtext' : 'text', isNullable: true }),
      ]);
    }
  }

  async down(qr: QueryRunner): Promise<void> {
    for (const table of TABLES) {
      await qr.dropColumn(table, 'translations');
      await qr.dropColumn(table, 'contentLanguage');
    }
  }
}
