import { BadRequestException, ConflictException } from '@nestjs/common';
import type { ContentAction, ContentKind } from '@portfolio/contract/types';
import type { EntityManager, EntityTarget, FindOptionsOrder, FindOptionsWhere } from 'typeorm';
import type { Viewer } from '../auth/auth-context.js';
import { findOrFail } from '../common/find-or-fail.js';
import { Db } from '../database/db.service.js';
import { OutboxService } from '../publishing/outbox.service.js';
import { ContentEntity } from './content.entity.js';
import type { MessageKey } from '@portfolio/contract/messages';
import { refusal } from '../common/api-message.js';

export interface ContentResource<T extends ContentEntity> {
  kind: ContentKind;
  entity: EntityTarget<T> & (new () => T);
  notFound: MessageKey;
  /** What anonymous visitors may see, besides not being deleted. */
  publicWhere: FindOptionsWhere<T>;
  order: FindOptionsOrder<T>;
  /** Whether admins' lists include deleted items when the query does not say. */
  adminSeesDeletedByDefault: boolean;
  /** Why an item may not be edited in its current state (e.g. deleted books), or null. */
  editBlockedReason?: (item: T) => MessageKey | null;
}

export interface ListOptions {
  includeDeleted?: boolean;
}

/**
 * The shared life cycle of books, essays, artworks, news and plays: visibility, audit fields,
 * the one soft-delete mechanism, and an outbox row in the same transaction as every change.
 */
export abstract class ContentService<T extends ContentEntity> {
  protected constructor(
    protected readonly db: Db,
    protected readonly outbox: OutboxService,
    protected readonly resource: ContentResource<T>,
  ) {}

  list(viewer: Viewer, options: ListOptions = {}): Promise<T[]> {
    const { entity, order } = this.resource;
    if (!viewer) return this.db.manager.find(entity, { where: this.publicWhere(), order });
    const includeDeleted = options.includeDeleted ?? this.resource.adminSeesDeletedByDefault;
    const where = includeDeleted ? {} : ({ isDeleted: false } as FindOptionsWhere<T>);
    return this.db.manager.find(entity, { where, order });
  }

  get(id: number, viewer: Viewer): Promise<T> {
    return findOrFail(this.db.manager, this.resource.entity, id, this.resource.notFound, viewer ? {} : this.publicWhere());
  }

  async create(fields: Partial<T>, viewer: NonNullable<Viewer>): Promise<T> {
    return this.change('create', async (m) => {
      const item = m.create(this.resource.entity, fields as T);
      item.createdByUserId = viewer.user.id;
      item.lastUpdatedByUserId = viewer.user.id;
      return m.save(item);
    });
  }

  /** PATCH: either `{isDeleted}` alone (move to trash / restore) or fields to edit. */
  async update(id: number, patch: Partial<T> & { isDeleted?: boolean }, viewer: NonNullable<Viewer>): Promise<T> {
    const { isDeleted, ...fields } = patch;
    if (isDeleted !== undefined) {
      if (Object.keys(fields).length) {
        throw new BadRequestException(refusal('validation.deletedAlone', { field: 'isDeleted' }));
      }
      return this.setDeleted(id, isDeleted, viewer);
    }
    return this.change('update', async (m) => {
      const item = await findOrFail(m, this.resource.entity, id, this.resource.notFound);
      const blocked = this.resource.editBlockedReason?.(item);
      if (blocked) throw new ConflictException(refusal(blocked));
      Object.assign(item, fields);
      item.lastUpdatedByUserId = viewer.user.id;
      return m.save(item);
    });
  }

  async setDeleted(id: number, deleted: boolean, viewer: NonNullable<Viewer>): Promise<T> {
    return this.change(deleted ? 'delete' : 'restore', async (m) => {
      const item = await findOrFail(m, this.resource.entity, id, this.resource.notFound);
      if (item.isDeleted === deleted) return item;
      item.isDeleted = deleted;
      item.deletedAt = deleted ? new Date() : null;
      item.deletedByUserId = deleted ? viewer.user.id : null;
      item.lastUpdatedByUserId = viewer.user.id;
      return m.save(item);
    });
  }

  /** Permanent removal (plays). */
  async remove(id: number): Promise<void> {
    await this.change('delete', async (m) => {
      const item = await findOrFail(m, this.resource.entity, id, this.resource.notFound);
      await m.remove(item);
      item.id = id;
      return item;
    });
  }

  private async change(action: ContentAction, work: (m: EntityManager) => Promise<T>): Promise<T> {
    const result = await this.db.write(async (m) => {
      const item = await work(m);
      await this.outbox.record(m, this.resource.kind, item.id, action);
      return item;
    });
    this.outbox.committed();
    return result;
  }

  private publicWhere(): FindOptionsWhere<T> {
    return { ...this.resource.publicWhere, isDeleted: false } as FindOptionsWhere<T>;
  }
}
