import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { PassThrough, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';

import tar from 'tar-stream';

/**
 * A backup archive is a gzip-compressed tar file (`.tar.gz`: any tar can list and unpack it):
 *   manifest.json            what is inside, first, with the size and SHA-256 of every other entry
 *   data/<table>.jsonl       one JSON object per row, in primary key order
 *   uploads/<folder>/<name>  the uploaded files, byte for byte
 */
export const FORMAT = 'portfolio-backup';
export const FORMAT_VERSION = 1;
export const MANIFEST_NAME = 'manifest.json';

export interface ManifestEntry {
  name: string;
  size: number;
  sha256: string;
}

export interface ManifestTable {
  name: string;
  file: string;
  rows: number;
  columns: string[];
}

export interface Manifest {
  format: typeof FORMAT;
  formatVersion: number;
  appVersion: string;
  createdAt: string;
  source: { database: 'sqlite' | 'mysql' };
  /** The migrations the source database had run: the schema the rows fit. */
  migrations: string[];
  tables: ManifestTable[];
  /**
   * The id each table would have handed out next on the source, higher than its rows' ids when rows
   * were removed: a restore keeps those ids unused. Absent in archives made before it was added.
   */
  nextIds?: Record<string, number>;
  files: { count: number; bytes: number };
  /** What was deliberately left out (sign-in material, operational logs). */
  excluded: { tables: Record<string, string>; columns: Record<string, string[]> };
  entries: ManifestEntry[];
}

/** A refused archive: the message says what is wrong, for the operator. */
export class ArchiveError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ArchiveError';
  }
}

export interface ArchiveSource {
  name: string;
  size: number;
  open(): Promise<Readable>;
}

/** Writes the archive: the manifest first, then each source, checking each against its listed checksum. */
export async function writeArchive(file: string, manifest: Manifest, sources: ArchiveSource[], onEntry?: (name: string) => void) {
  const pack = tar.pack();
  const mtime = new Date(manifest.createdAt);
  const writing = pipeline(pack, createGzip({ level: 6 }), createWriteStream(file, { flags: 'wx' }));
  const listed = new Map(manifest.entries.map((e) => [e.name, e]));
  try {
    const manifestBytes = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);
    await new Promise<void>((resolve, reject) =>
      pack.entry({ name: MANIFEST_NAME, size: manifestBytes.length, mtime, mode: 0o644 }, manifestBytes, (e) =>
        e ? reject(e) : resolve(),
      ),
    );
    for (const source of sources) {
      const entry = listed.get(source.name);
      if (!entry) throw new Error(`${source.name} is not in the manifest`);
      const hash = createHash('sha256');
      const input = await source.open();
      await new Promise<void>((resolve, reject) => {
        const sink = pack.entry({ name: source.name, size: entry.size, mtime, mode: 0o644 }, (e) => (e ? reject(e) : resolve()));
        input.on('data', (chunk: Buffer) => hash.update(chunk));
        input.on('error', reject);
        sink.on('error', reject);
        input.pipe(sink);
      });
      if (hash.digest('hex') !== entry.sha256) throw new Error(`${source.name} changed while the backup was written`);
      onEntry?.(source.name);
    }
    pack.finalize();
    await writing;
  } catch (error) {
    pack.destroy(error as Error);
    await writing.catch(() => undefined);
    throw error;
  }
}

/** A safe relative path of an archive entry (no absolute paths, no `..`, no dot-files). */
function safeEntryName(name: string): boolean {
  if (!name || name.startsWith('/') || name.includes('\\') || name.includes('\0')) return false;
  return name.split('/').every((part) => part && part !== '.' && part !== '..');
}

function parseManifest(text: string): Manifest {
  let manifest: Manifest;
  try {
    manifest = JSON.parse(text) as Manifest;
  } catch {
    throw new ArchiveError("The archive's manifest.json is not valid JSON: the archive is damaged");
  }
  if (manifest?.format !== FORMAT)
    throw new ArchiveError('This file is not a backup of this product (its manifest does not say "portfolio-backup")');
  if (typeof manifest.formatVersion !== 'number' || manifest.formatVersion > FORMAT_VERSION) {
    throw new ArchiveError(
      `This backup was made by a newer version of the product (archive format ${manifest.formatVersion}; this version reads up to ${FORMAT_VERSION}): update the product first`,
    );
  }
  if (!Array.isArray(manifest.entries) || !Array.isArray(manifest.tables) || !Array.isArray(manifest.migrations)) {
    throw new ArchiveError("The archive's manifest is incomplete: the archive is damaged");
  }
  if (manifest.nextIds !== undefined) {
    const ids = manifest.nextIds as unknown;
    if (
      !ids ||
      typeof ids !== 'object' ||
      Array.isArray(ids) ||
      !Object.values(ids).every((n) => Number.isSafeInteger(n) && (n as number) >= 1)
    )
      throw new ArchiveError("The archive's manifest lists invalid next ids: the archive is damaged");
  }
  for (const entry of manifest.entries) {
    if (!safeEntryName(entry?.name) || typeof entry.sha256 !== 'string' || !Number.isInteger(entry.size)) {
      throw new ArchiveError(`The archive's manifest lists an invalid entry (${JSON.stringify(entry?.name)})`);
    }
  }
  return manifest;
}

