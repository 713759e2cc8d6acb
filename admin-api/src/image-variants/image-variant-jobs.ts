import { randomBytes } from 'node:crypto';
import path from 'node:path';

import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import {
  CARD_BACKGROUND,
  CARD_QUALITY,
  CARD_RECIPE,
  type ImageVariantsState,
  uploadVariantSet,
  VARIANT_QUALITY,
  VARIANT_RECIPE,
  VARIANT_WIDTHS,
} from '@portfolio/contract/image-variants';
import { imageSizeFromName } from '@portfolio/contract/rules';
import type { Sharp, SharpOptions } from 'sharp';
import { type EntityManager, LessThanOrEqual } from 'typeorm';

import { DrainLoop } from '../common/drain-loop.js';
import { Lease, portable, PROCESS_OWNER, run } from '../common/lease.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { Db } from '../database/db.service.js';
import { retryDelayMs } from '../publishing/backoff.js';
import { OutboxService } from '../publishing/outbox.service.js';
import { FileStorage, readWhole } from '../uploads/file-storage.js';
import { MAX_IMAGE_PIXELS } from '../uploads/image-limits.js';
import { isStoredFilePath, storedFileType } from '../uploads/sniff.js';
import { ImageVariantJob } from './image-variant-job.entity.js';

/** What a job's variants are made by and which: a new recipe or width has the backfill queue every job again. */
export const IMAGE_VARIANTS_RECIPE = `${VARIANT_RECIPE}+${CARD_RECIPE}+${VARIANT_WIDTHS.join(',')}`;
/** Attempts after which a job whose maker died again (an image that kills its maker every time: memory) is given up on. */
export const MAX_ATTEMPTS = 12;
/**
 * `lastError` while a job is claimed: still there at the next claim, the maker died making it. A
 * failure the maker saw (the storage away, say) replaces it and is tried again, however long it lasts.
 */
const UNFINISHED = 'unfinished: its maker stopped while making it';
const RETRY_BASE_MS = 1000;
const RETRY_MAX_MS = 10 * 60_000;
/** How often each process looks for jobs it was not woken for (another replica's, a restore's, or one whose maker died). */
const POLL_MS = 30_000;
/** The backfill's lease: longer than listing and queueing every upload takes. */
const BACKFILL_LEASE_MS = 10 * 60_000;

/**
 * Queues the variants of uploaded images in the caller's transaction (uploads, imports, restore,
 * the demo seed, the backfill): a path that has a job already keeps it (an upload's bytes never
 * change under its name), also when two replicas queue it at once (an upload beside the backfill).
 */
export async function queueImageVariants(m: EntityManager, paths: string[], now = Date.now()): Promise<void> {
  const unique = [...new Set(paths)];
  for (let i = 0; i < unique.length; i += 500) {
    const rows = unique.slice(i, i + 500).map((p) => ({
      path: p,
      recipe: IMAGE_VARIANTS_RECIPE,
      state: 'pending' as const,
      attempts: 0,
      dueAt: now,
      claimedBy: null,
      lastError: null,
      createdAt: now,
      updatedAt: now,
    }));
    await m.createQueryBuilder().insert().into(ImageVariantJob).values(rows).orIgnore().updateEntity(false).execute();
  }
}

/** An image the encoder cannot read (or no original at all): trying again cannot help. */
class Unmakeable extends Error {}

/**
 * Makes every variant of each uploaded image once, when it arrives (contract/image-variants.ts):
 * a durable job per image in `image_variant_jobs`, claimed as the mail queue claims its rows (one
 * conditional UPDATE with an expiry), so a restart loses nothing and replicas share the work. One
 * encode at a time per process, keeping memory bounded (one original, one variant). A job is done
 * when every variant is stored; it is marked so in one transaction with the outbox event
 * (`image-variants`, the job's id) that has the site re-render the pages showing that upload.
 */
