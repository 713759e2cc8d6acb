import type * as Contract from '@portfolio/contract/types';
import type { ContentKind, RevisionAction } from '@portfolio/contract/types';
import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

import type { AssertSame, Serialized } from '../common/json-shape.js';

/**
 * One saved version of a content item, written in the same transaction as the save (see
 * ContentService). Kept by kind and id, not by foreign key: a removed play keeps its history.
 */
@Entity('content_revisions')
@Index('UQ_content_revisions_item_revision', ['kind', 'entityId', 'revision'], { unique: true })
export class ContentRevision {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'varchar', length: 20 })
  kind: ContentKind;

  @Column({ type: 'int' })
  entityId: number;

  @Column({ type: 'int' })
  revision: number;

  @Column({ type: 'varchar', length: 20 })
  action: RevisionAction;

  @Column({ type: 'int', nullable: true })
  userId: number | null;

  @Column({ type: 'varchar', length: 50, nullable: true })
  username: string | null;

  @Column({ type: 'datetime', precision: 3 })
  createdAt: Date;

  @Column({ type: 'simple-json' })
  changedFields: string[];

  @Column({ type: 'int', nullable: true })
  restoredFrom: number | null;

  /** The item's JSON after the save (JSON text: longtext on MySQL, as an essay can be long). */
  @Column({ type: 'simple-json', select: false })
  snapshot: Contract.ContentItem;
}

/** A revision as the API answers it (with its snapshot) is the contract's Revision. */
type AnswerIsContract = AssertSame<Serialized<Omit<ContentRevision, 'id'>>, Contract.Revision>;
