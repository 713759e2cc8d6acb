import type { ContentAction, PublishKind } from '@portfolio/contract/types';
import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/**
 * One row per committed content change, written in the same transaction as the change,
 * so a crash between the save and the rebuild request cannot lose a publish.
 */
@Entity('outbox_events')
export class OutboxEvent {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'varchar', length: 20 })
  kind: PublishKind;

  @Column({ type: 'int' })
  entityId: number;

  @Column({ type: 'varchar', length: 20 })
  action: ContentAction;

  @Column({ type: 'datetime' })
  createdAt: Date;

  /**
   * A change too large to list (an import of many items): the rebuild request it goes out with
   * says its list is cut short, which the builder answers with a full publish. Such a row names no item (entityId 0).
   */
  @Column({ type: 'boolean', default: false })
  fullPublish: boolean = false;

  /** Set by the sender once a rebuild request covering this row was accepted. */
  @Column({ type: 'datetime', nullable: true })
  processedAt: Date | null = null;
}
