import { lstat, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

import { messageText } from '@portfolio/contract/messages';
import yauzl from 'yauzl';

import { type ExportArchive, ImportFileError, type ImportLimits } from '../source.js';

/** An export's zip or folder: the names of its files, and a reader that keeps to the limits. */
export interface ExportFiles extends ExportArchive {
  /** every file's path, `/`-separated, folders left out */
  readonly names: readonly string[];
  /** whether the archive holds this file */
  has(name: string): boolean;
  /** a text file the parsers read whole (XML, JSON, CSV, HTML, Markdown): one over `maxTextBytes` refuses the import, naming it */
  readText(name: string): Promise<Buffer | null>;
}

const megabytes = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;
const mb = (bytes: number) => `${megabytes(bytes)} MB`;
/** A file whose declared size is over `maxBytes`, refused before any of it is inflated. */
const declaredTooLarge = (size: number, maxBytes: number) =>
  new ImportFileError(`it declares ${mb(size)} unpacked, more than the ${mb(maxBytes)} limit`);
function textTooLarge(name: string, maxBytes: number) {
  const params = { file: name, mb: megabytes(maxBytes) };
  return new ImportFileError(messageText('error.importTextTooLarge', 'en', params), { key: 'error.importTextTooLarge', params });
}

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

/**
 * Opens a zip without unpacking it: names are checked, the declared sizes and counts capped. A read
 * refuses an entry whose declared size is over its limit before inflating it; yauzl's
 * `validateEntrySizes` counts the bytes as they inflate and stops an entry at the first byte past
 * what it declared (refused as damaged), so no entry ever inflates past its limit. Reads also count
 * the bytes inflated together, so reading entries again cannot exceed the archive's limit.
 */
export async function openZipArchive(filePath: string, limits: ImportLimits): Promise<ExportFiles> {
  const zip = await openZip(filePath);
  const entries = await listEntries(zip, limits);
  let inflated = 0;
  let closed = false;
  const readEntry = (name: string, maxBytes: number, tooLarge: (declared: number) => Error) =>
    new Promise<Buffer | null>((resolve, reject) => {
      const entry = entries.get(name);
      if (!entry || closed) return resolve(null);
      const damaged = () => new ImportFileError(`The zip file is damaged or unpacks to more than it declares (${name}).`);
      if (entry.uncompressedSize > maxBytes) return reject(tooLarge(entry.uncompressedSize));
      zip.openReadStream(entry, (err, stream) => {
        if (err || !stream) return reject(damaged());
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => {
          inflated += chunk.length;
          if (inflated <= limits.maxUncompressedBytes) return void chunks.push(chunk);
          stream.destroy();
          chunks.length = 0;
          reject(new ImportFileError(`The zip file unpacks to more than ${mb(limits.maxUncompressedBytes)}, the most an import may be.`));
        });
        stream.on('error', () => reject(damaged()));
        stream.on('end', () => resolve(Buffer.concat(chunks)));
      });
    });
  return {
    names: [...entries.keys()],
    has: (name) => entries.has(name),
    read: (name, maxBytes = limits.maxUncompressedBytes) => readEntry(name, maxBytes, (size) => declaredTooLarge(size, maxBytes)),
    readText: (name) => readEntry(name, limits.maxTextBytes, () => textTooLarge(name, limits.maxTextBytes)),
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
  const readSized = async (name: string, maxBytes: number, tooLarge: (size: number) => Error) => {
    const safe = safeEntryName(name);
    if (safe === null || !sizes.has(safe)) return null;
    if (sizes.get(safe)! > maxBytes) throw tooLarge(sizes.get(safe)!);
    return readFile(path.join(root, ...safe.split('/')));
  };
  return {
    names: [...sizes.keys()],
    has: (name) => sizes.has(name),
    read: (name, maxBytes = limits.maxUncompressedBytes) => readSized(name, maxBytes, (size) => declaredTooLarge(size, maxBytes)),
    readText: (name) => readSized(name, limits.maxTextBytes, () => textTooLarge(name, limits.maxTextBytes)),
    async close() {},
  };
}
