import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import {
  compareBy,
  imagePath,
  imageSizeFromName,
  isEmailAddress,
  isWebLink,
  LIST_ORDER,
  parseReviewEntry,
  reviewEntryFields,
  safeUrl,
  serializeReviewEntry,
} from './rules.js';

describe('isWebLink', () => {
  it('accepts absolute http(s) links with a host', () => {
    for (const v of ['https://example.com', 'http://localhost:3000/x', ' https://www.guardian.com/review?a=1#b ', 'HTTPS://EXAMPLE.COM'])
      assert.equal(isWebLink(v), true, v);
  });
  it('refuses everything a visitor cannot follow to another site', () => {
    for (const v of [
      '',
      '   ',
      'www.guardian.com/review',
      '//cdn.example/x.jpg',
      'javascript:alert(1)',
      'data:text/html,x',
      'ftp://example.com',
      'https://',
      'https://exa mple.com',
      'mailto:a@b.c',
      '/books/1',
      null,
      undefined,
    ])
      assert.equal(isWebLink(v), false, String(v));
  });
});

describe('isEmailAddress', () => {
  it("accepts name@domain.tld, trimmed, as a browser's type=email field does", () => {
    for (const v of [
      'reader@example.com',
      ' a@b.c ',
      'first.last+tag@mail.example.org',
      "O'Brien_{x}@Sub-Domain.Example.ORG",
      'x@a-b.co.uk',
      `a@${'d'.repeat(63)}.org`,
    ])
      assert.equal(isEmailAddress(v), true, v);
  });
  it('refuses what cannot be an address', () => {
    for (const v of ['', 'reader', 'reader@', '@example.com', 'reader@example', 'a b@example.com', 'a@b@c.d', null, undefined])
      assert.equal(isEmailAddress(v), false, String(v));
  });
  it('refuses an address in angle brackets and a domain with an empty, leading, trailing or over-long label', () => {
    for (const v of [
      '<a@b.org>',
      '<same@example.org>',
      'Reader <a@b.org>',
      'x@example..org',
      'x@.example.org',
      'x@example.org.',
      'x@-example.org',
      'x@example-.org',
      'a@b.org,c@d.org',
      'a@b.org\nBcc: c@d.org',
      `a@${'d'.repeat(64)}.org`,
    ])
      assert.equal(isEmailAddress(v), false, v);
  });
  it('refuses long hostile input without backtracking for ever (a slow rule would time the test out)', () => {
    for (const v of [`a@${'a-'.repeat(50_000)}`, `a@${'a.'.repeat(50_000)}!`, `${'a'.repeat(100_000)}@`])
      assert.equal(isEmailAddress(v), false);
  });
});

describe('safeUrl', () => {
  it('keeps web links and paths on this site', () => {
    assert.equal(safeUrl(' https://example.com/a '), 'https://example.com/a');
    assert.equal(safeUrl('/uploads/x.pdf'), '/uploads/x.pdf');
  });
  it('drops scripts, data, protocol-relative and other-host tricks', () => {
    for (const v of [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      'data:image/png;base64,AAAA',
      '//evil.example/x',
      '/\\evil.example',
      'vbscript:x',
      'www.example.com',
      '',
      null,
    ])
      assert.equal(safeUrl(v), null, String(v));
  });
});

describe('imagePath (specification §7)', () => {
  it('keeps full URLs and /uploads/, /objects/, /public-objects/ paths', () => {
    for (const v of ['/uploads/books/a.jpg', '/objects/a.jpg', '/public-objects/a.jpg', 'https://cdn.example/a.jpg'])
      assert.equal(imagePath(v), v);
  });
  it('puts a bare file name under /uploads/', () => {
    assert.equal(imagePath('cover.jpg'), '/uploads/cover.jpg');
    assert.equal(imagePath('./cover.jpg'), '/uploads/cover.jpg');
    assert.equal(imagePath(' books/cover.jpg '), '/uploads/books/cover.jpg');
  });
  it('drops what a page must not load', () => {
    for (const v of ['//cdn.example/x.jpg', 'data:image/png;base64,AAAA', 'javascript:alert(1)', '', '  ', null])
      assert.equal(imagePath(v), null, String(v));
  });
});

