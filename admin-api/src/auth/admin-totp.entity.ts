import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * An admin's TOTP secret. `totpSecret` is encrypted (TwoFactorKey) and never leaves the server
 * after setup; backups leave this table out. `enabledAt` is null while a setup waits for its
 * first code. `lastUsedStep` is the time step of the last accepted code: a code works once.
 */
@Entity('admin_totp')
export class AdminTotp {
  @PrimaryColumn({ type: 'int' })
  userId: number;

  @Column({ type: 'varchar', length: 255 })
  totpSecret: string;

  @Column({ type: 'datetime', nullable: true })
  enabledAt: Date | null = null;

  @Column({ type: 'int', nullable: true })
  lastUsedStep: number | null = null;

  @Column({ type: 'datetime' })
  createdAt: Date;

  @Column({ type: 'datetime' })
  updatedAt: Date;
}
