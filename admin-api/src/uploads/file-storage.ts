import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** Where uploaded files live. Local disk by default; an S3-compatible store can implement the same. */
export abstract class FileStorage {
  /** Stores the bytes and answers the public URL path, e.g. /uploads/books/abc.jpg. */
  abstract save(folder: string, name: string, data: Buffer): Promise<string>;
}

export class LocalDiskStorage extends FileStorage {
  constructor(readonly root: string) {
    super();
  }

  async save(folder: string, name: string, data: Buffer): Promise<string> {
    const dir = path.join(this.root, folder);
    await mkdir(dir, { recursive: true });
    // Write then rename, so a half-written file is never served.
    const tmp = path.join(dir, `.${name}.partial`);
    await writeFile(tmp, data);
    await rename(tmp, path.join(dir, name));
    return `/uploads/${folder}/${name}`;
  }
}
