import assert from 'node:assert/strict';
import { inflateRawSync } from 'node:zlib';

/** The entries of a ZIP archive, read independently of the product's writer (src/site-export/zip.ts). */
export function readZip(bytes: Buffer): Map<string, Buffer> {
  const end = bytes.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  assert.ok(end >= 0, 'a ZIP archive');
  const files = new Map<string, Buffer>();
  let at = bytes.readUInt32LE(end + 16);
  for (let i = 0; i < bytes.readUInt16LE(end + 10); i++) {
    const nameLength = bytes.readUInt16LE(at + 28);
    const name = bytes.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    const local = bytes.readUInt32LE(at + 42);
    const start = local + 30 + bytes.readUInt16LE(local + 26) + bytes.readUInt16LE(local + 28);
    const raw = bytes.subarray(start, start + bytes.readUInt32LE(at + 20));
    files.set(name, bytes.readUInt16LE(at + 10) === 8 ? inflateRawSync(raw) : Buffer.from(raw));
    at += 46 + nameLength + bytes.readUInt16LE(at + 30) + bytes.readUInt16LE(at + 32);
  }
  return files;
}
