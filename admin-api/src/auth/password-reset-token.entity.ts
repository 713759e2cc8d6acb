import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The id is the SHA-256 of the token sent by e-mail; usedAt makes it single-use. */
@Entity('password_reset_tokens')
export class PasswordResetToken {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  id: string;

  @Column({ type: 'int' })
  userId: number;

  @Column({ type: 'datetime' })
  expiresAt: Date;

  @Column({ type: 'datetime', nullable: true })
  usedAt: Date | null = null;

  @Column({ type: 'datetime' })
  createdAt: Date;
}
