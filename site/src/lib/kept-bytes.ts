/**
 * Bytes the renderer keeps between publishes (render-context.ts's keptMarkup: the 40,000 cards of
 * /books and /ar/books at 20,000 books, the search-index entries, the sitemap's entries) live in one
 * file, not in the renderer's memory: a page is written out by reading them back from the file
 * (from the system's page cache, which the kernel can give back), a batch at a time. Kept in memory
 * they were 120 MB of the renderer's 340 at 20,000 books.
 *
 * The file is the renderer process's own: made in SITE_CACHE_DIR (or the system's temporary folder)
 * and unlinked at once, so the system removes it when the process ends, however it ends. It only
 * grows (what a publish makes anew is appended; markup no publish uses any more is forgotten, not
 * reclaimed): by the few kilobytes of cards an edit changes. A new renderer (a new code version)
 * starts a new file.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, openSync, readSync, unlinkSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** `byteLength` bytes at `at` in the kept-bytes file. */
export class Stored {
  constructor(
    readonly at: number,
    readonly byteLength: number,
  ) {}
}

/** A piece of output: bytes in memory, or kept in the file. */
export type Piece = Uint8Array | Stored;

/** Appends are gathered up to this many bytes before they are written. */
const WRITE_BUFFER = 1 << 20;
/** A batch reads the file once, a stretch of at most this many bytes. */
const MAX_SPAN = 4 << 20;

let fd: number | null = null;
/** Bytes written to the file. */
let end = 0;
let pending: Buffer | null = null;
let pendingLength = 0;

function file(): number {
  if (fd === null) {
    const dir = process.env.SITE_CACHE_DIR || tmpdir();
    mkdirSync(dir, { recursive: true });
    const name = path.join(dir, `.kept-bytes-${process.pid}-${randomBytes(4).toString('hex')}`);
    fd = openSync(name, 'w+', 0o600);
    // Open, it stays readable; unlinked, it goes with the process.
    try {
      unlinkSync(name);
    } catch {
      // A system that cannot unlink an open file keeps it; the cache folder is the renderer's own.
    }
  }
  return fd;
}

function writeAll(bytes: Uint8Array, length: number, at: number): void {
  for (let done = 0; done < length; ) done += writeSync(file(), bytes, done, length - done, at + done);
}

function flush(): void {
  if (!pending || !pendingLength) return;
  writeAll(pending, pendingLength, end);
  end += pendingLength;
  pendingLength = 0;
}

/** Puts `bytes` in the file; answers where they are. */
export function keep(bytes: Uint8Array): number {
  const at = end + pendingLength;
  if (bytes.byteLength > WRITE_BUFFER - pendingLength) flush();
  if (bytes.byteLength >= WRITE_BUFFER) {
    writeAll(bytes, bytes.byteLength, end);
    end += bytes.byteLength;
    return at;
  }
  pending ??= Buffer.allocUnsafeSlow(WRITE_BUFFER);
  pending.set(bytes, pendingLength);
  pendingLength += bytes.byteLength;
  return at;
}

function readInto(target: Buffer, at: number, length: number): void {
  if (at + length > end) flush();
  for (let done = 0; done < length; ) {
    const n = readSync(file(), target, done, length - done, at + done);
    if (!n) throw new Error(`The kept-bytes file ends before ${at + length}.`);
    done += n;
  }
}

/** The bytes of `pieces`: how many. */
export function sizeOf(pieces: readonly Piece[]): number {
  let n = 0;
  for (const p of pieces) n += p.byteLength;
  return n;
}

/**
 * The bytes of `pieces` in order, as batches of about `batchBytes` each: pieces in memory as they
 * are, stored ones read from the file, the stored pieces of a batch in one read of the stretch of
 * the file they lie in (cards made one after the other lie side by side). A batch's stored bytes are
 * in one buffer that the next batch reuses: use (write, compare) a batch before asking for the next.
 */
export function* batches(pieces: readonly Piece[], batchBytes = 1 << 20): Generator<Uint8Array[]> {
  let scratch: Buffer | null = null;
  let batch: Piece[] = [];
  let size = 0;
  let lo = Infinity;
  let hi = 0;
  const resolved = (): Uint8Array[] => {
    const out: Uint8Array[] = new Array(batch.length);
    if (hi > lo) {
      const span = hi - lo;
      if (!scratch || scratch.length < span) scratch = Buffer.allocUnsafeSlow(Math.max(span, scratch ? scratch.length * 2 : 0));
      readInto(scratch, lo, span);
    }
    batch.forEach((p, i) => {
      out[i] = p instanceof Stored ? scratch!.subarray(p.at - lo, p.at - lo + p.byteLength) : p;
    });
    batch = [];
    size = 0;
    lo = Infinity;
    hi = 0;
    return out;
  };
  for (const p of pieces) {
    if (p instanceof Stored) {
      if (batch.length && Math.max(hi, p.at + p.byteLength) - Math.min(lo, p.at) > MAX_SPAN) yield resolved();
      lo = Math.min(lo, p.at);
      hi = Math.max(hi, p.at + p.byteLength);
    }
    batch.push(p);
    size += p.byteLength;
    if (size >= batchBytes) yield resolved();
  }
  if (batch.length) yield resolved();
}

/** The bytes of `pieces` as one buffer (a preview, the dev server, a route listing). */
export function bytesOf(pieces: readonly Piece[]): Buffer {
  if (pieces.length === 1 && !(pieces[0] instanceof Stored)) return Buffer.from(pieces[0].buffer, pieces[0].byteOffset, pieces[0].byteLength);
  const out = Buffer.allocUnsafe(sizeOf(pieces));
  let at = 0;
  for (const batch of batches(pieces)) {
    for (const p of batch) {
      out.set(p, at);
      at += p.byteLength;
    }
  }
  return out;
}
