import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rename, rm, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';

import type { DataSource, ObjectLiteral } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata.js';

import type { AppConfig } from '../config/config.js';
import { openDataSource } from '../database/data-source.js';
import type { FileStorage } from '../uploads/file-storage.js';
import { isStoredFilePath } from '../uploads/sniff.js';
import { storageFor } from '../uploads/storage-for.js';
import { type ArchiveSource, FORMAT, FORMAT_VERSION, type Manifest, type ManifestEntry, writeArchive } from './archive.js';
import { appliedMigrations, appVersion, databaseKind } from './backup-db.js';
import { backupPlan, excludedSummary, type TablePlan } from './backup-tables.js';
import { nextIds } from './id-counters.js';

export const ARCHIVE_PATTERN = /^portfolio-backup-.+\.tar\.gz$/;
const PAGE = 250;

export interface Progress {
  phase: 'rows' | 'files';
  done: number;
  total: number;
}

export interface BackupOptions {
  /** Where the archive goes; default: a new file in BACKUP_DIR, then the oldest beyond BACKUP_KEEP are removed. */
  out?: string;
  storage?: FileStorage;
  now?: () => Date;
  onProgress?: (progress: Progress) => void;
}

export interface BackupResult {
  file: string;
  size: number;
  manifest: Manifest;
  /** Older archives removed by rotation. */
  removed: string[];
}

export function archiveName(at: Date): string {
  return `portfolio-backup-${at.toISOString().replace(/:/g, '-').replace('.', '-')}.tar.gz`;
}

/** A row as the archive holds it: column values by property name, dates as ISO strings. */
export function rowToJson(row: ObjectLiteral, columns: ColumnMetadata[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const column of columns) {
    const value = column.getEntityValue(row);
    out[column.propertyName] = value instanceof Date ? value.toISOString() : (value ?? null);
  }
  return out;
}

/** Makes one archive of the database named by the config and its uploads. */
export async function runBackup(config: AppConfig, options: BackupOptions = {}): Promise<BackupResult> {
  if (config.database.kind === 'sqlite' && !existsSync(config.database.file)) {
    throw new Error(`There is no database at ${config.database.file}: nothing to back up (is VAR_DIR right? set DATABASE_URL for MySQL)`);
  }
  const now = options.now ?? (() => new Date());
  const storage = options.storage ?? (await storageFor(config));
  const createdAt = now();
  const file = options.out ? path.resolve(options.out) : path.join(config.backup.dir, archiveName(createdAt));
  const dir = path.dirname(file);
  await mkdir(dir, { recursive: true });
  const staging = await mkdtemp(path.join(dir, '.backup-staging-'));
  const partial = path.join(dir, `.${path.basename(file)}.${randomBytes(4).toString('hex')}.partial`);
  const dataSource = await openDataSource(config);
  try {
    if (await dataSource.showMigrations()) {
      throw new Error(
        'The database has not run every migration of this version (an empty database, or an older schema): start the API once, then back up',
      );
    }
    const migrations = await appliedMigrations(dataSource);
    const plan = backupPlan(dataSource);
    const entries: ManifestEntry[] = [];
    const sources: ArchiveSource[] = [];
    const { tables, nextIds } = await dumpTables(dataSource, plan, staging, options.onProgress);
    for (const t of tables) {
      entries.push({ name: t.file, size: t.size, sha256: t.sha256 });
      sources.push({ name: t.file, size: t.size, open: async () => createReadStream(t.path) });
    }

    // Only what the API stores: anything else in the folder or bucket (put there by hand) would make the archive unrestorable.
    const files = (await storage.list()).filter((f) => isStoredFilePath(f.path));
    let filesDone = 0;
    for (const f of files) {
      const name = `uploads/${f.path}`;
      const input = await storage.open(f.path);
      if (!input) throw new Error(`The upload ${f.path} disappeared while the backup was made`);
      const { sha256, size } = await hashStream(input);
      entries.push({ name, size, sha256 });
      sources.push({
        name,
        size,
        open: async () => {
          const again = await storage.open(f.path);
          if (!again) throw new Error(`The upload ${f.path} disappeared while the backup was made`);
          return again;
        },
      });
      options.onProgress?.({ phase: 'files', done: ++filesDone, total: files.length });
    }

    const manifest: Manifest = {
      format: FORMAT,
      formatVersion: FORMAT_VERSION,
      appVersion: appVersion(),
      createdAt: createdAt.toISOString(),
      source: { database: databaseKind(dataSource) },
      migrations,
      tables: tables.map((t) => ({ name: t.table, file: t.file, rows: t.rows, columns: t.columns })),
      nextIds,
      files: { count: files.length, bytes: entries.filter((e) => e.name.startsWith('uploads/')).reduce((n, e) => n + e.size, 0) },
      excluded: excludedSummary(dataSource),
      entries,
    };
    await writeArchive(partial, manifest, sources);
    await rename(partial, file);
    const { size } = await stat(file);
    const removed = options.out ? [] : await rotate(dir, config.backup.keep);
    return { file, size, manifest, removed };
  } finally {
    await dataSource.destroy().catch(() => undefined);
    await rm(staging, { recursive: true, force: true });
    await rm(partial, { force: true });
  }
}

