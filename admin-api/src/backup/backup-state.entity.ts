import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Numbers that may pass 2^31 (an archive's size): bigint in the database, a number here. */
const bigintNumber = { to: (v: number | null) => v, from: (v: string | number | null) => (v === null ? null : Number(v)) };

/** One row ('backups'): the last backup, the next scheduled one, and who is making it (a lease). */
@Entity('backup_state')
export class BackupState {
  @PrimaryColumn({ type: 'varchar', length: 40 })
  name: string;

  /** The API process making a scheduled backup right now, until leaseUntil. */
  @Column({ type: 'varchar', length: 100, nullable: true })
  leaseOwner: string | null;

  @Column({ type: 'datetime', precision: 3 })
  leaseUntil: Date;

  @Column({ type: 'datetime', precision: 3, nullable: true })
  nextRunAt: Date | null;

  @Column({ type: 'datetime', precision: 3, nullable: true })
  lastStartedAt: Date | null;

  @Column({ type: 'datetime', precision: 3, nullable: true })
  lastFinishedAt: Date | null;

  /** null while it runs. */
  @Column({ type: 'boolean', nullable: true })
  lastOk: boolean | null;

  @Column({ type: 'varchar', length: 20, nullable: true })
  lastTrigger: 'scheduled' | 'manual' | null;

  @Column({ type: 'varchar', length: 500, nullable: true })
  lastFile: string | null;

  @Column({ type: 'bigint', nullable: true, transformer: bigintNumber })
  lastSize: number | null;

  @Column({ type: 'varchar', length: 1000, nullable: true })
  lastError: string | null;

  @Column({ type: 'datetime', precision: 3, nullable: true })
  lastSuccessAt: Date | null;

  @Column({ type: 'varchar', length: 500, nullable: true })
  lastSuccessFile: string | null;

  @Column({ type: 'bigint', nullable: true, transformer: bigintNumber })
  lastSuccessSize: number | null;
}
