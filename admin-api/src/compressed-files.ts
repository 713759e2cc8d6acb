import { open } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

import type express from 'express';

/**
 * The site's text files compressed on the fly for `npm start`, as nginx's gzip and brotli do in
 * production (nginx.conf: level 5, from 256 bytes, the same types), each result kept in a small cache
 * keyed by the file's identity (inode, size, modification time), so the React runtime is compressed
 * once per process, not per visitor. On the fly rather than .br/.gz files beside each page, so a
 * site version stays exactly what the renderer wrote (targeted publish, hard links, export, deploy).
 */
const COMPRESSIBLE = /\.(html|css|js|mjs|json|xml|svg|txt|webmanifest|map|ttf|wasm)$/i;
const MIN_BYTES = 256;
/** Small files come and go with publishes; the cache keeps the newest 16 MB of compressed bytes. */
const CACHE_BYTES = 16 * 1024 * 1024;
const ENCODINGS = {
  br: promisify<zlib.InputType, zlib.BrotliOptions, Buffer>(zlib.brotliCompress),
  gzip: promisify<zlib.InputType, zlib.ZlibOptions, Buffer>(zlib.gzip),
} as const;
const OPTIONS = {
  br: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } },
  gzip: { level: 5 },
} as const;
type Encoding = keyof typeof ENCODINGS;

/** Whether a file of this name is compressed when the client accepts it (and so varies by Accept-Encoding). */
export const isCompressible = (file: string) => COMPRESSIBLE.test(file);

const cache = new Map<string, Promise<Buffer>>();
const sizes = new Map<string, number>();
let cachedBytes = 0;

function remember(key: string, compressed: Promise<Buffer>) {
  cache.set(key, compressed);
  compressed.then(
    (bytes) => {
      if (cache.get(key) !== compressed) return;
      sizes.set(key, bytes.length);
      cachedBytes += bytes.length;
      for (const [oldest] of cache) {
        if (cachedBytes <= CACHE_BYTES) break;
        forget(oldest);
      }
    },
    () => forget(key),
  );
}
function forget(key: string) {
  cache.delete(key);
  cachedBytes -= sizes.get(key) ?? 0;
  sizes.delete(key);
}

/**
 * Sends `file` (a site file the request resolved to) compressed when the client accepts br or gzip
 * and the file is worth it; resolves to false, having sent nothing, otherwise (the caller serves it
 * as it is). `setHeaders` adds the headers every answer for this file has (security, cache).
 */
export async function sendCompressed(
  req: express.Request,
  res: express.Response,
  file: string,
  setHeaders: (res: express.Response) => void,
): Promise<boolean> {
  if (!isCompressible(file)) return false;
  // Brotli whenever the client takes it (as nginx does), whatever order the client listed them in.
  const encoding: Encoding | null = req.acceptsEncodings('br') ? 'br' : req.acceptsEncodings('gzip') ? 'gzip' : null;
  if (!encoding) return false;
  let handle;
  try {
    handle = await open(file, 'r');
  } catch {
    return false;
  }
  try {
    // The key and the bytes come from the same open file, whatever a publish renames meanwhile.
    const stat = await handle.stat();
    if (!stat.isFile() || stat.size < MIN_BYTES) return false;
    const key = `${encoding}:${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeMs}`;
    let compressed = cache.get(key);
    if (compressed) {
      cache.delete(key);
      cache.set(key, compressed);
    } else {
      const bytes = await handle.readFile();
      remember(key, (compressed = ENCODINGS[encoding](bytes, OPTIONS[encoding])));
    }
    const body = await compressed;
    setHeaders(res);
    res.setHeader('Vary', 'Accept-Encoding');
    res.setHeader('Content-Encoding', encoding);
    res.setHeader('Last-Modified', stat.mtime.toUTCString());
    res.setHeader('ETag', `W/"${stat.size.toString(16)}-${Math.trunc(stat.mtimeMs).toString(16)}-${encoding}"`);
    res.type(path.extname(file));
    if (req.fresh) {
      res.status(304).end();
      return true;
    }
    res.setHeader('Content-Length', body.length);
    res.end(req.method === 'HEAD' ? undefined : body);
    return true;
  } finally {
    await handle.close();
  }
}