export type EntryHandler = (name: string, data: Readable, manifest: Manifest) => Promise<void>;

/**
 * Reads the archive from start to end: the manifest must come first, every entry must be listed in
 * it with the same size and SHA-256, and every listed entry must be there. `onEntry` sees each
 * entry's bytes (and the manifest) as they are read (a later mismatch still throws, so callers keep their writes
 * undoable until this returns). Truncated or damaged compressed data throws an ArchiveError.
 */
export async function readArchive(file: string, onEntry: EntryHandler = async (_n, data) => void data.resume()): Promise<Manifest> {
  const extract = tar.extract();
  let streamError: Error | null = null;
  const reading = pipeline(createReadStream(file), createGunzip(), extract).catch((error: Error) => {
    streamError = error;
  });
  let manifest: Manifest | null = null;
  let listed = new Map<string, ManifestEntry>();
  const seen = new Set<string>();
  let handlerError: Error | null = null;
  try {
    for await (const entry of extract) {
      const name = entry.header.name;
      if (entry.header.type !== 'file') throw new ArchiveError(`The archive holds an unexpected ${entry.header.type} entry (${name})`);
      if (!manifest) {
        if (name !== MANIFEST_NAME)
          throw new ArchiveError('The archive does not start with manifest.json: it is not a backup of this product, or it is damaged');
        const chunks: Buffer[] = [];
        for await (const chunk of entry) chunks.push(chunk as Buffer);
        manifest = parseManifest(Buffer.concat(chunks).toString('utf8'));
        listed = new Map(manifest.entries.map((e) => [e.name, e]));
        continue;
      }
      const expected = listed.get(name);
      if (!expected || seen.has(name))
        throw new ArchiveError(`The archive holds ${name}, which its manifest does not list: it was changed or damaged`);
      seen.add(name);
      const hash = createHash('sha256');
      let size = 0;
      // The handler reads a Node stream; this loop feeds it and hashes what passes.
      const body = new PassThrough();
      const handled = (async () => {
        try {
          await onEntry(name, body, manifest!);
        } catch (error) {
          handlerError = error as Error;
          throw error;
        }
        // Whatever the handler left unread still counts.
        body.resume();
      })();
      const pumped = (async () => {
        for await (const chunk of entry) {
          hash.update(chunk as Buffer);
          size += (chunk as Buffer).length;
          if (!body.write(chunk)) await Promise.race([once(body, 'drain'), handled]);
        }
        body.end();
      })();
      await Promise.all([handled, pumped]);
      if (size !== expected.size || hash.digest('hex') !== expected.sha256) {
        throw new ArchiveError(`${name} in the archive does not match its checksum in the manifest: the archive was changed or damaged`);
      }
    }
  } catch (error) {
    extract.destroy();
    await reading;
    if (handlerError === error || error instanceof ArchiveError) throw error;
    if (streamError) throw damaged(streamError);
    throw damaged(error as Error);
  }
  await reading;
  if (streamError) throw damaged(streamError);
  if (!manifest) throw new ArchiveError('The archive is empty or not a backup archive');
  const missing = manifest.entries.filter((e) => !seen.has(e.name)).map((e) => e.name);
  if (missing.length) {
    throw new ArchiveError(
      `The archive is truncated: ${missing.length} listed entr${missing.length === 1 ? 'y is' : 'ies are'} missing (${missing.slice(0, 3).join(', ')}${missing.length > 3 ? ', …' : ''})`,
    );
  }
  return manifest;
}

function damaged(error: Error): ArchiveError {
  if (error instanceof ArchiveError) return error;
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return new ArchiveError(`No such file: ${(error as NodeJS.ErrnoException).path}`);
  if (code === 'Z_BUF_ERROR' || /unexpected end/i.test(error.message)) {
    return new ArchiveError('The archive is truncated: its compressed data ends early (an interrupted copy or download?)');
  }
  if (code?.startsWith('Z_') || /incorrect header|invalid|checksum/i.test(error.message)) {
    return new ArchiveError(`The archive is damaged: ${error.message}`);
  }
  return new ArchiveError(`The archive could not be read: ${error.message}`);
}
