import { lstat, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

import yauzl from 'yauzl';

import { type ExportArchive, ImportFileError, type ImportLimits } from '../source.js';

/** An export's zip or folder: the names of its files, and a reader that keeps to the limits. */
export interface ExportFiles extends ExportArchive {
  /** every file's path, `/`-separated, folders left out */
  readonly names: readonly string[];
  /** whether the archive holds this file */
  has(name: string): boolean;
}

const mb = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;
/** A file over `maxBytes`: refused by the size it declares before any of it is read, else as soon as it inflates past it. */
const declaredTooLarge = (size: number, maxBytes: number) =>
  new ImportFileError(`it declares ${mb(size)} unpacked, more than the ${mb(maxBytes)} limit`);
const inflatedTooLarge = (maxBytes: number) => new ImportFileError(`it unpacks to more than the ${mb(maxBytes)} limit`);

/** A name inside a zip or folder as a plain relative path, or null when it is absolute or climbs out (zip slip). */
export function safeEntryName(raw: string): string | null {
  const name = raw.replace(/\\/g, '/');
  if (!name || name.includes('\0') || name.startsWith('/') || /^[a-zA-Z]:/.test(name)) return null;
  if (name.split('/').some((part) => part === '..')) return null;
  return name.replace(/^(\.\/)+/, '');
}

function openZip(filePath: string): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) =>
    yauzl.open(filePath, { lazyEntries: true, autoClose: false, decodeStrings: false, validateEntrySizes: true }, (err, zip) =>
      err || !zip ? reject(new ImportFileError('The zip file is damaged and cannot be read.')) : resolve(zip),
    ),
  );
}

function listEntries(zip: yauzl.ZipFile, limits: ImportLimits): Promise<Map<string, yauzl.Entry>> {
  return new Promise((resolve, reject) => {
    const entries = new Map<string, yauzl.Entry>();
    let declared = 0;
    const fail = (error: Error) => {
      zip.close();
      reject(error);
    };
    zip.on('error', () => fail(new ImportFileError('The zip file is damaged and cannot be read.')));
    zip.on('end', () => resolve(entries));
    zip.on('entry', (entry: yauzl.Entry) => {
      const raw = Buffer.isBuffer(entry.fileName) ? (entry.fileName as unknown as Buffer).toString('utf8') : String(entry.fileName);
      const name = safeEntryName(raw);
      if (name === null) return fail(new ImportFileError(`The zip file holds a file with an unsafe name (${raw}), so it is refused.`));
      declared += entry.uncompressedSize;
      if (declared > limits.maxUncompressedBytes)
        return fail(
          new ImportFileError(`The zip file unpacks to more than ${mb(limits.maxUncompressedBytes)}, the most an import may be.`),
        );
      if (!name.endsWith('/')) entries.set(name, entry);
      zip.readEntry();
    });
    if (zip.entryCount > limits.maxEntries)
      return fail(new ImportFileError(`The zip file holds more than ${limits.maxEntries} files, the most an import may have.`));
    zip.readEntry();
  });
}

/** Opens a zip without unpacking it: names are checked, the declared sizes and counts capped, and every read counts the bytes really inflated. */
export async function openZipArchive(filePath: string, limits: ImportLimits): Promise<ExportFiles> {
  const zip = await openZip(filePath);
  const entries = await listEntries(zip, limits);
  let inflated = 0;
  let closed = false;
  const readEntry = (name: string, entry: yauzl.Entry, maxBytes: number) =>
    new Promise<Buffer>((resolve, reject) => {
      const damaged = () => new ImportFileError(`The zip file is damaged or unpacks to more than it declares (${name}).`);
      if (entry.uncompressedSize > maxBytes) return reject(declaredTooLarge(entry.uncompressedSize, maxBytes));
      zip.openReadStream(entry, (err, stream) => {
        if (err || !stream) return reject(damaged());
        const chunks: Buffer[] = [];
        let size = 0;
        const stop = (error: Error) => {
          stream.destroy();
          chunks.length = 0;
          reject(error);
        };
        stream.on('data', (chunk: Buffer) => {
          inflated += chunk.length;
          size += chunk.length;
          if (inflated > limits.maxUncompressedBytes)
            stop(new ImportFileError(`The zip file unpacks to more than ${mb(limits.maxUncompressedBytes)}, the most an import may be.`));
          else if (size > maxBytes) stop(inflatedTooLarge(maxBytes));
          else chunks.push(chunk);
        });
        stream.on('error', () => reject(damaged()));
        stream.on('end', () => resolve(Buffer.concat(chunks)));
      });
    });
  return {
    names: [...entries.keys()],
    has: (name) => entries.has(name),
    async read(name, maxBytes = limits.maxUncompressedBytes) {
      const entry = entries.get(name);
      if (!entry || closed) return null;
      return readEntry(name, entry, maxBytes);
    },
    async close() {
      if (closed) return;
      closed = true;
      zip.close();
    },
  };
}

/** A folder given instead of a zip (Markdown): the same limits on file count and total size; links and hidden folders are not followed. */
export async function openFolderArchive(root: string, limits: ImportLimits): Promise<ExportFiles> {
  const sizes = new Map<string, number>();
  let total = 0;
  const walk = async (dir: string, prefix: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
      const name = prefix + entry.name;
      if (entry.isDirectory()) await walk(path.join(dir, entry.name), name + '/');
      else if (entry.isFile()) {
        const { size } = await lstat(path.join(dir, entry.name));
        total += size;
        sizes.set(name, size);
        if (sizes.size > limits.maxEntries)
          throw new ImportFileError(`The folder holds more than ${limits.maxEntries} files, the most an import may have.`);
        if (total > limits.maxUncompressedBytes)
          throw new ImportFileError(`The folder holds more than ${mb(limits.maxUncompressedBytes)}, the most an import may be.`);
      }
    }
  };
  await walk(root, '');
  return {
    names: [...sizes.keys()],
    has: (name) => sizes.has(name),
    async read(name, maxBytes = limits.maxUncompressedBytes) {
      const safe = safeEntryName(name);
      if (safe === null || !sizes.has(safe)) return null;
      if (sizes.get(safe)! > maxBytes) throw declaredTooLarge(sizes.get(safe)!, maxBytes);
      return readFile(path.join(root, ...safe.split('/')));
    },
    async close() {},
  };
}
