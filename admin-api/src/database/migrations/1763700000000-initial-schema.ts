import { MigrationInterface, QueryRunner, Table, TableForeignKey, TableIndex } from 'typeorm';
import type { TableColumnOptions } from 'typeorm/schema-builder/options/TableColumnOptions.js';

/** Written with the QueryRunner table API so the same migration runs on SQLite and MySQL/MariaDB. */
export class InitialSchema1763700000000 implements MigrationInterface {
  name = 'InitialSchema1763700000000';

  async up(qr: QueryRunner): Promise<void> {
    const mysql = qr.connection.options.type === 'mysql';
    if (mysql) {
      // Arabic text needs utf8mb4; a database created with the server default may be latin1.
      await qr.query('ALTER DATABASE CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci');
    }
    const c = columns(mysql);
    const content = [
      c.bool('isDeleted', false),
      c.datetime('createdAt'),
      c.datetime('updatedAt'),
      c.datetime('deletedAt', true),
      c.int('createdByUserId', true),
      c.int('lastUpdatedByUserId', true),
      c.int('deletedByUserId', true),
    ];
    const table = (name: string, cols: TableColumnOptions[], indices: string[][] = []) =>
      qr.createTable(
        new Table({
          name,
          columns: cols,
          indices: indices.map((cols) => ({ name: `IDX_${name}_${cols.join('_')}`, columnNames: cols })),
          ...(mysql ? { engine: 'InnoDB' } : {}),
        }),
      );

    await table('admin_users', [
      c.id(),
      c.varchar('username', 50),
      c.varchar('email', 191),
      c.varchar('name', 200),
      c.varchar('passwordHash', 255),
      c.bool('isActive', true),
      c.bool('isSuperadmin', false),
      c.datetime('createdAt'),
      c.datetime('updatedAt'),
    ]);
    await qr.createIndex('admin_users', new TableIndex({ name: 'UQ_admin_users_username', columnNames: ['username'], isUnique: true }));
    await qr.createIndex('admin_users', new TableIndex({ name: 'UQ_admin_users_email', columnNames: ['email'], isUnique: true }));

    for (const name of ['admin_sessions', 'password_reset_tokens']) {
      await table(
        name,
        [
          { name: 'id', type: 'varchar', length: '64', isPrimary: true },
          c.int('userId'),
          c.datetime('expiresAt'),
          ...(name === 'password_reset_tokens' ? [c.datetime('usedAt', true)] : []),
          c.datetime('createdAt'),
        ],
        [['userId'], ['expiresAt']],
      );
      await qr.createForeignKey(
        name,
        new TableForeignKey({
          name: `FK_${name}_userId`,
          columnNames: ['userId'],
          referencedTableName: 'admin_users',
          referencedColumnNames: ['id'],
          onDelete: 'CASCADE',
        }),
      );
    }

    await table(
      'books',
      [
        c.id(),
        c.varchar('title', 300),
        c.text('description'),
        c.int('year'),
        c.varchar('publisher', 300),
        c.varchar('isbn', 32, true),
        c.int('pages', true),
        c.varchar('genre', 100, true),
        { ...c.varchar('language', 50), default: "'Arabic'" },
        c.text('awards'),
        c.varchar('goodreadsUrl', 2000, true),
        c.varchar('purchaseUrl', 2000, true),
        c.varchar('youtubeUrl', 2000, true),
        c.varchar('googleDriveUrl', 2000, true),
        { ...c.int('downloadCount'), default: 0 },
        c.varchar('coverImage', 2000, true),
        c.text('documents'),
        c.text('reviews'),
        c.text('readingMaterials'),
        c.bool('published', true),
        ...content,
      ],
      [['isDeleted', 'published', 'year']],
    );

    await table(
      'essays',
      [
        c.id(),
        c.varchar('title', 300),
        c.text('excerpt'),
        c.text('content'),
        c.varchar('publication', 300, true),
        c.varchar('publicationLogoUrl', 2000, true),
        c.datetime('publishedDate', true),
        c.varchar('essayUrl', 2000, true),
        c.varchar('imageUrl', 2000, true),
        c.varchar('category', 100, true),
        c.bool('featured', false),
        c.bool('published', true),
        ...content,
      ],
      [['isDeleted', 'published', 'publishedDate']],
    );

    await table(
      'artworks',
      [
        c.id(),
        c.varchar('title', 300),
        c.varchar('medium', 200),
        c.int('year'),
        c.varchar('image', 2000),
        c.text('description', true),
        c.bool('featured', false),
        ...content,
      ],
      [['isDeleted', 'createdAt']],
    );

    await table(
      'news',
      [
        c.id(),
        c.varchar('title', 300),
        c.text('excerpt'),
        c.text('content'),
        c.varchar('category', 20),
        c.bool('published', true),
        c.datetime('publishedDate'),
        c.varchar('imageUrl', 2000, true),
        c.varchar('newsUrl', 2000, true),
        ...content,
      ],
      [['isDeleted', 'published', 'publishedDate']],
    );

    await table(
      'plays',
      [
        c.id(),
        c.varchar('title', 300),
        c.varchar('arabicTitle', 300, true),
        c.text('description', true),
        c.text('content', true),
        c.int('year', true),
        { ...c.varchar('type', 20), default: "'original'" },
        c.varchar('genre', 100, true),
        c.varchar('image', 2000, true),
        c.varchar('pdfUrl', 2000, true),
        c.varchar('youtubeUrl', 2000, true),
        { ...c.varchar('status', 20), default: "'draft'" },
        ...content,
      ],
      [['isDeleted', 'status', 'createdAt']],
    );

    await table(
      'contacts',
      [
        c.id(),
        c.varchar('name', 200),
        c.varchar('email', 254),
        c.varchar('subject', 300),
        c.text('message'),
        c.bool('read', false),
        c.bool('isDeleted', false),
        c.datetime('createdAt'),
        c.datetime('deletedAt', true),
        c.int('deletedByUserId', true),
      ],
      [['isDeleted', 'createdAt']],
    );

    await table(
      'outbox_events',
      [c.id(), c.varchar('kind', 20), c.int('entityId'), c.varchar('action', 20), c.datetime('createdAt'), c.datetime('processedAt', true)],
      [['processedAt']],
    );
  }

  async down(qr: QueryRunner): Promise<void> {
    for (const name of [
      'outbox_events',
      'contacts',
      'plays',
      'news',
      'artworks',
      'essays',
      'books',
      'password_reset_tokens',
      'admin_sessions',
      'admin_users',
    ]) {
      await qr.dropTable(name);
    }
  }
}

function columns(mysql: boolean) {
  return {
    id: (): TableColumnOptions => ({ name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' }),
    varchar: (name: string, length: number, nullable = false): TableColumnOptions => ({
      name,
      type: 'varchar',
      length: String(length),
      isNullable: nullable,
    }),
    // Essays and plays can be long: MySQL TEXT stops at 64 KB.
    text: (name: string, nullable = false): TableColumnOptions => ({ name, type: mysql ? 'longtext' : 'text', isNullable: nullable }),
    int: (name: string, nullable = false): TableColumnOptions => ({ name, type: 'int', isNullable: nullable }),
    bool: (name: string, dflt: boolean): TableColumnOptions => ({ name, type: 'boolean', default: dflt ? 1 : 0 }),
    datetime: (name: string, nullable = false): TableColumnOptions => ({
      name,
      type: 'datetime',
      isNullable: nullable,
      ...(mysql ? { precision: 3 } : {}),
    }),
  };
}
