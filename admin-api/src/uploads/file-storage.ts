import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';

import type { StorageConfig } from '../config/storage-config.js';

/** One stored file, by its path under the uploads root (`books/abc.jpg` for /uploads/books/abc.jpg). */
export interface StoredFile {
  path: string;
  size: number;
}

/** Where uploaded files live. Local disk by default; an S3-compatible store can implement the same. */
export abstract class FileStorage {
  /** Stores the bytes and answers the public URL path, e.g. /uploads/books/abc.jpg. */
  abstract save(folder: string, name: string, data: Buffer): Promise<string>;

  /** Every stored file (not half-written ones), sorted by path: what a backup takes. */
  abstract list(): Promise<StoredFile[]>;

  /** The bytes of a stored file, or null when there is none at that path. */
  abstract open(filePath: string): Promise<Readable | null>;

  /** Removes a stored file (a restore that failed takes back what it wrote). */
  abstract remove(filePath: string): Promise<void>;
}

export class LocalDiskStorage extends FileStorage {
  constructor(readonly root: string) {
    super();
  }

  async save(folder: string, name: string, data: Buffer): Promise<string> {
    const dir = path.join(this.root, folder);
    await mkdir(dir, { recursive: true });
    // Write then rename, so a half-written file is never served; a name of its own, as two processes may write the same file.
    const tmp = path.join(dir, `.${name}.${randomBytes(4).toString('hex')}.partial`);
    try {
      await writeFile(tmp, data);
      await rename(tmp, path.join(dir, name));
    } finally {
      await rm(tmp, { force: true });
    }
    return `/uploads/${folder}/${name}`;
  }

  async list(): Promise<StoredFile[]> {
    const entries = await readdir(this.root, { recursive: true, withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return [];
      throw error;
    });
    const files: StoredFile[] = [];
    for (const entry of entries) {
      if (!entry.isFile()) continue;
      const full = path.join(entry.parentPath, entry.name);
      const rel = path.relative(this.root, full).split(path.sep).join('/');
      // Dot-files are half-written uploads (.name.1a2b3c4d.partial) or not ours.
      if (rel.split('/').some((part) => part.startsWith('.'))) continue;
      files.push({ path: rel, size: (await stat(full)).size });
    }
    return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  async open(filePath: string): Promise<Readable | null> {
    const full = path.join(this.root, ...filePath.split('/'));
    if (!full.startsWith(this.root + path.sep)) return null;
    try {
      if (!(await stat(full)).isFile()) return null;
    } catch {
      return null;
    }
    return createReadStream(full);
  }

  async remove(filePath: string): Promise<void> {
    const full = path.join(this.root, ...filePath.split('/'));
    if (full.startsWith(this.root + path.sep)) await rm(full, { force: true });
  }
}

/** The storage of uploads for a VAR_DIR: the API and the backup command use the same. */
export function uploadsStorage(varDir: string): FileStorage {
  return new LocalDiskStorage(path.join(varDir, 'uploads'));
}

/** Where a human finds the uploads of a storage configuration (logs and command output). */
export function describeStorage(storage: StorageConfig): string {
  return storage.kind === 'local'
    ? storage.dir
    : `s3://${storage.bucket}/${storage.prefix}${storage.endpoint ? ` at ${storage.endpoint}` : ''}`;
}

/** Reads a stored file whole (the site export), or null. */
export async function readWhole(storage: FileStorage, filePath: string): Promise<Buffer | null> {
  const stream = await storage.open(filePath);
  if (!stream) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of Readable.from(stream)) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}
