// `npm run uploads:to-s3`: copies the uploads of the local folder ($VAR_DIR/uploads, or --from DIR)
// into the bucket of STORAGE_URL, under the same paths, so the stored /uploads/… addresses keep
// working once the API runs with STORAGE_URL. Idempotent: an object that already holds the same
// bytes (same size and MD5) is skipped, so it can be run again after an interruption.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';

import pLimit from 'p-limit';

import { loadConfigOrExit } from '../config/config.js';
import { describeStorage, LocalDiskStorage } from './file-storage.js';
import { S3Storage } from './s3-storage.js';

export interface CopyToS3Result {
  copied: number;
  skipped: number;
  failed: { path: string; error: string }[];
  bytes: number;
}

/**
 * Copies every local upload into the bucket, `concurrency` at a time (a bucket far away answers in
 * tens of milliseconds per request); `say` gets one progress line per file.
 */
export async function copyUploadsToS3(
  from: LocalDiskStorage,
  to: S3Storage,
  say: (line: string) => void = () => {},
  concurrency = 8,
): Promise<CopyToS3Result> {
  const files = await from.list();
  const result: CopyToS3Result = { copied: 0, skipped: 0, failed: [], bytes: 0 };
  let done = 0;
  const copyOne = async (file: (typeof files)[number]) => {
    try {
      const data = await readFile(path.join(from.root, ...file.path.split('/')));
      const md5 = createHash('md5').update(data).digest('hex');
      const existing = await to.head(file.path);
      if (existing && existing.size === data.length && existing.etag === md5) {
        result.skipped++;
        say(`[${++done}/${files.length}] ${file.path}: already in the bucket`);
        return;
      }
      await to.put(file.path, data);
      result.copied++;
      result.bytes += data.length;
      say(`[${++done}/${files.length}] ${file.path}: copied (${data.length} bytes)`);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      result.failed.push({ path: file.path, error: message });
      say(`[${++done}/${files.length}] ${file.path}: FAILED: ${message}`);
    }
  };
  const limit = pLimit(concurrency);
  await Promise.all(files.map((file) => limit(copyOne, file)));
  result.failed.sort((a, b) => (a.path < b.path ? -1 : 1));
  return result;
}

async function main(argv: string[]) {
  const say = (line: string) => process.stdout.write(`${line}\n`);
  if (argv.includes('--help') || argv.includes('-h')) {
    say(
      'npm run uploads:to-s3 [-- --from DIR]   copy local uploads ($VAR_DIR/uploads) into the bucket of STORAGE_URL=s3://bucket/prefix?region=…',
    );
    return 0;
  }
  const config = loadConfigOrExit({ exitCode: 2, then: 'start again' });
  if (config.storage.kind !== 's3') {
    process.stderr.write(
      'STORAGE_URL is not set to a bucket: set STORAGE_URL=s3://bucket/prefix?region=… (and S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY) to say where the uploads go.\n',
    );
    return 2;
  }
  const fromIndex = argv.indexOf('--from');
  const fromDir =
    fromIndex >= 0 && argv[fromIndex + 1]
      ? path.resolve(process.env.INIT_CWD ?? process.cwd(), argv[fromIndex + 1])
      : path.join(config.varDir, 'uploads');
  const target = new S3Storage(config.storage);
  say(`Copying ${fromDir} into ${describeStorage(config.storage)} …`);
  const started = Date.now();
  const result = await copyUploadsToS3(new LocalDiskStorage(fromDir), target, say);
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  say(
    `Done in ${seconds} s: ${result.copied} copied (${result.bytes} bytes), ${result.skipped} already there, ${result.failed.length} failed.` +
      (result.failed.length ? ' Run the command again to retry the failed ones.' : ''),
  );
  target.client.destroy();
  return result.failed.length ? 1 : 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error) => {
      process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
}
