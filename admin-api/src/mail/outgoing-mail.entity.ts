import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** bigint columns come back as strings from MySQL. */
const epochMs = { to: (value: number | null) => value, from: (value: string | number | null) => (value === null ? null : Number(value)) };

/**
 * A mail waiting to be sent (the mail queue). The body is held exactly as it will be sent, links
 * included, until the mail is delivered; then the row is deleted. A mail given up on keeps its
 * address, subject and last error, without its body. Times are epoch milliseconds, so the claim
 * is one conditional UPDATE binding plain numbers on both databases.
 */
@Entity('mail_queue')
export class OutgoingMail {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'varchar', length: 320 })
  recipient: string;

  @Column({ type: 'varchar', length: 255 })
  subject: string;

  @Column({ type: 'text' })
  body: string;

  /** An HTML alternative to the body (newsletter confirmations and test mails), dropped with the body. */
  @Column({ type: 'text', nullable: true })
  html: string | null = null;

  /** A From other than MAIL_FROM (the newsletter's sender); NULL: MAIL_FROM. */
  @Column({ type: 'varchar', length: 200, nullable: true })
  fromName: string | null = null;

  @Column({ type: 'varchar', length: 254, nullable: true })
  fromAddress: string | null = null;

  @Column({ type: 'bigint', transformer: epochMs })
  createdAt: number;

  /** When a sender may take it: at once, after a retry wait, or when a sender's claim runs out. */
  @Column({ type: 'bigint', transformer: epochMs })
  dueAt: number;

  /** The process sending it now (or last); NULL when nobody holds it. */
  @Column({ type: 'varchar', length: 100, nullable: true })
  claimedBy: string | null = null;

  /** Attempts started, counted when claimed (so a sender that dies mid-send counts too). */
  @Column({ type: 'int' })
  attempts: number;

  @Column({ type: 'bigint', nullable: true, transformer: epochMs })
  failedAt: number | null = null;

  @Column({ type: 'varchar', length: 500, nullable: true })
  lastError: string | null = null;
}
