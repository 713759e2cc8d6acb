import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';

import { CONTENT_KINDS, type ContentKind } from '@portfolio/contract/types';
import type { DataSource, EntityManager, ObjectLiteral } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata.js';

import { AdminUser } from '../auth/admin-user.entity.js';
import { hashPassword } from '../auth/passwords.js';
import type { AppConfig } from '../config/config.js';
import { openDataSource } from '../database/data-source.js';
import { insertRows } from '../database/db.service.js';
import { fillLinkNonces } from '../database/migrations/1765170000000-newsletter-links.js';
import { queueImageVariants } from '../image-variants/image-variant-jobs.js';
import { OutboxEvent } from '../publishing/outbox-event.entity.js';
import type { FileStorage } from '../uploads/file-storage.js';
import { SNIFF_BYTES, storedFileType } from '../uploads/sniff.js';
import { storageFor } from '../uploads/storage-for.js';
import { ArchiveError, type Manifest, readArchive } from './archive.js';
import type { Progress } from './backup.js';
import { databaseKind } from './backup-db.js';
import { BACKUP_TABLES, backupPlan, type TablePlan } from './backup-tables.js';
import { keepIdsUnused } from './id-counters.js';
import { rowLimitsBroken, uploadRefusal } from './restore-rules.js';

/** The target already holds data: a restore never mixes two sites. */
export class TargetNotEmptyError extends Error {
  constructor(
    readonly counts: Record<string, number>,
    readonly files: string[],
  ) {
    const rows = Object.entries(counts).map(([t, n]) => `${t}: ${n}`);
    const what = [
      rows.length ? `the database already holds rows (${rows.join(', ')})` : '',
      files.length
        ? `the uploads folder already holds different files with the same names (${files.slice(0, 3).join(', ')}${files.length > 3 ? ', …' : ''})`
        : '',
    ]
      .filter(Boolean)
      .join(' and ');
    super(
      `Refusing to restore: ${what}. A restore goes only into an empty instance: a new database (DATABASE_URL) or a new VAR_DIR, before the API's first start. Nothing was changed.`,
    );
    this.name = 'TargetNotEmptyError';
  }
}

export interface RestoreOptions {
  storage?: FileStorage;
  onProgress?: (progress: Progress) => void;
}

export interface RestoreResult {
  manifest: Manifest;
  rows: number;
  files: number;
  /** The admin who can sign in right away, and the password generated for them (null when ADMIN_PASSWORD gave it). */
  admin: { username: string; generatedPassword: string | null } | null;
}

const BATCH_ROWS = 50;
const BATCH_BYTES = 256 * 1024;

async function* jsonLines(data: Readable, name: string): AsyncGenerator<{ row: Record<string, unknown>; bytes: number; line: number }> {
  let line = 0;
  for await (const text of createInterface({ input: data, crlfDelay: Infinity })) {
    line++;
    if (!text) continue;
    let row: unknown;
    try {
      row = JSON.parse(text);
    } catch {
      throw new ArchiveError(`${name}, line ${line}, is not valid JSON: the archive is damaged`);
    }
    if (!row || typeof row !== 'object' || Array.isArray(row))
      throw new ArchiveError(`${name}, line ${line}, is not a row: the archive is damaged`);
    yield { row: row as Record<string, unknown>, bytes: text.length, line };
  }
}

const tableOfEntry = (name: string) => /^data\/([A-Za-z0-9_]+)\.jsonl$/.exec(name)?.[1] ?? null;

/** The first bytes of an entry (enough to tell its type), then the rest is drained. */
async function headOf(data: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of data) {
    if (length < SNIFF_BYTES) {
      chunks.push(chunk as Buffer);
      length += (chunk as Buffer).length;
    }
  }
  return Buffer.concat(chunks).subarray(0, SNIFF_BYTES);
}

/**
 * Reads the whole archive once without writing anything: every checksum, every row's JSON and the
 * API's limits on its fields, the row counts, the tables it may hold and the upload rules for every
 * file. Answers the manifest, or throws an ArchiveError that says what is wrong.
 */
