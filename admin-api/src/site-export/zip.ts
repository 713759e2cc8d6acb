import type { Readable } from 'node:stream';

import ZipStream from 'zip-stream';

export interface ZipEntry {
  /** The path inside the archive, with `/` between folders (no leading `/`). */
  name: string;
  data: Buffer;
  /** Deflate (default: for text-like names, not for images, fonts, PDFs and archives, which are compressed already). */
  compress?: boolean;
}

const ALREADY_COMPRESSED = /\.(jpe?g|png|gif|webp|avif|woff2?|pdf|zip|gz|br|mp[34]|webm)$/i;

/**
 * A ZIP archive of `entries` as a stream (zip-stream, archiver's writer: UTF-8 names, ZIP64 records
 * past 65,535 entries or 4 GiB). An entry is taken from `entries` once the one before is written, so
 * one file at a time is in memory and a reader that stops reading stops the export.
 * Names must be unique and relative.
 */
export function zipChunks(
  entries: AsyncIterable<ZipEntry> | Iterable<ZipEntry>,
  { modified = new Date() }: { modified?: Date } = {},
): Readable {
  // Local times, as unzip shows them; zlib's usual level (zip-stream's own default is the fastest, 20% larger).
  const zip = new ZipStream({ forceLocalTime: true, zlib: { level: 6 } });
  const names = new Set<string>();
  // A reader that goes away (a closed download) ends the loop instead of leaving it waiting.
  let abort = (_error: Error) => {};
  zip.on('close', () => abort(new Error('The archive was closed before it was complete.')));
  void (async () => {
    for await (const entry of entries) {
      const name = entry.name;
      if (!name || name.startsWith('/') || name.split('/').some((part) => part === '..' || part === ''))
        throw new Error(`Not a relative path inside an archive: ${JSON.stringify(name)}`);
      if (names.has(name)) throw new Error(`Two entries named ${name}`);
      names.add(name);
      if (zip.destroyed) return;
      const store = !(entry.compress ?? !ALREADY_COMPRESSED.test(name));
      await new Promise<void>((written, failed) => {
        abort = failed;
        zip.entry(entry.data, { name, date: modified, mode: 0o644, store }, (error) => (error ? failed(error) : written()));
      });
    }
    zip.finalize();
  })().catch((error: Error) => zip.destroy(error));
  return zip as unknown as Readable;
}
