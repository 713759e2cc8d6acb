import { BadRequestException, ConflictException, Inject, NotFoundException, type OnModuleInit } from '@nestjs/common';
import { type KindDefinition, KINDS } from '@portfolio/contract/kinds';
import { compareBy } from '@portfolio/contract/rules';
import type { ContentAction, ContentKind, RevisionAction } from '@portfolio/contract/types';
import { type EntityManager, type EntityTarget, type FindOptionsOrder, type FindOptionsWhere, IsNull, LessThanOrEqual } from 'typeorm';

import type { Viewer } from '../auth/auth-context.js';
import { refusal } from '../common/api-message.js';
import { Clock } from '../common/clock.js';
import { findOrFail } from '../common/find-or-fail.js';
import { Db } from '../database/db.service.js';
import { ContentKinds, type KindService, publishedWhere } from '../kinds/content-kinds.js';
import { isLive, offerIfFirstLive } from '../newsletter/offers.js';
import { OutboxService } from '../publishing/outbox.service.js';
import { restorableFields, RevisionsService, type Snapshot, snapshotOf } from '../revisions/revisions.service.js';
import { ContentEntity } from './content.entity.js';

export interface ContentResource<T extends ContentEntity> {
  kind: ContentKind;
  entity: EntityTarget<T> & (new () => T);
  /** The body of a create (POST), which a preview's draft is checked with. */
  createDto: new () => object;
}

interface Save {
  action: RevisionAction;
  outboxAction: ContentAction;
  /** The item saved, or null when it is created. */
  id: number | null;
  viewer: NonNullable<Viewer>;
  restoredFrom?: number;
  /** The item may no longer exist (a restore of a removed item's revision): `current` is then null. */
  mayBeGone?: boolean;
  options?: SaveOptions;
}

/**
 * How a save reaches the site. An import saves many items and then asks for one full publish
 * itself (OutboxService.recordFullPublish), so its saves write no outbox row of their own.
 */
export interface SaveOptions {
  /** false: no outbox row (the caller publishes); true by default. */
  publish?: boolean;
  /** More work inside the save's transaction (an import's record of what it saved). */
  within?: (m: EntityManager, item: ContentEntity) => Promise<void>;
}

export interface ListOptions {
  includeDeleted?: boolean;
}

/**
 * The shared life cycle of the content kinds: visibility (the kind's publish rule in
 * @portfolio/contract/kinds), audit fields, the one soft-delete mechanism, and a revision and an
 * outbox row in the same transaction as every change.
 */
export abstract class ContentService<T extends ContentEntity> implements OnModuleInit, KindService {
  /** Injected by property, so the services' constructors stay as they are. */
  @Inject(RevisionsService)
  protected readonly revisions: RevisionsService;

  @Inject(Clock)
  protected readonly clock: Clock;

  @Inject(ContentKinds)
  private readonly kinds: ContentKinds;

  /** The kind's definition, and the public list's order as TypeORM takes it. */
  protected readonly definition: KindDefinition;
  private readonly order: FindOptionsOrder<T>;

  protected constructor(
    protected readonly db: Db,
    protected readonly outbox: OutboxService,
    readonly resource: ContentResource<T>,
  ) {
    this.definition = KINDS[resource.kind];
    this.order = this.definition.order as FindOptionsOrder<T>;
  }

  onModuleInit() {
    this.kinds.register(this.resource.kind, this);
  }

  list(viewer: Viewer, options: ListOptions = {}): Promise<T[]> {
    const { entity } = this.resource;
    const order = this.order;
    if (!viewer) return this.db.manager.find(entity, { where: this.publicWhere(), order });
    const includeDeleted = options.includeDeleted ?? this.definition.softDelete.adminListsDeleted;
    const where = includeDeleted ? {} : ({ isDeleted: false } as FindOptionsWhere<T>);
    return this.db.manager.find(entity, { where, order });
  }

  async get(id: number, viewer: Viewer): Promise<T> {
    const { entity } = this.resource;
    const notFound = this.definition.labels.notFound;
    if (viewer) return findOrFail(this.db.manager, entity, id, notFound);
    const found = await this.db.manager.findOne(entity, { where: this.publicWhere().map((w) => ({ ...w, id }) as FindOptionsWhere<T>) });
    if (!found) throw new NotFoundException(refusal(notFound));
    return found;
  }

