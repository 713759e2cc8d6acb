import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { batches, bytesOf, keep, sizeOf, Stored, type Piece } from './kept-bytes';

const dir = mkdtempSync(path.join(tmpdir(), 'kept-bytes-'));
process.env.SITE_CACHE_DIR = dir;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const stored = (text: string) => {
  const bytes = Buffer.from(text, 'utf8');
  return new Stored(keep(bytes), bytes.byteLength);
};

describe('kept bytes', () => {
  it('reads back exactly what was kept, in memory and in the file, mixed with bytes in memory', () => {
    const texts = Array.from({ length: 3000 }, (_, i) => `<article>كتاب ${i} — card ${i} ${'x'.repeat(i % 700)}</article>`);
    // More than the write buffer holds: some are in the file, the last ones still waiting to be written.
    const pieces: Piece[] = texts.flatMap((t) => [Buffer.from('<li>'), stored(t), Buffer.from('</li>')]);
    const expected = texts.map((t) => `<li>${t}</li>`).join('');
    expect(sizeOf(pieces)).toBe(Buffer.byteLength(expected));
    expect(bytesOf(pieces).toString('utf8')).toBe(expected);
    // A piece larger than a write buffer and a batch goes straight to the file.
    const large = 'ب'.repeat(3 << 20);
    expect(bytesOf([stored(large)]).toString('utf8')).toBe(large);
  });

  it('gives batches of about the asked size, each usable before the next is asked for', () => {
    const a = stored('a'.repeat(5000));
    const b = stored('b'.repeat(5000));
    const seen: string[] = [];
    let count = 0;
    for (const batch of batches([b, Buffer.from('|'), a, b], 6000)) {
      count++;
      seen.push(batch.map((p) => Buffer.from(p).toString('utf8')).join(''));
    }
    expect(count).toBe(2);
    expect(seen.join('')).toBe(`${'b'.repeat(5000)}|${'a'.repeat(5000)}${'b'.repeat(5000)}`);
  });

  it('leaves no file behind in the cache folder (the open file is unlinked)', () => {
    stored('anything');
    expect(readdirSync(dir)).toEqual([]);
  });
});
