import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The id is the SHA-256 of the bearer token; the token itself is never stored. */
@Entity('admin_sessions')
export class AdminSession {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  id: string;

  @Column({ type: 'int' })
  userId: number;

  @Column({ type: 'datetime' })
  expiresAt: Date;

  @Column({ type: 'datetime' })
  createdAt: Date;
}
