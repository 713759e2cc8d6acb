import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';

import { CARD_BACKGROUND, CARD_QUALITY, uploadVariantSet, VARIANT_QUALITY } from '@portfolio/contract/image-variants';
import { imageSizeFromName } from '@portfolio/contract/rules';
import { createConnection } from 'mysql2/promise';
import sharp from 'sharp';
import type { DataSource } from 'typeorm';

import { runBackup } from '../src/backup/backup.js';
import { runRestore } from '../src/backup/restore.js';
import { loadConfig } from '../src/config/config.js';
import { openDataSource } from '../src/database/data-source.js';
import { ImageVariantJob } from '../src/image-variants/image-variant-job.entity.js';
import { IMAGE_VARIANTS_RECIPE, ImageVariantJobs, MAX_ATTEMPTS } from '../src/image-variants/image-variant-jobs.js';
import { OutboxEvent } from '../src/publishing/outbox-event.entity.js';
import { ADMIN, type Api, type ApiProcess, startApi, startApiProcess, TEST_DB } from './support/harness.js';
import { eventually } from './support/newsletter.js';

/** A photo-like JPEG: random pixels smoothed up, so it neither compresses to nothing nor takes long to make. */
async function photo(width: number, height: number): Promise<Buffer> {
  const w = Math.ceil(width / 3);
  const h = Math.ceil(height / 3);
  return sharp(randomBytes(w * h * 3), { raw: { width: w, height: h, channels: 3 } })
    .resize(width, height, { kernel: 'cubic' })
    .jpeg({ quality: 85 })
    .toBuffer();
}

function form(file: Buffer, name: string, folder = 'books') {
  const data = new FormData();
  data.append('file', new Blob([new Uint8Array(file)], { type: 'image/jpeg' }), name);
  data.append('contentType', folder);
  return data;
}

async function upload(api: Pick<Api, 'request'>, token: string, file: Buffer, folder = 'books'): Promise<string> {
  const res = await api.request('POST', '/api/upload', { token, rawBody: form(file, 'photo.jpg', folder) });
  assert.equal(res.status, 201, res.text);
  return res.body.url as string;
}

const stateOf = (api: Pick<Api, 'request'>, uploadPath: string) =>
  api.request('GET', `/api/image-variants?path=${encodeURIComponent(uploadPath)}`);

async function settled(api: Pick<Api, 'request'>, uploadPath: string, timeoutMs = 120_000) {
  const res = await eventually(
    () => stateOf(api, uploadPath),
    (r) => r.status === 200 && r.body.state !== 'pending',
    `the variants of ${uploadPath}`,
    timeoutMs,
  );
  return res.body as { id: number; path: string; state: string };
}

/** Every variant of the upload is served whole: decodable, at its size, with the site's bytes when `original` is given. */
async function assertVariantsServed(url: string, uploadPath: string, original?: Buffer) {
  const size = imageSizeFromName(uploadPath)!;
  const set = uploadVariantSet(uploadPath, size);
  for (const v of set) {
    const res = await fetch(url + v.stored);
    assert.equal(res.status, 200, v.stored);
    assert.equal(res.headers.get('content-type'), v.kind === 'card' ? 'image/jpeg' : 'image/webp');
    const bytes = Buffer.from(await res.arrayBuffer());
    const meta = await sharp(bytes).metadata();
    assert.deepEqual([meta.format, meta.width, meta.height], [v.kind === 'card' ? 'jpeg' : 'webp', v.width, v.height], v.stored);
    await sharp(bytes).raw().toBuffer();
    if (original) {
      // The recipe of VARIANT_RECIPE / CARD_RECIPE, as the site made them (site/src/lib/image-variants.ts).
      const sized = sharp(original).rotate().resize(v.width, v.height, { fit: 'cover' });
      const expected = await (
        v.kind === 'card'
          ? sized.flatten({ background: CARD_BACKGROUND }).jpeg({ quality: CARD_QUALITY })
          : sized.webp({ quality: VARIANT_QUALITY })
      ).toBuffer();
      assert.ok(expected.equals(bytes), `${v.stored} has the recipe's bytes`);
    }
  }
  return set;
}

function configFor(varDir: string, env: Record<string, string> = {}) {
  return loadConfig({
    VAR_DIR: varDir,
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
    ...(TEST_DB === 'mysql' ? { DATABASE_URL: process.env.TEST_MYSQL_URL! } : {}),
    ...env,
  });
}

