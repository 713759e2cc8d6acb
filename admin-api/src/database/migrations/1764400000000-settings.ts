import { MigrationInterface, QueryRunner, Table, type TableColumnOptions } from 'typeorm';

/**
 * The site settings: the author's own details that every page shows (names, biography, contact,
 * footer), one row with id 1. The row is seeded at start from the SITE_* variables, not here: the
 * environment is read in config.ts only. QueryRunner table API: runs on SQLite and MySQL/MariaDB.
 */
export class Settings1764400000000 implements MigrationInterface {
  name = 'Settings1764400000000';

  async up(qr: QueryRunner): Promise<void> {
    const mysql = qr.connection.options.type === 'mysql';
    const varchar = (name: string, length: number, isNullable = false): TableColumnOptions => ({
      name,
      type: 'varchar',
      length: String(length),
      isNullable,
    });
    const text = (name: string): TableColumnOptions => ({ name, type: mysql ? 'mediumtext' : 'text', isNullable: false });
    await qr.createTable(
      new Table({
        name: 'site_settings',
        columns: [
          { name: 'id', type: 'int', isPrimary: true },
          varchar('authorNameEn', 200),
          varchar('authorNameAr', 200),
          varchar('subtitleEn', 300, true),
          varchar('subtitleAr', 300, true),
          varchar('quoteEn', 1000, true),
          varchar('quoteAr', 1000, true),
          text('biographyEn'),
          text('biographyAr'),
          varchar('portraitImage', 2000, true),
          varchar('contactEmail', 254),
          varchar('locationEn', 200, true),
          varchar('locationAr', 200, true),
          text('socialLinks'),
          varchar('footerCreditName', 200, true),
          varchar('footerCreditUrl', 2000, true),
          { name: 'copyrightYear', type: 'int' },
          varchar('siteUrl', 2000),
          { name: 'updatedAt', type: 'datetime', ...(mysql ? { precision: 3 } : {}) },
          { name: 'lastUpdatedByUserId', type: 'int', isNullable: true },
        ],
        ...(mysql ? { engine: 'InnoDB' } : {}),
      }),
    );
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.dropTable('site_settings');
  }
}
