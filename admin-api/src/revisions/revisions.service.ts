import { Inject, Injectable, NotFoundException } from '@nestjs/common';
import type * as Contract from '@portfolio/contract/types';
import type { ContentKind, RevisionAction } from '@portfolio/contract/types';
import { type EntityManager, LessThanOrEqual } from 'typeorm';

import { AdminUser } from '../auth/admin-user.entity.js';
import { refusal } from '../common/api-message.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { Db } from '../database/db.service.js';
import { ContentRevision } from './content-revision.entity.js';

/** An item's JSON, as its GET answers it. */
export type Snapshot = Record<string, unknown> & { id: number };

/** Columns that are not the item's content: the server keeps them, a restore leaves them as they are. */
const NOT_CONTENT = new Set([
  'id',
  'createdAt',
  'updatedAt',
  'createdByUserId',
  'lastUpdatedByUserId',
  'deletedAt',
  'deletedByUserId',
  'downloadCount',
]);

export function snapshotOf(item: object): Snapshot {
  return JSON.parse(JSON.stringify(item)) as Snapshot;
}

/** The fields of a snapshot a restore puts back: its content, not the audit columns nor the trash state. */
export function restorableFields(snapshot: Snapshot): Record<string, unknown> {
  return Object.fromEntries(Object.entries(snapshot).filter(([field]) => !NOT_CONTENT.has(field) && field !== 'isDeleted'));
}

/** The content fields whose values differ (JSON equality), in the snapshot's own field order. */
export function changedFields(before: Snapshot | null, after: Snapshot): string[] {
  const fields = Object.keys(after).filter((field) => !NOT_CONTENT.has(field));
  if (!before) return fields.filter((field) => !isEmpty(after[field]) && after[field] !== false);
  return fields.filter((field) => JSON.stringify(before[field] ?? null) !== JSON.stringify(after[field] ?? null));
}

const isEmpty = (value: unknown) =>
  value === null ||
  value === undefined ||
  value === '' ||
  (Array.isArray(value) && value.length === 0) ||
  (typeof value === 'object' && Object.keys(value).length === 0); // `translations: {}`

export interface RevisionInput {
  kind: ContentKind;
  entityId: number;
  action: RevisionAction;
  /** The item before the save (null for a create or a recreated item). */
  before: Snapshot | null;
  /** The item after the save; for a removal, the item as it was. */
  after: Snapshot;
  user: AdminUser;
  restoredFrom?: number;
}

const SUMMARY_COLUMNS = {
  id: true,
  kind: true,
  entityId: true,
  revision: true,
  action: true,
  userId: true,
  username: true,
  createdAt: true,
  changedFields: true,
  restoredFrom: true,
} as const;

/**
 * The versions of books, essays, artworks, news and plays. `record` is called by ContentService
 * inside the transaction of every save, beside the outbox row: the save and its revision are
 * committed together or not at all. `REVISIONS_KEEP` (0: all) bounds how many each item keeps.
 */
@Injectable()
export class RevisionsService {
  private readonly keep: number;

  constructor(
    private readonly db: Db,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.keep = config.revisions.keep;
  }

  /** Writes the save's revision; returns null when the save changed no content field (nothing to keep). */
  async record(m: EntityManager, input: RevisionInput): Promise<ContentRevision | null> {
    const { kind, entityId, before, after, user } = input;
    const removal = input.action === 'remove';
    const changed = removal ? [] : changedFields(before, after);
    if (!changed.length && !removal && input.action !== 'create' && input.action !== 'revert') return null;

    const last = await m.findOne(ContentRevision, {
      where: { kind, entityId },
      order: { revision: 'DESC' },
      select: { id: true, revision: true },
    });
    let number = (last?.revision ?? 0) + 1;
    if (!last && before) {
      // The item existed before revisions were kept (or was seeded): keep the state before this
      // first save as revision 1, so it can be compared and restored like any other.
      await m.insert(ContentRevision, {
        kind,
        entityId,
        revision: number++,
        action: 'baseline',
        userId: numberOrNull(before.lastUpdatedByUserId),
        username: await this.usernameOf(m, numberOrNull(before.lastUpdatedByUserId)),
        createdAt: validDate(before.updatedAt) ?? new Date(),
        changedFields: [],
        restoredFrom: null,
        snapshot: before as unknown as Contract.ContentItem,
      });
    }
    let action = input.action;
    if (action === 'update' && changed.length === 1 && changed[0] === 'published') action = after.published ? 'publish' : 'unpublish';
    const revision = m.create(ContentRevision, {
      kind,
      entityId,
      revision: number,
      action,
      userId: user.id,
      username: user.username,
      createdAt: new Date(),
      changedFields: changed,
      restoredFrom: input.restoredFrom ?? null,
      snapshot: after as unknown as Contract.ContentItem,
    });
    await m.insert(ContentRevision, revision);
    if (this.keep > 0 && number > this.keep) {
      await m.delete(ContentRevision, { kind, entityId, revision: LessThanOrEqual(number - this.keep) });
    }
    return revision;
  }

