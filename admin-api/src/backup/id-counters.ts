import { CONTENT_KINDS } from '@portfolio/contract/kinds';
import type { DataSource, EntityManager } from 'typeorm';

import { databaseKind } from './backup-db.js';
import type { TablePlan } from './backup-tables.js';

/**
 * Ids are never reused, also after a restore: they are in public addresses (/essays/5, a reader's
 * links), and a new row that took a removed row's id would inherit its links, feeds and history.
 * Every table that hands out ids keeps a counter: on SQLite `sqlite_sequence` (all of them are
 * declared AUTOINCREMENT; site_settings has one fixed row and no counter), on MySQL/MariaDB the
 * table's AUTO_INCREMENT.
 */
export const countedTables = (plan: TablePlan[]) =>
  plan.filter((t) => t.metadata.primaryColumns.length === 1 && t.metadata.primaryColumns[0].generationStrategy === 'increment');

/** The id each table would hand out next (what a backup records in its manifest). */
export async function nextIds(db: EntityManager, plan: TablePlan[]): Promise<Record<string, number>> {
  const q = (name: string) => db.connection.driver.escape(name);
  const mysql = databaseKind(db.connection) === 'mysql';
  const sequences = mysql
    ? new Map<string, number>()
    : new Map(
        ((await db.query('SELECT name, seq FROM sqlite_sequence')) as { name: string; seq: number }[]).map((r) => [r.name, Number(r.seq)]),
      );
  const out: Record<string, number> = {};
  for (const { table } of countedTables(plan)) {
    const [{ n }] = (await db.query(`SELECT MAX(id) AS n FROM ${q(table)}`)) as { n: number | string | null }[];
    let next = Number(n ?? 0) + 1;
    if (mysql) {
      // SHOW CREATE TABLE gives the live counter (information_schema may answer a cached one on MySQL 8).
      const [row] = (await db.query(`SHOW CREATE TABLE ${q(table)}`)) as Record<string, string>[];
      next = Math.max(next, Number(/\bAUTO_INCREMENT=(\d+)/.exec(row['Create Table'])?.[1] ?? 1));
    } else next = Math.max(next, (sequences.get(table) ?? 0) + 1);
    out[table] = next;
  }
  return out;
}

/**
 * After a restore, raises each table's counter to the highest of: what it was on this database
 * (loading rows with their ids never lowers it), the archive's highest id + 1, the next id the
 * source had recorded in the manifest (older archives have none), and for a content kind every id
 * its revisions name (an item deleted for good lives on in its history). Never lowers a counter.
 */
export async function keepIdsUnused(dataSource: DataSource, plan: TablePlan[], recorded: Record<string, number> = {}) {
  const q = (name: string) => dataSource.driver.escape(name);
  const now = await nextIds(dataSource.manager, plan);
  for (const [table, current] of Object.entries(now)) {
    let floor = Math.max(current, recorded[table] ?? 0);
    if ((CONTENT_KINDS as readonly string[]).includes(table)) {
      const [{ n }] = (await dataSource.query(`SELECT MAX(${q('entityId')}) AS n FROM ${q('content_revisions')} WHERE kind = ?`, [
        table,
      ])) as { n: number | string | null }[];
      floor = Math.max(floor, Number(n ?? 0) + 1);
    }
    if (floor === current) continue;
    if (databaseKind(dataSource) === 'mysql') await dataSource.query(`ALTER TABLE ${q(table)} AUTO_INCREMENT = ${floor}`);
    else {
      await dataSource.query('UPDATE sqlite_sequence SET seq = ? WHERE name = ?', [floor - 1, table]);
      await dataSource.query(
        'INSERT INTO sqlite_sequence (name, seq) SELECT ?, ? WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = ?)',
        [table, floor - 1, table],
      );
    }
  }
}
