import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** One-time recovery codes of an admin with two-factor sign-in: only their SHA-256 is kept. */
@Entity('admin_recovery_codes')
export class AdminRecoveryCode {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'int' })
  userId: number;

  @Column({ type: 'varchar', length: 64 })
  codeHash: string;

  @Column({ type: 'datetime', nullable: true })
  usedAt: Date | null = null;

  @Column({ type: 'datetime' })
  createdAt: Date;
}