export async function verifyArchive(file: string): Promise<Manifest> {
  const counted = new Map<string, { rows: number; keys: Set<string> }>();
  const manifest = await readArchive(file, async (name, data, { tables }) => {
    if (name.startsWith('uploads/')) {
      const refusal = uploadRefusal(name, await headOf(data));
      if (refusal) throw new ArchiveError(refusal);
      return;
    }
    const table = tableOfEntry(name);
    if (!table) throw new ArchiveError(`The archive holds ${name}, which is not part of a backup: it was not made by this product`);
    const policy = BACKUP_TABLES[table];
    if (!policy?.keep) {
      throw new ArchiveError(
        policy
          ? `The archive holds the table ${table}, which backups leave out: it was not made by this product`
          : `The archive holds the table ${table}, which this version does not know: update the product first`,
      );
    }
    if (!tables.some((t) => t.name === table))
      throw new ArchiveError(`The archive holds ${name}, which its manifest's tables do not list: it was changed or damaged`);
    const seen = { rows: 0, keys: new Set<string>() };
    for await (const { row, line } of jsonLines(data, name)) {
      seen.rows++;
      for (const key of Object.keys(row)) seen.keys.add(key);
      const broken = await rowLimitsBroken(table, row);
      if (broken.length) throw new ArchiveError(`${name}, line ${line}, holds more than the API accepts (${broken.join('; ')})`);
    }
    counted.set(table, seen);
  });
  for (const t of manifest.tables) {
    const seen = counted.get(t.name);
    if (!seen || seen.rows !== t.rows || t.file !== `data/${t.name}.jsonl`) {
      throw new ArchiveError(`The archive's table ${t.name} does not hold the ${t.rows} rows its manifest says: the archive is damaged`);
    }
    const unlisted = [...seen.keys].filter((k) => !t.columns.includes(k));
    if (unlisted.length)
      throw new ArchiveError(`The archive's table ${t.name} has columns its manifest does not list (${unlisted.join(', ')})`);
  }
  return manifest;
}

/**
 * Loads an archive into an empty instance (the database DATABASE_URL names, or SQLite under
 * VAR_DIR, and its uploads folder). The whole archive is verified before anything is written; the
 * rows go in in one transaction, so a failure leaves the database empty (and removes the files
 * it had written).
 */
export async function runRestore(config: AppConfig, file: string, options: RestoreOptions = {}): Promise<RestoreResult> {
  const storage = options.storage ?? (await storageFor(config));
  const manifest = await verifyArchive(file);

  const newSqliteFile = config.database.kind === 'sqlite' && !existsSync(config.database.file) ? config.database.file : null;
  const dataSource = await openDataSource(config);
  let tablesBefore: Set<string> | null = null;
  let restored = false;
  try {
    const known = new Set(dataSource.migrations.map((m) => m.name ?? m.constructor.name));
    const unknown = manifest.migrations.filter((m) => !known.has(m));
    if (unknown.length) {
      throw new ArchiveError(
        `This backup was made by a newer version of the product (its database has run ${unknown.join(', ')}): update the product first`,
      );
    }
    const plan = new Map(backupPlan(dataSource).map((t) => [t.table, t]));
    for (const t of manifest.tables) {
      const target = plan.get(t.name);
      if (!target) {
        throw new ArchiveError(
          BACKUP_TABLES[t.name]
            ? `The archive holds the table ${t.name}, which backups leave out: it was not made by this product`
            : `The archive holds the table ${t.name}, which this version does not know: update the product first`,
        );
      }
      const columns = new Set(target.columns.map((c) => c.propertyName));
      const extra = t.columns.filter((c) => !columns.has(c));
      if (extra.length)
        throw new ArchiveError(
          `The archive's table ${t.name} has columns this version does not know (${extra.join(', ')}): update the product first`,
        );
    }

    await assertEmpty(dataSource, [...plan.values()], manifest, storage);
    tablesBefore = new Set(await tableNames(dataSource));
    await dataSource.runMigrations({ transaction: 'each' });
    const result = await load(dataSource, file, manifest, plan, storage, config, options);
    restored = true;
    return result;
  } finally {
    // Refused or failed: the target is left as it was found, without the tables the migrations made
    // (and without a SQLite file that connecting created).
    if (!restored && tablesBefore && !newSqliteFile) await dropTablesNotIn(dataSource, tablesBefore).catch(() => undefined);
    await dataSource.destroy().catch(() => undefined);
    if (!restored && newSqliteFile) {
      for (const suffix of ['', '-wal', '-shm']) await rm(`${newSqliteFile}${suffix}`, { force: true });
    }
  }
}

