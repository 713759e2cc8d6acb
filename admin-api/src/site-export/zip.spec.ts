import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { crc32, inflateRawSync } from 'node:zlib';

import { zipChunks, type ZipEntry } from './zip.js';

async function zip(entries: ZipEntry[]) {
  const chunks: Buffer[] = [];
  for await (const chunk of zipChunks(entries, { modified: new Date(2026, 0, 15, 10, 30, 0) })) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** An independent reader: the end records, the central directory, each local header and its data. */
function readZip(bytes: Buffer) {
  const eocd = bytes.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  assert.ok(eocd >= 0, 'end of central directory');
  let count = bytes.readUInt16LE(eocd + 10);
  let offset = bytes.readUInt32LE(eocd + 16);
  let zip64 = false;
  if (count === 0xffff) {
    zip64 = true;
    const locator = eocd - 20;
    assert.equal(bytes.readUInt32LE(locator), 0x07064b50);
    const record = Number(bytes.readBigUInt64LE(locator + 8));
    assert.equal(bytes.readUInt32LE(record), 0x06064b50);
    count = Number(bytes.readBigUInt64LE(record + 32));
    offset = Number(bytes.readBigUInt64LE(record + 48));
  }
  const files = new Map<string, Buffer>();
  const methods = new Map<string, number>();
  for (let i = 0; i < count; i++) {
    assert.equal(bytes.readUInt32LE(offset), 0x02014b50);
    const method = bytes.readUInt16LE(offset + 10);
    const crc = bytes.readUInt32LE(offset + 16);
    const size = bytes.readUInt32LE(offset + 20);
    const nameLength = bytes.readUInt16LE(offset + 28);
    const extraLength = bytes.readUInt16LE(offset + 30);
    const local = bytes.readUInt32LE(offset + 42);
    const name = bytes.subarray(offset + 46, offset + 46 + nameLength).toString('utf8');
    assert.equal(bytes.readUInt32LE(local), 0x04034b50);
    const dataStart = local + 30 + bytes.readUInt16LE(local + 26) + bytes.readUInt16LE(local + 28);
    const raw = bytes.subarray(dataStart, dataStart + size);
    const data = method === 8 ? inflateRawSync(raw) : Buffer.from(raw);
    assert.equal(crc32(data), crc, `${name}: checksum`);
    files.set(name, data);
    methods.set(name, method);
    offset += 46 + nameLength + extraLength + bytes.readUInt16LE(offset + 32);
  }
  return { files, methods, zip64 };
}

describe('zipChunks', () => {
  it('writes text deflated and images stored, with UTF-8 names, that an independent reader and unzip read back', async () => {
    const html = Buffer.from(`<!doctype html><p>${'كتاب '.repeat(200)}</p>`);
    const image = Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 7919) % 256));
    const bytes = await zip([
      { name: 'index.html', data: html },
      { name: 'books/3/index.html', data: Buffer.from('<p>book</p>') },
      { name: '_astro/cover-600w.webp', data: image },
      { name: 'uploads/كتب/غلاف.jpg', data: image },
      { name: 'empty.txt', data: Buffer.alloc(0) },
    ]);
    const { files, methods, zip64 } = readZip(bytes);
    assert.equal(zip64, false);
    assert.deepEqual(
      [...files.keys()],
      ['index.html', 'books/3/index.html', '_astro/cover-600w.webp', 'uploads/كتب/غلاف.jpg', 'empty.txt'],
    );
    assert.deepEqual(files.get('index.html'), html);
    assert.equal(methods.get('index.html'), 8);
    assert.equal(methods.get('_astro/cover-600w.webp'), 0);
    assert.deepEqual(files.get('uploads/كتب/غلاف.jpg'), image);
    assert.equal(files.get('empty.txt')!.length, 0);

    const unzip = spawnSync('unzip', ['-v'], { encoding: 'utf8' });
    if (unzip.status === 0) {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'zip-spec-'));
      try {
        writeFileSync(path.join(dir, 'a.zip'), bytes);
        const test = spawnSync('unzip', ['-t', path.join(dir, 'a.zip')], { encoding: 'utf8' });
        assert.equal(test.status, 0, test.stdout + test.stderr);
        assert.match(test.stdout, /No errors detected/);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
  });

  it('past 65,535 entries writes the ZIP64 end records, and every entry is still found', async () => {
    const entries = Array.from({ length: 70_000 }, (_, i) => ({ name: `p/${i}.txt`, data: Buffer.from(String(i)) }));
    const { files, zip64 } = readZip(await zip(entries));
    assert.equal(zip64, true);
    assert.equal(files.size, 70_000);
    assert.equal(files.get('p/69999.txt')!.toString(), '69999');
  });

  it('refuses names that would leave the folder it is unpacked into, and duplicates', async () => {
    await assert.rejects(zip([{ name: '../evil.html', data: Buffer.from('x') }]), /Not a relative path inside an archive: "..\/evil.html"/);
    await assert.rejects(zip([{ name: '/etc/passwd', data: Buffer.from('x') }]), /Not a relative path/);
    await assert.rejects(
      zip([
        { name: 'a.html', data: Buffer.from('x') },
        { name: 'a.html', data: Buffer.from('y') },
      ]),
      /Two entries named a.html/,
    );
  });
});