interface DumpedTable {
  table: string;
  file: string;
  path: string;
  rows: number;
  size: number;
  sha256: string;
  columns: string[];
}

/** Every kept table as JSON lines, read in one transaction so the archive is one consistent moment. */
async function dumpTables(
  dataSource: DataSource,
  plan: TablePlan[],
  staging: string,
  onProgress?: BackupOptions['onProgress'],
): Promise<{ tables: DumpedTable[]; nextIds: Record<string, number> }> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  // On SQLite the snapshot begins DEFERRED, as a reader: TypeORM's own transactions begin IMMEDIATE
  // (writers, see data-source.ts) and would hold every write back for the whole backup.
  const sqlite = databaseKind(dataSource) === 'sqlite';
  if (sqlite) await runner.query('BEGIN DEFERRED TRANSACTION');
  else await runner.startTransaction('REPEATABLE READ');
  try {
    const totals = new Map<string, number>();
    for (const t of plan) totals.set(t.table, await runner.manager.count(t.metadata.target));
    const total = [...totals.values()].reduce((a, b) => a + b, 0);
    let done = 0;
    const out: DumpedTable[] = [];
    for (const t of plan) {
      const file = `data/${t.table}.jsonl`;
      const target = path.join(staging, `${t.table}.jsonl`);
      const sink = createWriteStream(target);
      const hash = createHash('sha256');
      let size = 0;
      let rows = 0;
      const write = (text: string) => {
        const bytes = Buffer.from(text);
        hash.update(bytes);
        size += bytes.length;
        return sink.write(bytes) ? Promise.resolve() : new Promise<void>((resolve) => sink.once('drain', () => resolve()));
      };
      const pks = t.metadata.primaryColumns;
      const keyset = pks.length === 1;
      let after: unknown = undefined;
      for (let page = 0; ; page++) {
        const qb = runner.manager
          .createQueryBuilder(t.metadata.target, 't')
          .select(t.columns.map((c) => `t.${c.propertyPath}`))
          .limit(PAGE);
        for (const pk of pks) qb.addOrderBy(`t.${pk.propertyPath}`, 'ASC');
        if (keyset && after !== undefined) qb.where(`t.${pks[0].propertyPath} > :after`, { after });
        if (!keyset) qb.offset(page * PAGE);
        const batch = await qb.getMany();
        for (const row of batch) await write(`${JSON.stringify(rowToJson(row, t.columns))}\n`);
        rows += batch.length;
        done += batch.length;
        onProgress?.({ phase: 'rows', done, total });
        if (batch.length < PAGE) break;
        if (keyset) after = pks[0].getEntityValue(batch[batch.length - 1]);
      }
      sink.end();
      await finished(sink);
      out.push({
        table: t.table,
        file,
        path: target,
        rows,
        size,
        sha256: hash.digest('hex'),
        columns: t.columns.map((c) => c.propertyName),
      });
    }
    // Read after the rows: on MySQL the counters are not part of the snapshot, and a higher one only keeps more ids unused.
    return { tables: out, nextIds: await nextIds(runner.manager, plan) };
  } finally {
    await (sqlite ? runner.query('ROLLBACK') : runner.rollbackTransaction()).catch(() => undefined);
    await runner.release();
  }
}

async function hashStream(input: Readable): Promise<{ sha256: string; size: number }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of input) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { sha256: hash.digest('hex'), size };
}

/** Keeps the newest `keep` archives in `dir` (by the time in their names); answers the removed names. */
export async function rotate(dir: string, keep: number): Promise<string[]> {
  const names = (await readdir(dir))
    .filter((n) => ARCHIVE_PATTERN.test(n))
    .sort()
    .reverse();
  const removed = names.slice(keep);
  for (const name of removed) await unlink(path.join(dir, name)).catch(() => undefined);
  return removed;
}