describe('imageSizeFromName', () => {
  it('reads the size the API puts at the end of an upload name', () => {
    assert.deepEqual(imageSizeFromName('/uploads/artworks/mf3k2a-0123456789abcdef-1200x800.jpg'), { width: 1200, height: 800 });
    assert.deepEqual(imageSizeFromName('/uploads/x-10x20.WEBP'), { width: 10, height: 20 });
  });
  it('gives null for other names and absurd sizes', () => {
    for (const v of ['/uploads/cover.jpg', '/uploads/x-0x20.jpg', '/uploads/x-200000x1.jpg', '/uploads/x-10x20.pdf', null])
      assert.equal(imageSizeFromName(v), null, String(v));
  });
});

describe('review entries (specification §2)', () => {
  it('reads a JSON entry and a bare URL, and tells Drive, PDF and plain links apart', () => {
    assert.deepEqual(parseReviewEntry('{"title":"In The Guardian","url":"https://www.theguardian.com/r"}'), {
      title: 'In The Guardian',
      url: 'https://www.theguardian.com/r',
      kind: 'link',
    });
    assert.deepEqual(parseReviewEntry(' https://drive.google.com/file/d/abc/view '), {
      title: null,
      url: 'https://drive.google.com/file/d/abc/view',
      kind: 'drive',
    });
    assert.deepEqual(parseReviewEntry('https://example.com/r.pdf?x=1'), { title: null, url: 'https://example.com/r.pdf?x=1', kind: 'pdf' });
  });
  it('keeps a title that is a number as the title ("1984" is a title, not a position)', () => {
    assert.equal(parseReviewEntry('{"title":"1984","url":"https://example.com/r"}')?.title, '1984');
  });
  it('gives null for what the site cannot link, so the overlay can refuse it', () => {
    for (const v of [
      'www.guardian.com/review',
      '{"title":"No link","url":""}',
      '{broken',
      'javascript:alert(1)',
      '{"title":"x","url":"//evil.example"}',
      '',
    ])
      assert.equal(parseReviewEntry(v), null, v);
  });
  it('stores a titled review as JSON and an untitled one as its URL, and reads both back for editing', () => {
    assert.equal(
      serializeReviewEntry({ title: ' A review ', url: ' https://example.com/r ' }),
      '{"title":"A review","url":"https://example.com/r"}',
    );
    assert.equal(serializeReviewEntry({ title: '', url: 'https://example.com/r' }), 'https://example.com/r');
    assert.deepEqual(reviewEntryFields('{"title":"A review","url":"https://example.com/r"}'), {
      title: 'A review',
      url: 'https://example.com/r',
    });
    assert.deepEqual(reviewEntryFields('https://example.com/r'), { title: '', url: 'https://example.com/r' });
    assert.deepEqual(reviewEntryFields('{broken'), { title: '', url: '{broken' });
    const entry = serializeReviewEntry({ title: 'Round trip', url: 'https://example.com/r' });
    assert.deepEqual(parseReviewEntry(entry), { title: 'Round trip', url: 'https://example.com/r', kind: 'link' });
  });
});

describe('list order', () => {
  it('sorts as the database does: each field in turn, the id breaking ties', () => {
    const books = [
      { id: 1, year: 2020 },
      { id: 2, year: 2024 },
      { id: 3, year: 2020 },
    ];
    assert.deepEqual(
      [...books].sort(compareBy(LIST_ORDER.books)).map((b) => b.id),
      [2, 3, 1],
    );
  });
  it('compares ISO date strings and Date objects as times, date-only strings as text, and puts NULL last when descending', () => {
    const essays = [
      { id: 1, publishedDate: '2024-01-05', createdAt: '2024-01-05T10:00:00.000Z' },
      { id: 2, publishedDate: null, createdAt: new Date('2025-01-01T00:00:00Z') },
      { id: 3, publishedDate: '2024-01-05', createdAt: new Date('2024-01-05T11:00:00Z') },
      { id: 4, publishedDate: '2025-03-01', createdAt: '2020-01-01T00:00:00.000Z' },
    ];
    assert.deepEqual(
      [...essays].sort(compareBy(LIST_ORDER.essays)).map((e) => e.id),
      [4, 3, 1, 2],
    );
    assert.deepEqual(
      [...essays].sort(compareBy({ publishedDate: 'ASC', id: 'ASC' })).map((e) => e.id),
      [2, 1, 3, 4],
    );
  });
});