  /** An item's revisions, newest first. */
  async list(
    kind: ContentKind,
    entityId: number,
    limit: number,
    offset: number,
  ): Promise<{ revisions: Contract.RevisionSummary[]; total: number }> {
    const rows = await this.db.manager.find(ContentRevision, {
      where: { kind, entityId },
      order: { revision: 'DESC' },
      select: SUMMARY_COLUMNS,
      take: limit,
      skip: offset,
    });
    const total = await this.db.manager.countBy(ContentRevision, { kind, entityId });
    return { revisions: rows.map(summary), total };
  }

  /** One revision with its snapshot; 404 'Revision not found'. */
  async get(kind: ContentKind, entityId: number, revision: number, m: EntityManager = this.db.manager): Promise<Contract.Revision> {
    const row = await m.findOne(ContentRevision, {
      where: { kind, entityId, revision },
      select: { ...SUMMARY_COLUMNS, snapshot: true },
    });
    if (!row) throw new NotFoundException(refusal('error.revisionNotFound'));
    return { ...summary(row), snapshot: row.snapshot };
  }

  /** Items of a kind removed for good (their newest revision is a 'remove'), newest removal first. */
  async removed(kind: ContentKind): Promise<Contract.RemovedItem[]> {
    const rows = await this.db.manager.find(ContentRevision, {
      where: { kind, action: 'remove' },
      order: { createdAt: 'DESC', id: 'DESC' },
      select: { ...SUMMARY_COLUMNS, snapshot: true },
    });
    if (!rows.length) return [];
    // A removed item that was brought back has newer revisions than its 'remove'.
    const newest = await this.db.manager
      .createQueryBuilder(ContentRevision, 'r')
      .select('r.entityId', 'entityId')
      .addSelect('MAX(r.revision)', 'revision')
      .where('r.kind = :kind', { kind })
      .andWhere('r.entityId IN (:...ids)', { ids: [...new Set(rows.map((r) => r.entityId))] })
      .groupBy('r.entityId')
      .getRawMany<{ entityId: number | string; revision: number | string }>();
    const latest = new Map(newest.map((r) => [Number(r.entityId), Number(r.revision)]));
    return rows
      .filter((row) => latest.get(row.entityId) === row.revision)
      .map((row) => ({
        kind: row.kind,
        entityId: row.entityId,
        title: String((row.snapshot as { title?: unknown }).title ?? ''),
        removedAt: row.createdAt.toISOString(),
        removedByUserId: row.userId,
        removedByUsername: row.username,
        revision: row.revision,
      }));
  }

  private async usernameOf(m: EntityManager, userId: number | null): Promise<string | null> {
    if (userId === null) return null;
    const user = await m.findOne(AdminUser, { where: { id: userId }, select: { id: true, username: true } });
    return user?.username ?? null;
  }
}

function summary(row: ContentRevision): Contract.RevisionSummary {
  return {
    kind: row.kind,
    entityId: row.entityId,
    revision: row.revision,
    action: row.action,
    userId: row.userId,
    username: row.username,
    createdAt: row.createdAt.toISOString(),
    changedFields: row.changedFields,
    restoredFrom: row.restoredFrom,
  };
}

const numberOrNull = (value: unknown) => (typeof value === 'number' ? value : null);
function validDate(value: unknown): Date | null {
  if (typeof value !== 'string') return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}