async function tableNames(dataSource: DataSource): Promise<string[]> {
  const rows = (await dataSource.query(
    databaseKind(dataSource) === 'mysql'
      ? 'SELECT table_name AS name FROM information_schema.tables WHERE table_schema = DATABASE()'
      : "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
  )) as { name: string }[];
  return rows.map((r) => r.name);
}

async function dropTablesNotIn(dataSource: DataSource, kept: Set<string>) {
  const runner = dataSource.createQueryRunner();
  try {
    const mysql = databaseKind(dataSource) === 'mysql';
    if (mysql) await runner.query('SET FOREIGN_KEY_CHECKS = 0');
    else await runner.query('PRAGMA foreign_keys = OFF');
    for (const name of await tableNames(dataSource))
      if (!kept.has(name)) await runner.query(`DROP TABLE ${dataSource.driver.escape(name)}`);
    await runner.query(mysql ? 'SET FOREIGN_KEY_CHECKS = 1' : 'PRAGMA foreign_keys = ON');
  } finally {
    await runner.release();
  }
}

async function assertEmpty(dataSource: DataSource, plan: TablePlan[], manifest: Manifest, storage: FileStorage) {
  const counts: Record<string, number> = {};
  const runner = dataSource.createQueryRunner();
  try {
    for (const t of plan) {
      if (!(await runner.hasTable(t.table))) continue;
      const [row] = (await runner.query(`SELECT COUNT(*) AS n FROM ${dataSource.driver.escape(t.table)}`)) as { n: number | string }[];
      if (Number(row.n) > 0) counts[t.table] = Number(row.n);
    }
  } finally {
    await runner.release();
  }
  const conflicts: string[] = [];
  for (const entry of manifest.entries) {
    if (!entry.name.startsWith('uploads/')) continue;
    const existing = await storage.open(entry.name.slice('uploads/'.length));
    if (!existing) continue;
    const hash = createHash('sha256');
    for await (const chunk of existing) hash.update(chunk as Buffer);
    if (hash.digest('hex') !== entry.sha256) conflicts.push(entry.name);
  }
  if (Object.keys(counts).length || conflicts.length) throw new TargetNotEmptyError(counts, conflicts);
}

function valueFor(column: ColumnMetadata, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' && (column.type === 'datetime' || column.type === 'timestamp' || column.type === Date))
    return new Date(value);
  return value;
}

/** What a restore has loaded so far: the counts it reports, the uploads it wrote (removed again if it fails), the items it queues. */
interface Loaded {
  rows: number;
  files: number;
  written: string[];
  /** The restored images (`/uploads/…`), whose variants are queued. */
  images: string[];
  contentIds: Map<ContentKind, number[]>;
}

async function load(
  dataSource: DataSource,
  file: string,
  manifest: Manifest,
  plan: Map<string, TablePlan>,
  storage: FileStorage,
  config: AppConfig,
  options: RestoreOptions,
): Promise<RestoreResult> {
  const rowsTotal = manifest.tables.reduce((n, t) => n + t.rows, 0);
  const filesTotal = manifest.files.count;
  const existing = await uploadsAlreadyThere(manifest, storage);
  const loaded: Loaded = { rows: 0, files: 0, written: [], images: [], contentIds: new Map() };
  const progress = {
    rows: () => options.onProgress?.({ phase: 'rows', done: loaded.rows, total: rowsTotal }),
    files: () => options.onProgress?.({ phase: 'files', done: loaded.files, total: filesTotal }),
  };

  // Archives hold no password: until one is set, an admin signs in with nothing anyone knows.
  const unusableHash = await hashPassword(randomBytes(32).toString('base64url'));
  try {
    const admin = await dataSource.transaction(async (m) => {
      // Tables arrive in the archive's order, which a backup writes referenced-first.
      await readArchive(file, async (name, data) => {
        const table = tableOfEntry(name);
        if (table) return loadRows(m, plan.get(table)!, name, data, unusableHash, loaded, progress.rows);
        if (name.startsWith('uploads/')) return loadUpload(storage, name, data, existing, loaded, progress.files);
        data.resume();
      });
      await queueForPublishing(m, loaded.contentIds);
      // Backups keep only the originals: their variants are made anew once the API runs.
      await queueImageVariants(m, loaded.images);
      return setPasswords(m, config);
    });
    await keepIdsUnused(dataSource, [...plan.values()], manifest.nextIds);
    // Readers from an archive made before links had a nonce (issue 32) get one now.
    await fillLinkNonces(dataSource);
    return { manifest, rows: loaded.rows, files: loaded.files, admin };
  } catch (error) {
    for (const rel of loaded.written) await storage.remove(rel).catch(() => undefined);
    throw error;
  }
}