async function emptyMysql() {
  const conn = await createConnection({ uri: process.env.TEST_MYSQL_URL!.replace(/^mariadb:/, 'mysql:'), multipleStatements: true });
  try {
    const [rows] = await conn.query('SELECT table_name AS name FROM information_schema.tables WHERE table_schema = DATABASE()');
    const names = (rows as { name: string }[]).map((r) => `\`${r.name}\``);
    if (names.length) await conn.query(`SET FOREIGN_KEY_CHECKS = 0; DROP TABLE ${names.join(', ')}; SET FOREIGN_KEY_CHECKS = 1;`);
  } finally {
    await conn.end();
  }
}

describe('image variants: made once when an upload arrives', () => {
  let api: Api;
  let token: string;
  before(async () => {
    api = await startApi();
    token = await api.login();
  });
  after(() => api.close());

  it('makes every variant of an uploaded image, stored under /uploads/_variants/ and served; publishes the finished job', async () => {
    const original = await photo(1600, 1000);
    const uploadPath = await upload(api, token, original);
    const first = await stateOf(api, uploadPath);
    assert.equal(first.status, 200, first.text);
    assert.equal(first.body.path, uploadPath);
    assert.ok(['pending', 'done'].includes(first.body.state));
    const job = await settled(api, uploadPath);
    assert.deepEqual(job, { id: first.body.id, path: uploadPath, state: 'done' });
    const set = await assertVariantsServed(api.url, uploadPath, original);
    // Every width the pages ask for (1600 as the original's own 1600), then the share card.
    assert.deepEqual(
      set.map((v) => v.width),
      [160, 240, 360, 400, 480, 720, 800, 1080, 1600, 1200],
    );
    assert.ok(set.every((v) => v.stored.startsWith('/uploads/_variants/books/')));
    // The finished job, as the site's rebuild request will carry it.
    const events = await api.dataSource.manager.findBy(OutboxEvent, { kind: 'image-variants' });
    assert.deepEqual(
      events.map((e) => [e.entityId, e.action, e.fullPublish]),
      [[job.id, 'update', false]],
    );
    // Anonymous and public; the immutable caching of uploads covers variants (their names change with their bytes).
    const variant = await fetch(api.url + set[0].stored);
    assert.match(variant.headers.get('cache-control') ?? '', /immutable/);
  });

  it('answers 404 in the usual error format for a path without a job', async () => {
    for (const query of ['?path=/uploads/books/none-1x1.jpg', '?path=', '']) {
      const res = await api.request('GET', `/api/image-variants${query}`);
      assert.equal(res.status, 404, query);
      assert.deepEqual(res.body, { statusCode: 404, message: 'Not found', messageKey: 'error.notFound' });
    }
  });

  it('gives up on a file the encoder cannot read (failed), and publishes that, so pages shown meanwhile show it as a full publish does', async () => {
    // A JPEG cut short: its header reads (the upload takes it) but its pixels do not decode.
    const whole = await photo(800, 600);
    const uploadPath = await upload(api, token, whole.subarray(0, Math.floor(whole.length / 3)));
    const job = await settled(api, uploadPath);
    assert.equal(job.state, 'failed');
    const row = await api.dataSource.manager.findOneByOrFail(ImageVariantJob, { id: job.id });
    assert.match(row.lastError ?? '', /not an image the encoder reads/);
    assert.equal(row.attempts, 1, 'a permanent failure is not tried again');
    assert.equal(await api.dataSource.manager.countBy(OutboxEvent, { kind: 'image-variants', entityId: job.id }), 1);
  });
});

