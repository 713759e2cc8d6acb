import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * A password step passed by an admin with two-factor sign-in, waiting for the code step. The id is
 * the SHA-256 of the challenge token the login answered with; it expires after a few minutes.
 */
@Entity('admin_login_challenges')
export class LoginChallenge {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  id: string;

  @Column({ type: 'int' })
  userId: number;

  @Column({ type: 'datetime' })
  expiresAt: Date;

  @Column({ type: 'datetime' })
  createdAt: Date;
}
