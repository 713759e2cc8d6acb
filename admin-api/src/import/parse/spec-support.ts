// Helpers of the parser specs (not used by the API): fixture paths, limits, and a zip writer that can lie.
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { crc32, deflateRawSync } from 'node:zlib';

import type { ImportLimits, ParsedExport, SourceItem } from '../source.js';

// dist/src/import/parse → the admin-api folder.
const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
export const fixture = (name: string) => path.join(packageRoot, 'test/fixtures/import', name);

export const LIMITS: ImportLimits = {
  maxFileBytes: 20 * 1024 * 1024,
  maxUncompressedBytes: 50 * 1024 * 1024,
  maxEntries: 500,
  maxItems: 5000,
  maxTextBytes: 100 * 1024 * 1024,
  maxImageBytes: 10 * 1024 * 1024,
  imageTimeoutMs: 10_000,
};

export interface ZipEntry {
  name: string;
  data: Buffer | string;
  /** the uncompressed size written in the headers, when it should lie */
  declaredSize?: number;
}

/** A zip built byte by byte, so a test can give an entry any name and any declared size. */
export function makeZip(entries: ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const data = Buffer.isBuffer(entry.data) ? entry.data : Buffer.from(entry.data);
    const compressed = deflateRawSync(data);
    const name = Buffer.from(entry.name);
    const size = entry.declaredSize ?? data.length;
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(compressed.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(compressed.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, compressed);
    centrals.push(central, name);
    offset += local.length + name.length + compressed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** Every file under a folder as zip entries, under `prefix`. */
export async function folderEntries(folder: string, prefix = ''): Promise<ZipEntry[]> {
  const entries: ZipEntry[] = [];
  for (const name of await readdir(folder, { recursive: true })) {
    const full = path.join(folder, name);
    if ((await stat(full)).isFile()) entries.push({ name: prefix + name.split(path.sep).join('/'), data: await readFile(full) });
  }
  return entries;
}

/** A temporary folder for the files a spec writes; `write` returns the path. */
export async function scratch() {
  const dir = await mkdtemp(path.join(tmpdir(), 'import-parse-'));
  return {
    dir,
    async write(name: string, data: Buffer | string) {
      const file = path.join(dir, name);
      await writeFile(file, data);
      return file;
    },
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}

export const byTitle = (parsed: ParsedExport, title: string): SourceItem => {
  const item = parsed.items.find((i) => i.title === title);
  if (!item) throw new Error(`no item titled ${title}`);
  return item;
};