describe('image variants while the storage refuses them', () => {
  it('keeps trying however often a save fails (the storage away), and makes them once it takes them again', async () => {
    const api = await startApi();
    try {
      const token = await api.login();
      // A file where the variants' folder belongs: every save of a variant fails, as with a storage that is away.
      const blocked = path.join(api.config.varDir, 'uploads', '_variants', 'plays');
      await mkdir(path.dirname(blocked), { recursive: true });
      await writeFile(blocked, 'in the way');
      const uploadPath = await upload(api, token, await photo(600, 400), 'plays');
      const jobs = api.app.get(ImageVariantJobs);
      const failedTries = async (count: number) => {
        const row = await eventually(
          () => api.dataSource.manager.findOneByOrFail(ImageVariantJob, { path: uploadPath }),
          (r) => r.attempts >= count && r.claimedBy === null,
          'a failed try',
        );
        assert.equal(row.state, 'pending');
        assert.doesNotMatch(row.lastError ?? '', /^unfinished/);
        return row;
      };
      const first = await failedTries(1);
      // Long past the attempts a job whose maker dies gets: still pending, tried again when due.
      await api.dataSource.manager.update(ImageVariantJob, { id: first.id }, { attempts: MAX_ATTEMPTS + 3, dueAt: Date.now() });
      jobs.wake();
      await failedTries(MAX_ATTEMPTS + 4);
      await rm(blocked);
      await api.dataSource.manager.update(ImageVariantJob, { id: first.id }, { dueAt: Date.now() });
      jobs.wake();
      assert.equal((await settled(api, uploadPath)).state, 'done');
      await assertVariantsServed(api.url, uploadPath);
    } finally {
      await api.close();
    }
  });
});

describe('image variants of the demo content', () => {
  it('queues every demo image with the demo content, and makes them', async () => {
    const api = await startApi({ SEED_DEMO: 'true' });
    try {
      const jobs = await api.dataSource.manager.find(ImageVariantJob, { order: { id: 'ASC' } });
      assert.equal(jobs.length, 15, 'every demo image');
      assert.ok(jobs.every((j) => j.path.startsWith('/uploads/demo/')));
      await eventually(
        () => api.dataSource.manager.countBy(ImageVariantJob, { state: 'done' }),
        (n) => n === jobs.length,
        'the demo images',
        240_000,
      );
      await assertVariantsServed(api.url, jobs[0]!.path);
    } finally {
      await api.close();
    }
  });
});

describe('image variants across restarts', () => {
  const cleanup: (() => Promise<unknown>)[] = [];
  after(async () => {
    for (const step of cleanup.reverse()) await step().catch(() => undefined);
  });

  it('a job queued while the API was down is made at the next start; the backfill runs once per recipe', async () => {
    let api = await startApi();
    const dataDir = api.config.varDir;
    cleanup.push(() => rm(dataDir, { recursive: true, force: true }));
    await eventually(
      async () => (await api.dataSource.query('SELECT COUNT(*) AS n FROM image_variant_backfills'))[0].n,
      (n) => Number(n) === 1,
      'the backfill of the first start',
    );
    await api.close({ keepData: true });

    // While it is down: an image with a job waiting (as a restore leaves it), and one put there by hand without any.
    const uploads = path.join(dataDir, 'uploads', 'general');
    await mkdir(uploads, { recursive: true });
    const queued = '/uploads/general/queued-640x480.jpg';
    const unknown = '/uploads/general/older-640x480.jpg';
    await writeFile(path.join(dataDir, queued.slice(1)), await photo(640, 480));
    await writeFile(path.join(dataDir, unknown.slice(1)), await photo(640, 480));
    const db = await openDataSource(configFor(dataDir));
    try {
      const now = Date.now();
      await db.manager.insert(ImageVariantJob, {
        path: queued,
        recipe: IMAGE_VARIANTS_RECIPE,
        state: 'pending',
        attempts: 0,
        dueAt: now,
        claimedBy: null,
        lastError: null,
        createdAt: now,
        updatedAt: now,
      });
    } finally {
      await db.destroy();
    }

    api = await startApi({}, { varDir: dataDir, keepData: true });
    assert.equal((await settled(api, queued)).state, 'done');
    await assertVariantsServed(api.url, queued);
    // The backfill ran at the first start: a file that came later without a job is not looked for again.
    assert.equal((await stateOf(api, unknown)).status, 404);
    await api.close({ keepData: true });

    // A new recipe (here: its record gone) runs the backfill again, which finds the file.
    const again = await openDataSource(configFor(dataDir));
    await again.query('DELETE FROM image_variant_backfills').finally(() => again.destroy());
    api = await startApi({}, { varDir: dataDir, keepData: true });
    assert.equal((await settled(api, unknown)).state, 'done');
    await assertVariantsServed(api.url, unknown);
    assert.equal(await api.dataSource.manager.countBy(ImageVariantJob, {}), 2, 'a job per image, variants never queued');
    await api.close({ keepData: true });
  });

  it('backups keep only the originals; a restore makes the variants again', async () => {
    // The source is SQLite on both passes, as in backup.spec.ts.
    const source = await startApi({ BACKUP_EVERY: 'off' }, { databaseUrl: '' });
    cleanup.push(() => source.close());
    const token = await source.login();
    const original = await photo(900, 600);
    const uploadPath = await upload(source, token, original, 'artworks');
    assert.equal((await settled(source, uploadPath)).state, 'done');
    const work = await mkdtemp(path.join(os.tmpdir(), 'variants-backup-'));
    cleanup.push(() => rm(work, { recursive: true, force: true }));
    const archive = path.join(work, 'backup.tar.gz');
    await runBackup(source.config, { out: archive });

    const varDir = await mkdtemp(path.join(os.tmpdir(), 'variants-restore-'));
    cleanup.push(() => rm(varDir, { recursive: true, force: true }));
    if (TEST_DB === 'mysql') await emptyMysql();
    const result = await runRestore(configFor(varDir), archive);
    assert.equal(result.files, 1, 'the original only, no variant');
    assert.deepEqual(await readdir(path.join(varDir, 'uploads')), ['artworks']);

    const target = await startApi({ BACKUP_EVERY: 'off' }, { varDir, keepData: true });
    cleanup.push(() => target.close({ keepData: true }));
    assert.equal((await settled(target, uploadPath)).state, 'done');
    await assertVariantsServed(target.url, uploadPath, original);
  });
});

