import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sniffFileType } from './sniff.js';

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
});
