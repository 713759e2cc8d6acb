import { existsSync } from 'node:fs';
import path from 'node:path';

import { type AppConfig, loadConfigOrExit } from '../config/config.js';
import { openDataSource } from '../database/data-source.js';
import { DatabaseUnreachableError, waitForDatabase } from '../database/wait-for-database.js';
import { describeStorage } from '../uploads/file-storage.js';
import { ArchiveError } from './archive.js';
import { type Progress, runBackup } from './backup.js';
import { recordOutcome } from './backup-state.js';
import { UnclassifiedTableError } from './backup-tables.js';
import { runRestore, TargetNotEmptyError, verifyArchive } from './restore.js';

const USAGE = `Usage:
  npm run backup [-- --out FILE.tar.gz]   one archive of the database and the uploads (default: a new file in BACKUP_DIR, keeping BACKUP_KEEP)
  npm run restore ARCHIVE                 load an archive into an empty instance (DATABASE_URL, or SQLite under VAR_DIR)
  npm run restore -- --verify ARCHIVE     only check an archive (manifest, checksums, completeness)`;

const say = (line: string) => process.stdout.write(`${line}\n`);

/** One progress line a second at most (and the last one), so long runs show they move. */
function progressPrinter(verb: string) {
  let last = 0;
  let lastLine = '';
  return (p: Progress) => {
    const now = Date.now();
    const line = `  ${verb} ${p.phase}: ${p.done}/${p.total}`;
    if (line === lastLine || (p.done !== p.total && now - last < 1000)) return;
    [last, lastLine] = [now, line];
    say(line);
  };
}

const fail = (message: string): never => {
  process.stderr.write(`${message}\n`);
  process.exit(1);
};

async function main(argv: string[]) {
  const [command, ...args] = argv;
  if (command !== 'backup' && command !== 'restore') fail(USAGE);
  const config = loadConfigOrExit();
  const where =
    config.database.kind === 'sqlite'
      ? `SQLite at ${config.database.file}`
      : `MySQL database "${config.database.database}" on ${config.database.host}:${config.database.port}`;

  if (command === 'restore') {
    const verifyOnly = args.includes('--verify');
    const file = args.find((a) => !a.startsWith('--'));
    if (!file) fail(USAGE);
    const archive = path.resolve(file!);
    if (verifyOnly) {
      const manifest = await verifyArchive(archive);
      say(
        `${archive}: complete and intact (${manifest.tables.reduce((n, t) => n + t.rows, 0)} rows, ${manifest.files.count} files, made ${manifest.createdAt} from ${manifest.source.database}).`,
      );
      return;
    }
    await waitForDatabase(config, { timeoutMs: Math.min(config.databaseWaitSeconds, 15) * 1000, say });
    say(`Restoring ${archive} into ${where} (uploads: ${describeStorage(config.storage)}); the archive is checked whole first.`);
    const result = await runRestore(config, archive, { onProgress: progressPrinter('restored') });
    say(
      `Restored ${result.rows} rows and ${result.files} files from a backup made ${result.manifest.createdAt} (${result.manifest.source.database}).`,
    );
    if (result.admin) {
      if (result.admin.generatedPassword) {
        say(
          `\n  Admin accounts come without passwords. Sign in as:\n    username: ${result.admin.username}\n    password: ${result.admin.generatedPassword}\n  It is shown only this once (set ADMIN_PASSWORD to choose it). Other admins use 'Forgot password'.\n`,
        );
      } else {
        say(`"${result.admin.username}" signs in with ADMIN_PASSWORD; other admins use 'Forgot password' (or get a new account).`);
      }
    }
    say('Start the product (npm start): the site is published from the restored content.');
    return;
  }

  const outIndex = args.indexOf('--out');
  const out = outIndex >= 0 ? args[outIndex + 1] : undefined;
  if (outIndex >= 0 && !out) fail(USAGE);
  await waitForDatabase(config, { timeoutMs: Math.min(config.databaseWaitSeconds, 15) * 1000, say });
  const startedAt = new Date();
  say(`Backing up ${where} and ${describeStorage(config.storage)} …`);
  let outcome;
  try {
    const result = await runBackup(config, { out, onProgress: progressPrinter('saved') });
    outcome = { startedAt, finishedAt: new Date(), ok: true, file: result.file, size: result.size, error: null };
    const rows = result.manifest.tables.reduce((n, t) => n + t.rows, 0);
    say(`Wrote ${result.file} (${result.size} bytes: ${rows} rows, ${result.manifest.files.count} files).`);
    if (result.removed.length)
      say(`Removed ${result.removed.length} older archive(s), keeping ${config.backup.keep}: ${result.removed.join(', ')}`);
  } catch (error) {
    outcome = { startedAt, finishedAt: new Date(), ok: false, file: null, size: null, error: (error as Error).message };
    await record(config, outcome);
    throw error;
  }
  await record(config, outcome);
}

/** The overlay shows when the last backup ran, manual ones too; best effort. */
async function record(config: AppConfig, outcome: Parameters<typeof recordOutcome>[1]) {
  if (config.database.kind === 'sqlite' && !existsSync(config.database.file)) return;
  try {
    const dataSource = await openDataSource(config);
    try {
      await dataSource.transaction((m) => recordOutcome(m, outcome, null));
    } finally {
      await dataSource.destroy();
    }
  } catch {
    // A database without the backup_state table (never started) has nowhere to show it.
  }
}

main(process.argv.slice(2)).then(
  () => process.exit(0),
  (error: Error) => {
    if (error instanceof ArchiveError) fail(`The archive was refused, nothing was changed: ${error.message}`);
    if (error instanceof TargetNotEmptyError || error instanceof DatabaseUnreachableError || error instanceof UnclassifiedTableError)
      fail(error.message);
    fail(`Failed: ${error.message}`);
  },
);
