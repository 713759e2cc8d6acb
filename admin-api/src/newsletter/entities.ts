import type { Lang } from '@portfolio/contract/languages';
import type { NewsletterTopic, SubscriberState } from '@portfolio/contract/newsletter';
import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** bigint columns come back as strings from MySQL; times are epoch milliseconds, bound as plain numbers in raw SQL. */
const epochMs = { to: (value: number | null) => value, from: (value: string | number | null) => (value === null ? null : Number(value)) };
const topicList = {
  to: (value: NewsletterTopic[]) => value.join(','),
  from: (value: string) => (value ? (value.split(',') as NewsletterTopic[]) : []),
};

/** A reader of the newsletter. Its links are HMACs of its id and `linkNonce` (tokens.ts); a new nonce revokes them. */
@Entity('newsletter_subscribers')
export class Subscriber {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'varchar', length: 254 })
  email: string;

  @Column({ type: 'varchar', length: 8 })
  language: Lang;

  @Column({ type: 'varchar', length: 200, transformer: topicList })
  topics: NewsletterTopic[];

  @Column({ type: 'varchar', length: 20 })
  state: SubscriberState;

  @Column({ type: 'bigint', transformer: epochMs })
  createdAt: number;

  /** When the current wait for a confirmation began: confirm links issued earlier no longer work. */
  @Column({ type: 'bigint', nullable: true, transformer: epochMs })
  pendingSince: number | null = null;

  /** The last confirmation mail (at most one every ten minutes). */
  @Column({ type: 'bigint', nullable: true, transformer: epochMs })
  confirmMailAt: number | null = null;

  @Column({ type: 'bigint', nullable: true, transformer: epochMs })
  confirmedAt: number | null = null;

  @Column({ type: 'bigint', nullable: true, transformer: epochMs })
  unsubscribedAt: number | null = null;

  @Column({ type: 'int', default: 0 })
  permanentFailures: number = 0;

  /**
   * Raised with each new `linkNonce`. 0 only for readers from before issue 32, whose mails carry
   * links of the old form (id and generation, no nonce): those stay valid until the nonce changes.
   */
  @Column({ type: 'int', default: 0 })
  linkGeneration: number = 1;

  /** What every link of this reader is bound to: random, so a later row with the same id never shares it. */
  @Column({ type: 'varchar', length: 32, nullable: true })
  linkNonce: string | null = null;
}

@Entity('newsletter_campaigns')
export class Campaign {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'varchar', length: 20 })
  kind: NewsletterTopic;

  @Column({ type: 'int' })
  itemId: number;

  @Column({ type: 'varchar', length: 500 })
  title: string;

  @Column({ type: 'varchar', length: 20 })
  state: 'sending' | 'done';

  @Column({ type: 'bigint', transformer: epochMs })
  createdAt: number;

  @Column({ type: 'int', nullable: true })
  createdByUserId: number | null;

  @Column({ type: 'bigint', nullable: true, transformer: epochMs })
  finishedAt: number | null = null;

  @Column({ type: 'int' })
  total: number;

  /** The next free send slot (NEWSLETTER_RATE_PER_MINUTE), reserved by conditional UPDATEs across replicas. */
  @Column({ type: 'bigint', default: 0, transformer: epochMs })
  nextSlotAt: number = 0;
}

export type DeliveryState = 'queued' | 'sending' | 'sent' | 'failed' | 'skipped';

/** One mail of a campaign to one subscriber: the sender's queue, and the campaign's progress. */
@Entity('newsletter_deliveries')
export class Delivery {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'int' })
  campaignId: number;

  @Column({ type: 'int' })
  subscriberId: number;

  @Column({ type: 'varchar', length: 20 })
  state: DeliveryState;

  @Column({ type: 'bigint', transformer: epochMs })
  dueAt: number;

  @Column({ type: 'varchar', length: 100, nullable: true })
  claimedBy: string | null = null;

  @Column({ type: 'int', default: 0 })
  attempts: number = 0;

  @Column({ type: 'bigint', nullable: true, transformer: epochMs })
  sentAt: number | null = null;

  @Column({ type: 'varchar', length: 500, nullable: true })
  lastError: string | null = null;
}

/** An item of a newsletter kind that went live for the first time: offered until sent or dismissed. */
@Entity('newsletter_offers')
export class Offer {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'varchar', length: 20 })
  kind: NewsletterTopic;

  @Column({ type: 'int' })
  itemId: number;

  @Column({ type: 'bigint', transformer: epochMs })
  liveAt: number;

  @Column({ type: 'varchar', length: 20 })
  state: 'open' | 'dismissed' | 'sent';
}