@Injectable()
export class ImageVariantJobs implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('ImageVariants');
  private readonly owner = `${PROCESS_OWNER}:${randomBytes(3).toString('hex')}`;
  private readonly claimMs: number;
  private readonly shutdownMs: number;
  private readonly loop = new DrainLoop(
    () => this.makeDue(),
    (error) => {
      if (!this.loop.stopped) this.logger.warn(`Could not read the image variant jobs: ${describe(error)}`);
    },
  );
  private backfilling: Promise<void> | null = null;

  constructor(
    private readonly db: Db,
    private readonly storage: FileStorage,
    private readonly outbox: OutboxService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.claimMs = config.imageVariants.claimMs;
    this.shutdownMs = config.shutdownTimeoutMs;
  }

  /** Queues one stored upload (an image) and wakes the maker once that has committed. */
  async enqueue(uploadPath: string): Promise<void> {
    await this.db.write((m) => queueImageVariants(m, [uploadPath]));
    this.wake();
  }

  /** What GET /api/image-variants answers; null when no job exists for the path. */
  async state(uploadPath: string): Promise<ImageVariantsState | null> {
    const job = await this.db.manager.findOne(ImageVariantJob, {
      select: { id: true, path: true, state: true },
      where: { path: uploadPath },
    });
    return job ? { id: job.id, path: job.path, state: job.state } : null;
  }

  onApplicationBootstrap() {
    this.wake();
    this.backfilling = this.backfill();
  }

  async onModuleDestroy() {
    // An encode under way gets a moment to finish; one cut off is made again once its claim runs out.
    await this.loop.stop(this.shutdownMs, this.backfilling);
  }

  /** Has the maker look for due jobs now (or once more after the round under way). */
  readonly wake = () => this.loop.wake();

  /** One round of the loop: makes every job that is due, then sets the next wake-up. */
  private async makeDue() {
    for (let job = await this.claimNext(); job; job = this.loop.stopped ? null : await this.claimNext()) await this.make(job);
    await this.scheduleNext();
  }

  /** Takes the oldest job that is due for this process to make, or null when none is. */
  private async claimNext(): Promise<{ job: ImageVariantJob; makerDied: boolean } | null> {
    const now = Date.now();
    const due = await this.db.manager.find(ImageVariantJob, {
      select: { id: true, lastError: true },
      where: { state: 'pending', dueAt: LessThanOrEqual(now) },
      order: { id: 'ASC' },
      take: 5,
    });
    const claim = portable(
      this.db,
      'UPDATE "image_variant_jobs" SET "claimedBy" = ?, "dueAt" = ?, "attempts" = "attempts" + 1, "lastError" = ?, "updatedAt" = ? WHERE "id" = ? AND "state" = \'pending\' AND "dueAt" <= ?',
    );
    for (const { id, lastError } of due) {
      // Of several processes reaching for the same row, only one UPDATE matches it.
      if ((await this.db.write((m) => run(m, claim, [this.owner, now + this.claimMs, UNFINISHED, now, id, now]))) === 1) {
        const job = await this.db.manager.findOneBy(ImageVariantJob, { id });
        return job && { job, makerDied: lastError === UNFINISHED };
      }
    }
    return null;
  }

  private async make({ job, makerDied }: { job: ImageVariantJob; makerDied: boolean }) {
    const started = Date.now();
    let count: number;
    try {
      // Claimed this often, and its maker died again: the image may be killing it (memory): give it up.
      if (makerDied && job.attempts > MAX_ATTEMPTS) throw new Unmakeable(`its maker stopped ${MAX_ATTEMPTS} times making it`);
      count = await this.makeVariants(job);
    } catch (error) {
      const reason = describe(error).slice(0, 500);
      if (error instanceof Unmakeable) {
        await this.release(job, { state: 'failed' }, reason);
        this.logger.warn(`Gave up on the variants of ${job.path} after ${job.attempts} attempt(s): ${reason}`);
      } else {
        // A graceful stop hands the job on at once; anything else waits, up to RETRY_MAX_MS between tries.
        const waitMs = this.loop.stopped ? 0 : retryDelayMs(job.attempts, RETRY_BASE_MS, RETRY_MAX_MS);
        await this.release(job, { dueAt: Date.now() + waitMs }, reason);
        this.logger.warn(
          `The variants of ${job.path} were not made (attempt ${job.attempts}): ${reason}; next try in ${Math.ceil(waitMs / 1000)} s`,
        );
      }
      return;
    }
    const done = await this.db.write(async (m) => {
      const changed = await run(
        m,
        portable(
          this.db,
          'UPDATE "image_variant_jobs" SET "state" = \'done\', "claimedBy" = NULL, "lastError" = NULL, "updatedAt" = ? WHERE "id" = ? AND "claimedBy" = ? AND "recipe" = ?',
        ),
        [Date.now(), job.id, this.owner, IMAGE_VARIANTS_RECIPE],
      );
      // Another maker took the job over (this one's claim ran out): that one finishes it, with its own event.
      if (changed === 1) await this.outbox.record(m, 'image-variants', job.id, 'update');
      return changed === 1;
    });
    if (!done) return;
    this.outbox.committed();
    this.logger.log(`Made ${count} variants of ${job.path} in ${Date.now() - started} ms`);
  }

  private async release(job: ImageVariantJob, set: { state: 'failed' } | { dueAt: number }, reason: string) {
    const [column, value] = 'state' in set ? ['state', set.state] : ['dueAt', set.dueAt];
    const sql = portable(
      this.db,
      `UPDATE "image_variant_jobs" SET "${column}" = ?, "lastError" = ?, "claimedBy" = NULL, "updatedAt" = ? WHERE "id" = ? AND "claimedBy" = ?`,
    );
    const published = await this.db.write(async (m) => {
      const changed = await run(m, sql, [value, reason, Date.now(), job.id, this.owner]);
      // Pages shown while it was pending are rendered again as a full publish renders them: the original as it is.
      if (changed === 1 && 'state' in set) await this.outbox.record(m, 'image-variants', job.id, 'update');
      return changed === 1 && 'state' in set;
    });
    if (published) this.outbox.committed();
  }

  /** The job is still being made: its claim starts again, so no other process takes it over meanwhile. */
  private renewClaim(job: ImageVariantJob) {
    const sql = portable(this.db, 'UPDATE "image_variant_jobs" SET "dueAt" = ? WHERE "id" = ? AND "claimedBy" = ?');
    return this.db.write((m) => run(m, sql, [Date.now() + this.claimMs, job.id, this.owner]));
  }

  /**
   * Every variant of the upload, each stored whole (FileStorage.save: a rename on disk, one PUT on
   * S3). The recipe is the site's (VARIANT_RECIPE, CARD_RECIPE): each variant decoded from the
   * original on its own, which JPEG's shrink-on-load keeps within the 5 s target for a 24 MP photo.
   */
  private async makeVariants(job: ImageVariantJob): Promise<number> {
    const uploadPath = job.path;
    const original = await readWhole(this.storage, uploadPath.replace(/^\/uploads\//, ''));
    if (!original) throw new Unmakeable('the original is not in the uploads storage');
    const size = imageSizeFromName(uploadPath) ?? (await pixelSize(original));
    const set = uploadVariantSet(uploadPath, size);
    for (const v of set) {
      if (this.loop.stopped) throw new Error('stopping');
      const bytes = await decoded(async () => {
        const sized = (await openImage(original)).rotate().resize(v.width, v.height, { fit: 'cover' });
        return (
          v.kind === 'card'
            ? sized.flatten({ background: CARD_BACKGROUND }).jpeg({ quality: CARD_QUALITY })
            : sized.webp({ quality: VARIANT_QUALITY })
        ).toBuffer();
      });
      const stored = v.stored.replace(/^\/uploads\//, '');
      await this.storage.save(path.posix.dirname(stored), path.posix.basename(stored), bytes);
      await this.renewClaim(job);
    }
    return set.length;
  }

  private async scheduleNext() {
    const rows = (await this.db.manager.query(
      portable(this.db, 'SELECT MIN("dueAt") AS "next" FROM "image_variant_jobs" WHERE "state" = \'pending\''),
    )) as { next: string | number | null }[];
    const next = rows[0]?.next == null ? Infinity : Number(rows[0].next);
    this.loop.at(Math.min(next, Date.now() + POLL_MS));
  }

  /**
   * Once per recipe, by one replica (a lease): queues every upload of the storage that has no job
   * yet (server-made names, see isStoredFilePath: never a variant), and queues again the jobs made
   * by another recipe. Remembered in `image_variant_backfills`, so later starts skip it.
   */
  private async backfill(): Promise<void> {
    try {
      if (await this.backfilled()) return;
      const lease = new Lease(this.db, 'image-variants-backfill', this.owner);
      if (!(await lease.acquire(BACKFILL_LEASE_MS))) {
        // Another replica is at it; if it dies, its lease runs out and this one looks again.
        const retry = setTimeout(() => !this.loop.stopped && (this.backfilling = this.backfill()), 60_000);
        retry.unref();
        return;
      }
      try {
        if (await this.backfilled()) return;
        const images = (await this.storage.list())
          .filter((f) => isStoredFilePath(f.path) && storedFileType(f.path)?.kind === 'image')
          .map((f) => `/uploads/${f.path}`);
        const now = Date.now();
        await this.db.write((m) =>
          run(
            m,
            portable(
              this.db,
              'UPDATE "image_variant_jobs" SET "recipe" = ?, "state" = \'pending\', "attempts" = 0, "dueAt" = ?, "claimedBy" = NULL, "lastError" = NULL, "updatedAt" = ? WHERE "recipe" <> ?',
            ),
            [IMAGE_VARIANTS_RECIPE, now, now, IMAGE_VARIANTS_RECIPE],
          ),
        );
        for (let i = 0; i < images.length; i += 500) await this.db.write((m) => queueImageVariants(m, images.slice(i, i + 500), now));
        await this.db.write((m) =>
          run(m, portable(this.db, 'INSERT INTO "image_variant_backfills" ("recipe", "doneAt") VALUES (?, ?)'), [
            IMAGE_VARIANTS_RECIPE,
            Date.now(),
          ]),
        );
        this.logger.log(`Queued the variants of the uploads already stored (${images.length} image(s) looked at)`);
      } finally {
        await lease.release();
      }
      this.wake();
    } catch (error) {
      if (!this.loop.stopped)
        this.logger.warn(`Could not queue the variants of the uploads already stored: ${describe(error)}; trying again at the next start`);
    }
  }

  private async backfilled(): Promise<boolean> {
    const rows = (await this.db.manager.query(portable(this.db, 'SELECT "recipe" FROM "image_variant_backfills" WHERE "recipe" = ?'), [
      IMAGE_VARIANTS_RECIPE,
    ])) as unknown[];
    return rows.length > 0;
  }
}

/** The image library, loaded when the first job runs: most API processes start with nothing to make. */
let library: Promise<(input: Buffer, options?: SharpOptions) => Sharp> | null = null;
function openImage(input: Buffer): Promise<Sharp> {
  library ??= import('sharp').then(({ default: load }) => {
    // A long-lived process making one image after another: libvips' operation cache would only grow.
    load.cache(false);
    return load;
  });
  return library.then((load) => load(input, { limitInputPixels: MAX_IMAGE_PIXELS }));
}

/** A failure of the encoder is the file's own: not an image it reads. */
async function decoded<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw new Unmakeable(`not an image the encoder reads (${(error as Error).message})`);
  }
}

/** The picture's size as shown (EXIF orientations 5–8 turn it a quarter), for uploads whose name does not carry it. */
async function pixelSize(bytes: Buffer): Promise<{ width: number; height: number }> {
  const meta = await decoded(async () => (await openImage(bytes)).metadata());
  if (!meta.width || !meta.height) throw new Unmakeable('no pixel size');
  return (meta.orientation ?? 1) >= 5 ? { width: meta.height, height: meta.width } : { width: meta.width, height: meta.height };
}

function describe(error: unknown): string {
  const e = error as { code?: string; message?: string };
  return [e?.code, e?.message ?? String(error)].filter(Boolean).join(': ').replace(/\s+/g, ' ');
}
