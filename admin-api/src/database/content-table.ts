import { type ContentKind, KINDS } from '@portfolio/contract/kinds';
import { type QueryRunner, Table } from 'typeorm';
import type { TableColumnOptions } from 'typeorm/schema-builder/options/TableColumnOptions.js';

/**
 * The column types of the migrations, on SQLite and MySQL/MariaDB alike (as the initial schema
 * writes them; that migration keeps its own copy, so this file can never change what it did).
 */
export function columnTypes(qr: QueryRunner) {
  const mysql = qr.connection.options.type === 'mysql';
  return {
    id: (): TableColumnOptions => ({ name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' }),
    varchar: (name: string, length: number, nullable = false): TableColumnOptions => ({
      name,
      type: 'varchar',
      length: String(length),
      isNullable: nullable,
    }),
    // MySQL TEXT stops at 64 KB.
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

/**
 * The table of a new content kind, for the migration that adds the kind: `id`, the kind's own
 * columns, then what every kind's table has (ContentEntity's trash and audit columns,
 * `contentLanguage` and `translations`, and `publishAt` when the registry says `scheduled`), typed
 * as the earlier migrations made them for the five first kinds. Named as the kind, as the entity is.
 * Migrations that ran use this: never change what it makes (a new shared column is a migration of
 * its own over every kind's table). test/content-tables.spec.ts compares it with every kind's table.
 *
 *   const c = columnTypes(qr);
 *   await qr.createTable(contentTable(qr, 'interviews', [c.varchar('title', 300), c.text('content')], [['isDeleted', 'createdAt']]));
 */
export function contentTable(
  qr: QueryRunner,
  kind: ContentKind,
  own: TableColumnOptions[],
  indices: string[][] = [],
  name: string = kind,
): Table {
  const c = columnTypes(qr);
  const mysql = qr.connection.options.type === 'mysql';
  const columns = [
    c.id(),
    ...own,
    c.bool('isDeleted', false),
    c.datetime('createdAt'),
    c.datetime('updatedAt'),
    c.datetime('deletedAt', true),
    c.int('createdByUserId', true),
    c.int('lastUpdatedByUserId', true),
    c.int('deletedByUserId', true),
    c.varchar('contentLanguage', 2, true),
    c.text('translations', true),
    ...(KINDS[kind].scheduled ? [c.datetime('publishAt', true)] : []),
  ];
  return new Table({
    name,
    columns,
    indices: indices.map((cols) => ({ name: `IDX_${name}_${cols.join('_')}`, columnNames: cols })),
    ...(mysql ? { engine: 'InnoDB' } : {}),
  });
}
