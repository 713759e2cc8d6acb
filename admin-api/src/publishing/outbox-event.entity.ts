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

  /** Set by the sender once a rebuild request covering this row was accepted. */
  @Column({ type: 'datetime', nullable: true })
  processedAt: Date | null = null;
}
