import assert from 'node:assert/strict';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';

import { type Api, startApi } from './support/harness.js';
import { readZip } from './support/zip.js';

const page = (body: string) =>
  `<!DOCTYPE html><html lang="en"><head><link rel="canonical" href="https://author.example.org/"><link rel="stylesheet" href="/_astro/site.css"></head><body>${body}</body></html>`;

let api: Api;
let token: string;

before(async () => {
  api = await startApi();
  token = await api.login();
});
after(async () => {
  await api.close();
});

/** A small live site as the builder leaves it ($VAR_DIR/site/live), and uploads beside it. */
async function buildLiveSite() {
  const live = api.config.siteDir;
  await mkdir(path.join(live, 'books'), { recursive: true });
  await mkdir(path.join(live, '_astro'), { recursive: true });
  await writeFile(path.join(live, 'index.html'), page('<a href="/books">Books</a>'));
  await writeFile(path.join(live, 'books.html'), page('<a href="/books/1">A Book</a>'));
  await writeFile(path.join(live, 'books', '1.html'), page('<img src="/uploads/books/cover-600x900.jpg" alt=""><a href="/books">Back</a>'));
  await writeFile(path.join(live, '_astro', 'site.css'), 'body{color:#123}');
  const uploads = path.join(api.config.varDir, 'uploads', 'books');
  await mkdir(uploads, { recursive: true });
  await writeFile(path.join(uploads, 'cover-600x900.jpg'), Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]));
  // An upload no published page shows (a draft's cover): not part of a public copy.
  await writeFile(path.join(uploads, 'draft-600x900.jpg'), Buffer.from([0xff, 0xd8, 0xff, 0xe0, 9]));
}

describe('GET /api/admin/site-export', () => {
  it('answers 409 with error.siteNotBuilt before the first build is live', async () => {
    const res = await api.request('GET', '/api/admin/site-export', { token });
    assert.equal(res.status, 409);
    assert.equal(
      res.body.message,
      'The site has not been built yet, so there is nothing to download. Try again when the first publish is live.',
    );
    assert.equal(res.body.messageKey, 'error.siteNotBuilt');
  });

  it('answers an admin the live site as a ZIP: pages as folders with relative links, the uploads they show and no others', async () => {
    await buildLiveSite();
    try {
      const res = await fetch(`${api.url}/api/admin/site-export`, { headers: { authorization: `Bearer ${token}` } });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('content-type'), 'application/zip');
      assert.match(res.headers.get('content-disposition') ?? '', /^attachment; filename="site-\d{4}-\d{2}-\d{2}\.zip"$/);
      assert.equal(res.headers.get('cache-control'), 'no-store');
      const files = readZip(Buffer.from(await res.arrayBuffer()));
      assert.deepEqual([...files.keys()].sort(), [
        '_astro/site.css',
        'books/1/index.html',
        'books/index.html',
        'index.html',
        'uploads/books/cover-600x900.jpg',
      ]);
      const book = files.get('books/1/index.html')!.toString('utf8');
      assert.match(book, /<img src="\.\.\/\.\.\/uploads\/books\/cover-600x900\.jpg" alt="">/);
      assert.match(book, /<a href="\.\.\/\.\.\/books\/index\.html">Back<\/a>/);
      assert.match(book, /<link rel="stylesheet" href="\.\.\/\.\.\/_astro\/site\.css">/);
      assert.deepEqual(files.get('uploads/books/cover-600x900.jpg'), Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]));
    } finally {
      await rm(path.join(api.config.varDir, 'site'), { recursive: true, force: true });
    }
  });

  it('answers 401 without a session and with a made-up token', async () => {
    for (const headers of [{}, { authorization: 'Bearer made-up-token' }] as Record<string, string>[]) {
      const res = await api.request('GET', '/api/admin/site-export', { headers });
      assert.equal(res.status, 401);
      assert.equal(res.body.message, 'Authentication required. Please sign in again.');
      assert.equal(res.body.messageKey, 'error.authenticationRequired');
    }
  });

  it('is in the OpenAPI document: a ZIP for admins (bearer)', async () => {
    const docs = await api.request('GET', '/api/docs-json');
    const operation = docs.body.paths['/api/admin/site-export']?.get;
    assert.ok(operation, 'GET /api/admin/site-export is documented');
    assert.deepEqual(Object.keys(operation.responses['200'].content), ['application/zip']);
    assert.deepEqual(operation.security, [{ bearer: [] }]);
  });
});
