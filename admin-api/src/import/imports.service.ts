import { randomUUID } from 'node:crypto';
import { copyFile, mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';

import {
  BadRequestException,
  ConflictException,
  HttpException,
  Inject,
  Injectable,
  Logger,
  NotFoundException,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import type { ImportJob, ImportMapping, ImportWarning } from '@portfolio/contract/imports';
import { type EntityManager, In } from 'typeorm';

import { AdminUser } from '../auth/admin-user.entity.js';
import type { AuthContext } from '../auth/auth-context.js';
import { refusal } from '../common/api-message.js';
import { Lease } from '../common/lease.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import type { ContentEntity } from '../content/content.entity.js';
import type { ContentService } from '../content/content.service.js';
import { Db } from '../database/db.service.js';
import { ContentKinds } from '../kinds/content-kinds.js';
import { neverOffer } from '../newsletter/offers.js';
import { OutboxService } from '../publishing/outbox.service.js';
import { sniffFileType } from '../uploads/sniff.js';
import { UploadsService } from '../uploads/uploads.service.js';
import { fetchImage, ImageFetchError } from './image-fetch.js';
import { ImportJobRow } from './import-job.entity.js';
import { ImportedItem } from './imported-item.entity.js';
import { EMPTY_MAPPING, imageRefs, type ImportKind, type ItemState, type PlanEntry, planImport, rewriteImages, sourceKey } from './plan.js';
import { type ExportArchive, ImportFileError, type ParsedExport, parseExport } from './source.js';

/** A job that applies holds its lease this long, renewed while it works: a replica that died lets another resume it. */
const APPLY_LEASE_MS = 60_000;
/**
 * A run that starts and never ends (the process died: out of memory, killed) counts; at this many the
 * job fails with its reason instead of being resumed at every start.
 */
const MAX_ATTEMPTS = 2;
export const INTERRUPTED_TWICE =
  'The import stopped twice before it finished (the server ended while it ran, perhaps out of memory), so it was not started again. What it saved is kept; apply it again to go on.';
/** Progress is written at most this often (and at the end), not after every item. */
const PROGRESS_EVERY_MS = 250;

/** The export's site, where the parser names it; otherwise the file's name is the source's identity. */
type WithSite = ParsedExport & { site?: string | null };

/** An export refused for what it holds: its own message when it has one, else `error.importRefused` with the sentence. */
function fileRefused(error: ImportFileError) {
  const { key, params } = error.ref ?? { key: 'error.importRefused' as const, params: { reason: error.message } };
  return new BadRequestException(refusal(key, { params }));
}

/**
 * Imports another blog's export: the dry run (a report of what would be created, updated, left
 * alone or skipped, and why), the author's mapping of categories and tags to news, and the apply,
 * a job in the database that saves each item through its kind's service (revisions as with any
 * edit) and asks for one full publish at the end instead of one publish per item.
 */
@Injectable()
export class ImportsService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Import');
  private readonly running = new Map<number, Promise<void>>();
  private stopped = false;

  constructor(
    private readonly db: Db,
    private readonly kinds: ContentKinds,
    private readonly uploads: UploadsService,
    private readonly outbox: OutboxService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** A job that was applying when the API stopped goes on (its items are found by source id: none twice). */
  async onApplicationBootstrap() {
    const unfinished = await this.db.manager.find(ImportJobRow, { where: { state: 'applying' }, select: { id: true } });
    for (const { id } of unfinished) this.start(id);
  }

  async onModuleDestroy() {
    this.stopped = true;
    await Promise.allSettled(this.running.values());
  }

  /** A path inside the imports folder, or (the command line's folder of Markdown files) an absolute path. */
  private filePath(row: Pick<ImportJobRow, 'storedName'>) {
    return path.isAbsolute(row.storedName) ? row.storedName : path.join(this.config.imports.dir, row.storedName);
  }

  private async parse(file: string): Promise<WithSite> {
    return parseExport(file, this.config.imports);
  }

  /** The identity of the site an export comes from: its format and the site's address, or the file's name. */
  private sourceOf(row: Pick<ImportJobRow, 'format' | 'fileName'>, parsed: WithSite): string {
    const site = parsed.site?.trim() || path.basename(row.fileName);
    return `${row.format}:${site}`.slice(0, 255);
  }

  private async plan(row: ImportJobRow, parsed: WithSite, mapping: ImportMapping) {
    const source = this.sourceOf(row, parsed);
    const records = new Map<string, ImportedItem>();
    for (const record of await this.db.manager.find(ImportedItem, { where: { source } })) records.set(record.sourceId, record);
    const stateOf = async (record: ImportedItem): Promise<ItemState> => {
      const item = await this.db.manager.findOne(this.service(record.kind).resource.entity, {
        where: { id: record.itemId },
        select: { id: true, isDeleted: true } as never,
      });
      if (!item) return 'gone';
      return item.isDeleted ? 'trashed' : 'present';
    };
    return { source, ...(await planImport(parsed, mapping, records, stateOf)) };
  }

  private service(kind: ImportKind): ContentService<ContentEntity> {
    return this.kinds.service(kind) as unknown as ContentService<ContentEntity>;
  }

  /**
   * A new job from an uploaded export (or, from the command line, a file or folder on this machine):
   * read and planned at once, so a file that is not an export is refused here and nothing is kept.
   */
  async create(file: { path: string; originalName: string; from: 'upload' | 'local' }, auth: AuthContext): Promise<ImportJob> {
    const fileName = path.basename(file.originalName).slice(0, 255) || 'export';
    const upload = file.from === 'upload';
    let parsed: WithSite;
    try {
      parsed = await this.parse(file.path);
    } catch (error) {
      if (upload) await rm(file.path, { force: true });
      if (error instanceof ImportFileError) throw fileRefused(error);
      throw error;
    }
    try {
      // An upload (or a file named on the command line) is kept in the imports folder until the job is
      // deleted; a folder of Markdown files named on the command line is read where it is.
      let storedName = path.resolve(file.path);
      if (upload || !(await stat(file.path)).isDirectory()) {
        storedName = `${randomUUID()}${path
          .extname(fileName)
          .toLowerCase()
          .replace(/[^.a-z0-9]/g, '')}`;
        await mkdir(this.config.imports.dir, { recursive: true });
        if (upload) await rename(file.path, path.join(this.config.imports.dir, storedName));
        else await copyFile(file.path, path.join(this.config.imports.dir, storedName));
      }
      const row = this.db.manager.create(ImportJobRow, {
        state: 'ready',
        format: parsed.format,
        fileName,
        storedName,
        createdAt: new Date(),
        createdByUserId: auth.user.id,
        mapping: EMPTY_MAPPING,
      });
      row.report = (await this.plan(row, parsed, EMPTY_MAPPING)).report;
      const saved = await this.db.write((m) => m.save(row));
      return this.toJob(saved);
    } finally {
      await parsed.archive?.close();
    }
  }

  async list(): Promise<ImportJob[]> {
    const rows = await this.db.manager.find(ImportJobRow, { order: { id: 'DESC' } });
    return rows.map((row) => this.toJob(row));
  }

  async get(id: number): Promise<ImportJob> {
    return this.toJob(await this.row(id));
  }

  private async row(id: number): Promise<ImportJobRow> {
    const row = await this.db.manager.findOneBy(ImportJobRow, { id });
    if (!row) throw new NotFoundException(refusal('error.importNotFound'));
    return row;
  }

  /** The author's mapping, and the report planned again with it. */
  async setMapping(id: number, mapping: ImportMapping): Promise<ImportJob> {
    const row = await this.row(id);
    if (row.state === 'applying' || row.state === 'done') throw new ConflictException(refusal('error.importBusy'));
    const parsed = await this.parseKept(row);
    try {
      const clean = { newsCategories: [...new Set(mapping.newsCategories)], newsTags: [...new Set(mapping.newsTags)] };
      const { report } = await this.plan(row, parsed, clean);
      await this.db.write((m) => m.update(ImportJobRow, { id, state: In(['ready', 'failed']) }, { mapping: clean, report }));
    } finally {
      await parsed.archive?.close();
    }
    return this.get(id);
  }

  /** The kept export is here (with several API replicas, $VAR_DIR/imports must be one shared folder). */
  private async ensureKept(row: ImportJobRow) {
    try {
      await stat(this.filePath(row));
    } catch {
      throw new ConflictException(
        refusal('error.importRefused', { params: { reason: 'The uploaded file is no longer on this server; upload it again.' } }),
      );
    }
  }

  private async parseKept(row: ImportJobRow): Promise<WithSite> {
    await this.ensureKept(row);
    try {
      return await this.parse(this.filePath(row));
    } catch (error) {
      if (error instanceof ImportFileError) throw fileRefused(error);
      throw error;
    }
  }

  /** Starts applying (202): the job goes on in the background; GET it to follow its progress. */
  async apply(id: number, auth: AuthContext): Promise<ImportJob> {
    const row = await this.row(id);
    if (row.state === 'applying' || row.state === 'done') throw new ConflictException(refusal('error.importBusy'));
    await this.ensureKept(row);
    const { affected } = await this.db.write((m) =>
      m.update(
        ImportJobRow,
        { id, state: In(['ready', 'failed']) },
        {
          state: 'applying',
          error: null,
          createdByUserId: auth.user.id,
          itemsDone: 0,
          itemsTotal: 0,
          imagesDone: 0,
          imagesTotal: 0,
          applyWarnings: [],
          results: [],
          attempts: 0,
        },
      ),
    );
    if (!affected) throw new ConflictException(refusal('error.importBusy'));
    this.start(id);
    return this.get(id);
  }

  /** Resolves when the job's apply in this process has ended (the command line waits for it). */
  async finished(id: number): Promise<void> {
    await this.running.get(id);
  }

  async remove(id: number): Promise<void> {
    const row = await this.row(id);
    if (row.state === 'applying') throw new ConflictException(refusal('error.importBusy'));
    await this.db.write((m) => m.delete(ImportJobRow, { id }));
    if (!path.isAbsolute(row.storedName)) await rm(this.filePath(row), { force: true });
  }

  private start(id: number) {
    if (this.running.has(id) || this.stopped) return;
    const run = this.run(id)
      .catch((error: Error) => this.logger.error(`Import ${id} stopped: ${error.message}`))
      .finally(() => this.running.delete(id));
    this.running.set(id, run);
  }

  private async run(id: number) {
    const lease = new Lease(this.db, `import-${id}`);
    // Another replica applies it (it holds the lease): nothing to do here.
    if (!(await lease.acquire(APPLY_LEASE_MS))) return;
    const renew = setInterval(() => void lease.acquire(APPLY_LEASE_MS).catch(() => undefined), APPLY_LEASE_MS / 3);
    renew.unref();
    const row = await this.row(id);
    if (row.state !== 'applying') return void (await lease.release());
    if (row.attempts >= MAX_ATTEMPTS) {
      clearInterval(renew);
      this.logger.error(`Import ${id} failed: ${INTERRUPTED_TWICE}`);
      await this.db.write((m) => m.update(ImportJobRow, { id }, { state: 'failed', finishedAt: new Date(), error: INTERRUPTED_TWICE }));
      return void (await lease.release());
    }
    row.attempts++;
    await this.db.write((m) => m.update(ImportJobRow, { id }, { attempts: row.attempts }));
    row.results ??= [];
    let archive: ExportArchive | null = null;
    let saved = row.itemsDone;
    let lastWrite = 0;
    const progress = async (force = false) => {
      if (!force && Date.now() - lastWrite < PROGRESS_EVERY_MS) return;
      lastWrite = Date.now();
      const { itemsDone, itemsTotal, imagesDone, imagesTotal, applyWarnings, images, results } = row;
      await this.db.write((m) =>
        m.update(ImportJobRow, { id }, { itemsDone, itemsTotal, imagesDone, imagesTotal, applyWarnings, images, results }),
      );
    };
    try {
      const parsed = await this.parse(this.filePath(row));
      archive = parsed.archive;
      const { source, entries } = await this.plan(row, parsed, row.mapping);
      const work = entries.filter((e) => e.fields);
      const refs = new Set(work.flatMap((e) => imageRefs(e.item).map((image) => image.ref)));
      // Resumed: what was saved before the stop now plans as unchanged, so the totals keep counting on.
      row.itemsTotal = row.itemsDone + work.length;
      row.imagesTotal = Object.keys(row.images).length + [...refs].filter((ref) => !(ref in row.images)).length;
      row.imagesDone = Object.keys(row.images).length;
      await progress(true);
      const viewer = await this.viewer(row);
      for (const entry of work) {
        if (this.stopped) return void (await progress(true));
        await this.storeImages(row, entry, archive, progress);
        try {
          const item = await this.save(entry, source, viewer, row.images);
          row.results!.push({
            sourceId: entry.item.sourceId,
            title: entry.item.title,
            kind: entry.plan.kind!,
            id: item.id,
            action: entry.plan.action === 'update' ? 'update' : 'create',
          });
          saved++;
        } catch (error) {
          row.applyWarnings.push({ title: entry.item.title, message: `Not saved: ${messageOf(error)}` });
        }
        row.itemsDone++;
        await progress();
      }
      await progress(true);
      await this.db.write((m) => m.update(ImportJobRow, { id }, { state: 'done', finishedAt: new Date() }));
    } catch (error) {
      if (this.stopped) return;
      this.logger.error(`Import ${id} failed: ${messageOf(error)}`);
      await progress(true).catch(() => undefined);
      await this.db.write((m) =>
        m.update(ImportJobRow, { id }, { state: 'failed', finishedAt: new Date(), error: messageOf(error).slice(0, 1000) }),
      );
    } finally {
      clearInterval(renew);
      // Stopped on purpose (a shutdown): not a failed run, so the resume at the next start does not count it.
      if (this.stopped)
        await this.db
          .write((m) => m.update(ImportJobRow, { id, state: 'applying' }, { attempts: row.attempts - 1 }))
          .catch(() => undefined);
      await archive?.close().catch(() => undefined);
      // One publish for the whole import, whatever part of it was saved (also by a run before a restart).
      if (saved > 0 && !this.stopped) {
        await this.db.write((m) => this.outbox.recordFullPublish(m, 'essays'));
        this.outbox.committed();
      }
      await lease.release().catch(() => undefined);
    }
  }

  /** The admin who asked for the apply (or, gone since, the first admin): the revisions name them. */
  private async viewer(row: ImportJobRow): Promise<AuthContext> {
    const user =
      (row.createdByUserId !== null ? await this.db.manager.findOneBy(AdminUser, { id: row.createdByUserId }) : null) ??
      (await this.db.manager.findOne(AdminUser, { where: {}, order: { id: 'ASC' } }));
    if (!user) throw new Error('No admin user to save the imported items as');
    return { user, sessionId: 'import' };
  }

  /** One item through its kind's service (revision as with any edit, no outbox row), and its record in the same transaction. */
  private async save(entry: PlanEntry, source: string, viewer: AuthContext, images: Record<string, string | null>): Promise<ContentEntity> {
    const kind = entry.plan.kind!;
    const fields = entry.fields!;
    const stored = (ref: string) => images[ref];
    const translations = Object.fromEntries(
      Object.entries(fields.translations).map(([lang, text]) => [lang, { ...text, content: rewriteImages(text.content, stored) }]),
    );
    const values = {
      ...fields,
      content: rewriteImages(fields.content, stored),
      imageUrl: entry.item.cover ? (images[entry.item.cover.ref] ?? null) : null,
      translations,
    };
    const digest = entry.digest;
    const within = async (m: EntityManager, item: ContentEntity) => {
      await neverOffer(m, kind, item.id, Date.now());
      if (entry.record) {
        await m.update(ImportedItem, { id: entry.record.id }, { itemId: item.id, digest, importedAt: new Date() });
      } else {
        await m.insert(ImportedItem, {
          source,
          sourceId: sourceKey(entry.item.sourceId),
          kind,
          itemId: item.id,
          digest,
          importedAt: new Date(),
        });
      }
    };
    const service = this.service(kind);
    const options = { publish: false, within };
    if (entry.plan.action === 'update') return service.update(entry.record!.itemId, values as never, viewer, options);
    return service.create(values as never, viewer, options);
  }

  /** The item's images not stored yet by this job: from the export's archive, or fetched from the web. */
  private async storeImages(row: ImportJobRow, entry: PlanEntry, archive: ExportArchive | null, progress: () => Promise<void>) {
    for (const image of imageRefs(entry.item)) {
      if (image.ref in row.images) continue;
      let url: string | null = null;
      try {
        url = await this.storeImage(image.ref, archive, entry.plan.kind!);
      } catch (error) {
        row.applyWarnings.push({
          title: entry.item.title,
          message: `The image ${image.ref} could not be imported (${messageOf(error)}); it was left out.`,
        });
      }
      row.images[image.ref] = url;
      row.imagesDone++;
      await progress();
    }
  }

  private async storeImage(ref: string, archive: ExportArchive | null, folder: ImportKind): Promise<string> {
    const limits = { maxBytes: this.config.imports.maxImageBytes, timeoutMs: this.config.imports.imageTimeoutMs };
    let data: Buffer | null;
    if (/^https?:\/\//i.test(ref)) data = await fetchImage(ref, limits);
    else {
      // The archive stops reading at the limit (declared or inflated size), so a zip bomb never fills memory.
      data = archive ? await archive.read(ref, limits.maxBytes) : null;
      if (!data) throw new ImageFetchError('not in the export');
    }
    if (sniffFileType(data)?.kind !== 'image') throw new ImageFetchError('not an image');
    const { url } = await this.uploads.store({ buffer: data } as Express.Multer.File, folder);
    return url;
  }

  private toJob(row: ImportJobRow): ImportJob {
    return {
      id: row.id,
      state: row.state,
      format: row.format,
      fileName: row.fileName,
      createdAt: row.createdAt.toISOString(),
      finishedAt: row.finishedAt?.toISOString() ?? null,
      mapping: row.mapping,
      report: row.report,
      progress: { items: { done: row.itemsDone, total: row.itemsTotal }, images: { done: row.imagesDone, total: row.imagesTotal } },
      applyWarnings: row.applyWarnings as ImportWarning[],
      results: row.results ?? [],
      error: row.error,
    };
  }
}

function messageOf(error: unknown): string {
  if (error instanceof HttpException) return error.message;
  return error instanceof Error ? error.message : String(error);
}