  /** Whether the item is in the database (deleted or not). */
  exists(id: number): Promise<boolean> {
    return this.db.manager.existsBy(this.resource.entity, { id } as FindOptionsWhere<T>);
  }

  async create(fields: Partial<T>, viewer: NonNullable<Viewer>, options?: SaveOptions): Promise<T> {
    return this.change({ action: 'create', outboxAction: 'create', id: null, viewer, options }, async (m) => {
      const item = m.create(this.resource.entity, fields as T);
      item.createdByUserId = viewer.user.id;
      item.lastUpdatedByUserId = viewer.user.id;
      return m.save(item);
    });
  }

  /** PATCH: either `{isDeleted}` alone (move to trash / restore) or fields to edit. */
  async update(id: number, patch: Partial<T> & { isDeleted?: boolean }, viewer: NonNullable<Viewer>, options?: SaveOptions): Promise<T> {
    const { isDeleted, ...fields } = patch;
    if (isDeleted !== undefined) {
      if (Object.keys(fields).length) {
        throw new BadRequestException(refusal('validation.deletedAlone', { field: 'isDeleted' }));
      }
      return this.setDeleted(id, isDeleted, viewer);
    }
    return this.change({ action: 'update', outboxAction: 'update', id, viewer, options }, async (m, item) => {
      const { notEditableInTrash } = this.definition.softDelete;
      if (item!.isDeleted && notEditableInTrash) throw new ConflictException(refusal(notEditableInTrash));
      Object.assign(item!, fields);
      item!.lastUpdatedByUserId = viewer.user.id;
      return m.save(item!);
    });
  }

  async setDeleted(id: number, deleted: boolean, viewer: NonNullable<Viewer>): Promise<T> {
    const action = deleted ? 'delete' : 'restore';
    return this.change({ action, outboxAction: action, id, viewer }, async (m, item) => {
      if (item!.isDeleted === deleted) return item!;
      item!.isDeleted = deleted;
      item!.deletedAt = deleted ? new Date() : null;
      item!.deletedByUserId = deleted ? viewer.user.id : null;
      item!.lastUpdatedByUserId = viewer.user.id;
      return m.save(item!);
    });
  }

  /** Permanent removal (plays). The item's history stays, so a revision restore can bring it back. */
  async remove(id: number, viewer: NonNullable<Viewer>): Promise<void> {
    await this.change({ action: 'remove', outboxAction: 'delete', id, viewer }, async (m, item) => {
      await m.remove(item!);
      item!.id = id;
      return item!;
    });
  }

  /**
   * Restores a revision: a new save of that version's content fields (audit columns, the download
   * counter and the trash state are not versions' content: a restored version is out of the trash).
   * An item removed for good is recreated with its old id, so its links and history continue.
   */
  async restoreRevision(id: number, revision: number, viewer: NonNullable<Viewer>): Promise<T> {
    const { kind, entity } = this.resource;
    return this.change(
      { action: 'revert', outboxAction: 'update', id, viewer, restoredFrom: revision, mayBeGone: true },
      async (m, current) => {
        const { snapshot } = await this.revisions.get(kind, id, revision, m);
        // A version saved before formatted text existed is plain text (migration 1765410000000-text-format).
        const fields = this.columnValues(m, { textFormat: 'plain', ...restorableFields(snapshot as unknown as Snapshot) });
        if (!current) {
          const item = m.create(entity, fields as T);
          item.id = id;
          item.createdAt = new Date(snapshot.createdAt);
          item.createdByUserId = snapshot.createdByUserId;
          item.lastUpdatedByUserId = viewer.user.id;
          await m.insert(entity, item as never);
          return findOrFail(m, entity, id, this.definition.labels.notFound);
        }
        Object.assign(current, fields);
        current.isDeleted = false;
        current.deletedAt = null;
        current.deletedByUserId = null;
        current.lastUpdatedByUserId = viewer.user.id;
        return m.save(current);
      },
    );
  }

