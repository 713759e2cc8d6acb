import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';

/** The kinds whose long texts may carry formatting: books and plays (description), essays and news (content). */
export const FORMATTED_TABLES = ['books', 'essays', 'news', 'plays'] as const;

/**
 * Formatted text: each item of those kinds says how its texts are written, `textFormat` 'plain' (every
 * existing row, and any client that leaves the field out: its text renders exactly as before) or
 * 'markdown'. Stored text is left as it is, so the API answers the same text it was given.
 * QueryRunner table API: runs on SQLite and MySQL/MariaDB.
 */
export class TextFormat1765410000000 implements MigrationInterface {
  name = 'TextFormat1765410000000';

  async up(qr: QueryRunner): Promise<void> {
    for (const table of FORMATTED_TABLES)
      await qr.addColumn(
        table,
        new TableColumn({ name: 'textFormat', type: 'varchar', length: '10', isNullable: false, default: "'plain'" }),
      );
  }

  async down(qr: QueryRunner): Promise<void> {
    for (const table of FORMATTED_TABLES) await qr.dropColumn(table, 'textFormat');
  }
}
