import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { isStoredFilePath, sniffFileType, storedFileType } from './sniff.js';

const pad = (head: number[] | string) => Buffer.concat([Buffer.from(head as never), Buffer.alloc(16)]);

describe('sniffFileType', () => {
  it('recognises the accepted formats by their bytes', () => {
    assert.equal(sniffFileType(pad([0xff, 0xd8, 0xff, 0xe0]))?.ext, 'jpg');
    assert.equal(sniffFileType(pad([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))?.ext, 'png');
    assert.equal(sniffFileType(pad('GIF89a'))?.ext, 'gif');
    assert.equal(sniffFileType(pad('RIFF\0\0\0\0WEBPVP8 '))?.ext, 'webp');
    assert.equal(sniffFileType(pad('\0\0\0\x1cftypavif'))?.ext, 'avif');
    assert.equal(sniffFileType(pad('%PDF-1.7'))?.mime, 'application/pdf');
  });

  it('refuses markup and unknown bytes', () => {
    assert.equal(sniffFileType(pad('<svg xmlns="http://www.w3.org/2000/svg">')), null);
    assert.equal(sniffFileType(pad('<!doctype html><p>')), null);
    assert.equal(sniffFileType(pad('  %PDF-1.7')), null);
    assert.equal(sniffFileType(Buffer.from('%PDF')), null);
  });

  it('knows the names the server gives stored files, and serves only their types', () => {
    assert.equal(isStoredFilePath('books/mf3k2a-0123456789abcdef-1200x800.jpg'), true);
    assert.equal(isStoredFilePath('plays/mf3k2a-0123456789abcdef.pdf'), true);
    assert.equal(isStoredFilePath('demo/cover-1-600x900.jpg'), true);
    for (const bad of [
      'general/evil.html',
      'general/evil.svg',
      'site/a.png',
      'general/Evil.png',
      'general/a b.png',
      'general/../a.png',
      'a.png',
      'general/x/a.png',
    ]) {
      assert.equal(isStoredFilePath(bad), false, bad);
    }
    assert.equal(storedFileType('/general/a.PDF')?.mime, 'application/pdf');
    assert.equal(storedFileType('/general/a.svg'), null);
    assert.equal(storedFileType('/general/a.jpg/'), null);
  });
});