  /**
   * A preview's data (nothing is saved): the item as the form holds it (`fields` over the saved item
   * `id`, or a new one with the next free id), shown as it will be once public (published, due, not
   * in the trash), and the public list with it in place, in the API's order.
   */
  async previewData(id: number | null, fields: Partial<T>, viewer: NonNullable<Viewer>): Promise<{ item: T; list: T[] }> {
    const { entity } = this.resource;
    const m = this.db.manager;
    let item: T;
    if (id !== null) {
      item = await this.get(id, viewer);
    } else {
      item = m.create(entity, {} as T);
      for (const column of m.connection.getMetadata(entity).columns) {
        const key = column.propertyName as keyof T;
        if (item[key] === undefined) item[key] = (typeof column.default === 'function' ? null : (column.default ?? null)) as T[keyof T];
      }
      const [{ max }] = (await m.createQueryBuilder(entity, 'e').select('MAX(e.id)', 'max').getRawMany()) as {
        max: number | string | null;
      }[];
      item.id = Number(max ?? 0) + 1;
      item.createdAt = new Date();
      item.createdByUserId = viewer.user.id;
    }
    Object.assign(item, fields);
    item.updatedAt = new Date();
    item.isDeleted = false;
    item.deletedAt = null;
    this.asPublic(item);
    const list = (await this.list(null)).filter((other) => other.id !== item.id);
    list.push(item);
    list.sort(compareBy(this.definition.order));
    return { item, list };
  }

  /** Makes a preview's item what visitors would see once it is public; each type knows its flag. */
  protected asPublic(item: T): void {
    const fields = item as unknown as Record<string, unknown>;
    if ('published' in fields) fields.published = true;
    if ('publishAt' in fields) fields.publishAt = null;
  }

  /** A snapshot's JSON values as the entity's columns take them (ISO strings of date columns as Dates); unknown fields dropped. */
  private columnValues(m: EntityManager, fields: Record<string, unknown>): Partial<T> {
    const columns = new Map(m.connection.getMetadata(this.resource.entity).columns.map((c) => [c.propertyName, c]));
    const values: Record<string, unknown> = {};
    for (const [field, value] of Object.entries(fields)) {
      const column = columns.get(field);
      if (!column) continue;
      values[field] = typeof value === 'string' && (column.type === 'datetime' || column.type === Date) ? new Date(value) : value;
    }
    return values as Partial<T>;
  }

  /**
   * One save, in one transaction: the item (loaded, and locked on MySQL, when `id` is given), its
   * revision and its outbox row are committed together or not at all.
   */
  private async change(save: Save, work: (m: EntityManager, current: T | null) => Promise<T>): Promise<T> {
    const { kind, entity } = this.resource;
    const notFound = this.definition.labels.notFound;
    const result = await this.db.write(async (m) => {
      let current: T | null = null;
      if (save.id !== null) {
        const lock = m.connection.options.type === 'mysql' ? { lock: { mode: 'pessimistic_write' as const } } : {};
        current = await m.findOne(entity, { where: { id: save.id } as FindOptionsWhere<T>, ...lock });
        if (!current && !save.mayBeGone) throw new NotFoundException(refusal(notFound));
      }
      const before = current ? snapshotOf(current) : null;
      const wasLive = isLive(kind, current as Record<string, unknown> | null, this.clock.now());
      // A removed item brought back from its history is, for publishing, a new one.
      const outboxAction = save.mayBeGone && !current ? 'create' : save.outboxAction;
      const item = await work(m, current);
      if (!wasLive && save.action !== 'remove')
        await offerIfFirstLive(m, kind, item as unknown as Record<string, unknown>, this.clock.now());
      await this.revisions.record(m, {
        kind,
        entityId: item.id,
        action: save.action,
        before,
        after: save.action === 'remove' ? before! : snapshotOf(item),
        user: save.viewer.user,
        restoredFrom: save.restoredFrom,
      });
      const publish = save.options?.publish ?? true;
      if (publish) await this.outbox.record(m, kind, item.id, outboxAction);
      await save.options?.within?.(m, item);
      return item;
    });
    if (save.options?.publish ?? true) this.outbox.committed();
    return result;
  }

  /** What anonymous visitors see (alternatives, any of which matches): active, published, and for scheduled types due. */
  private publicWhere(): FindOptionsWhere<T>[] {
    const base = { ...publishedWhere<T>(this.resource.kind), isDeleted: false };
    if (!this.definition.scheduled) return [base as FindOptionsWhere<T>];
    const now = new Date(this.clock.now());
    return [{ ...base, publishAt: IsNull() } as FindOptionsWhere<T>, { ...base, publishAt: LessThanOrEqual(now) } as FindOptionsWhere<T>];
  }
}
