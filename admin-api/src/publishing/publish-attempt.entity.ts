import type { RebuildReason } from '@portfolio/contract/webhook';
import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

export type PublishReason = RebuildReason;

/**
 * One row per rebuild request the sender made, successful or not, so an operator can see what was
 * sent when and why it failed. Pruned to the newest few thousand.
 */
@Entity('publish_attempts')
export class PublishAttempt {
  @PrimaryGeneratedColumn()
  id: number;

  /** The same for every retry of the same batch of changes; the builder ignores repeats. */
  @Column({ type: 'varchar', length: 100 })
  idempotencyKey: string;

  @Column({ type: 'varchar', length: 20 })
  reason: PublishReason;

  /** The outbox rows the request covered (null when 'Publish now' had no pending change). */
  @Column({ type: 'int', nullable: true })
  firstEventId: number | null;

  @Column({ type: 'int', nullable: true })
  lastEventId: number | null;

  @Column({ type: 'int' })
  changeCount: number;

  /** 1 for the first try of a batch, 2 for its first retry, and so on. */
  @Column({ type: 'int' })
  attempt: number;

  @Column({ type: 'datetime' })
  startedAt: Date;

  @Column({ type: 'int' })
  durationMs: number;

  /** The webhook's HTTP status, or null when no answer came (refused, timed out). */
  @Column({ type: 'int', nullable: true })
  statusCode: number | null;

  @Column({ type: 'boolean' })
  succeeded: boolean;

  @Column({ type: 'varchar', length: 500, nullable: true })
  error: string | null;
}