/** The archive's uploads that the storage already holds (checked to be the same bytes by assertEmpty). */
async function uploadsAlreadyThere(manifest: Manifest, storage: FileStorage): Promise<Set<string>> {
  const existing = new Set<string>();
  for (const entry of manifest.entries) {
    if (entry.name.startsWith('uploads/') && (await storage.open(entry.name.slice(8)).then((s) => (s ? (s.destroy(), true) : false))))
      existing.add(entry.name);
  }
  return existing;
}

/** One table's rows (JSON lines) inserted in batches; admins get an unusable password, content ids are noted for publishing. */
async function loadRows(
  m: EntityManager,
  t: TablePlan,
  name: string,
  data: Readable,
  unusableHash: string,
  loaded: Loaded,
  progress: () => void,
) {
  const insert = async (rows: ObjectLiteral[]) => {
    if (!rows.length) return;
    await insertRows(m, t.metadata.target, rows);
    loaded.rows += rows.length;
    progress();
  };
  const columns = new Map(t.columns.map((c) => [c.propertyName, c]));
  const kind = (CONTENT_KINDS as readonly string[]).includes(t.table) ? (t.table as ContentKind) : null;
  let batch: ObjectLiteral[] = [];
  let bytes = 0;
  for await (const { row, bytes: size } of jsonLines(data, name)) {
    const entity: ObjectLiteral = {};
    for (const [key, value] of Object.entries(row)) columns.get(key)!.setEntityValue(entity, valueFor(columns.get(key)!, value));
    if (t.metadata.target === AdminUser) entity.passwordHash = unusableHash;
    if (kind) {
      if (!loaded.contentIds.has(kind)) loaded.contentIds.set(kind, []);
      loaded.contentIds.get(kind)!.push(Number(row.id));
    }
    batch.push(entity);
    bytes += size;
    if (batch.length >= BATCH_ROWS || bytes >= BATCH_BYTES) {
      await insert(batch);
      [batch, bytes] = [[], 0];
    }
  }
  await insert(batch);
}

/** One uploaded file saved to the storage, unless the same bytes are already there (e.g. moving to MySQL in the same VAR_DIR). */
async function loadUpload(storage: FileStorage, name: string, data: Readable, existing: Set<string>, loaded: Loaded, progress: () => void) {
  if (storedFileType(name)?.kind === 'image') loaded.images.push(`/${name}`);
  if (existing.has(name)) data.resume();
  else {
    const chunks: Buffer[] = [];
    for await (const chunk of data) chunks.push(chunk as Buffer);
    const rel = name.slice('uploads/'.length);
    loaded.written.push(rel);
    await storage.save(path.posix.dirname(rel), path.posix.basename(rel), Buffer.concat(chunks));
  }
  loaded.files++;
  progress();
}

/** Publishing as usual: the next start sends the restored items to the builder, which renders the site. */
async function queueForPublishing(m: EntityManager, contentIds: Map<ContentKind, number[]>) {
  const createdAt = new Date();
  for (const [kind, ids] of contentIds) {
    for (let i = 0; i < ids.length; i += 500) {
      await m.insert(
        OutboxEvent,
        ids.slice(i, i + 500).map((entityId) => ({ kind, entityId, action: 'create' as const, createdAt, processedAt: null })),
      );
    }
  }
}

/**
 * Restored admins come without passwords (archives never hold one): they have an unusable random
 * one, so they sign in after 'Forgot password' or a reset. The first admin (ADMIN_USERNAME if that
 * account is in the archive, else the superadmin) gets ADMIN_PASSWORD, or a generated password that
 * the restore prints once, as a first start does.
 */
async function setPasswords(m: EntityManager, config: AppConfig): Promise<RestoreResult['admin']> {
  const users = await m.find(AdminUser, { order: { id: 'ASC' } });
  if (!users.length) return null;
  const first = users.find((u) => u.username === config.admin.username) ?? users.find((u) => u.isSuperadmin) ?? users[0];
  const generated = config.admin.password === null ? randomBytes(12).toString('base64url') : null;
  await m.update(AdminUser, { id: first.id }, { passwordHash: await hashPassword(config.admin.password ?? generated!) });
  return { username: first.username, generatedPassword: generated };
}