describe('image variants survive a crash of the process making them', () => {
  const cleanup: (() => Promise<unknown>)[] = [];
  after(async () => {
    for (const step of cleanup.reverse()) await step().catch(() => undefined);
  });

  // A killed maker's claim must run out before the restarted process takes the job over.
  it('SIGKILL mid-encode, restart: every variant is made, none half-written is ever served', { timeout: 360_000 }, async () => {
    if (TEST_DB === 'mysql') await (await startApi()).close();
    const env = { IMAGE_VARIANT_CLAIM_MS: '3000', UPLOAD_MAX_MB: '40' };
    const first: ApiProcess = await startApiProcess(env);
    cleanup.push(
      () => first.kill(),
      () => rm(first.varDir, { recursive: true, force: true }),
    );
    let db: DataSource | null = null;
    cleanup.push(async () => db?.destroy());
    const token = await first.login();
    const uploadPath = await upload(first, token, await photo(6000, 4000));
    db = await openDataSource(configFor(first.varDir));
    const row = () => db!.manager.findOneByOrFail(ImageVariantJob, { path: uploadPath });
    await eventually(row, (j) => j.claimedBy !== null, 'the job to be claimed', 120_000);
    await first.kill();
    const killed = await row();
    assert.equal(killed.state, 'pending', 'killed while the job was claimed');
    assert.equal(killed.attempts, 1);

    const set = uploadVariantSet(uploadPath, imageSizeFromName(uploadPath)!);
    const second = await startApiProcess(env, { varDir: first.varDir });
    cleanup.push(() => second.stop());
    // Until the job is done, each variant answers either not at all or whole (a temporary file is never served).
    for (const v of set) {
      const res = await fetch(second.url + v.stored);
      if (res.status === 404) continue;
      assert.equal(res.status, 200, v.stored);
      await sharp(Buffer.from(await res.arrayBuffer()))
        .raw()
        .toBuffer();
    }
    const variantsDir = path.join(first.varDir, 'uploads', '_variants', 'books');
    for (const name of await readdir(variantsDir).catch(() => [] as string[])) {
      if (!name.startsWith('.')) continue;
      assert.equal((await fetch(`${second.url}/uploads/_variants/books/${name}`)).status, 404, `${name} is not served`);
    }
    const done = await settled(second, uploadPath, 300_000);
    assert.equal(done.state, 'done');
    await assertVariantsServed(second.url, uploadPath);
    const after = await row();
    assert.ok(after.attempts >= 2, 'made again after the crash');
    assert.equal(await db.manager.countBy(OutboxEvent, { kind: 'image-variants', entityId: done.id }), 1, 'published once');
    await db.destroy();
    db = null;
    await second.stop();
  });
});
