import { EventEmitter } from 'node:events';

import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { type ContentKind, SCHEDULED_KINDS } from '@portfolio/contract/kinds';
import type { ScheduledItem } from '@portfolio/contract/types';
import { And, type EntityManager, type EntityTarget, IsNull, LessThanOrEqual, MoreThan, Not } from 'typeorm';

import { Clock } from '../common/clock.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { Db } from '../database/db.service.js';
import { ContentKinds, publishedWhere } from '../kinds/content-kinds.js';
import { offerIfFirstLive } from '../newsletter/offers.js';
import { OutboxService } from '../publishing/outbox.service.js';

interface Schedulable {
  id: number;
  title: string;
  publishAt: Date | null;
  isDeleted: boolean;
}

/** The read_counters row: every publishAt up to this time (ms since the epoch) has had its outbox row. */
const COUNTER = 'publishScheduledUpTo';

/**
 * Makes scheduled items go live by themselves. Anonymous reads hide an item until its `publishAt`
 * (ContentService); at that time this writes the item's outbox row, so the normal publishing path
 * (rebuild sender → builder) publishes it and the public read cache renews its answers.
 *
 * Progress lives in the database (read_counters `publishScheduledUpTo`), so a restart catches up on
 * every item that fell due while the API was down, and of several replicas only the one whose
 * conditional update moves that mark writes the rows (in the same transaction). Wakes at the next
 * due time, after every local save, and every PUBLISH_POLL_MS (saves of other replicas).
 * Emits 'announced' with the items it wrote rows for (tests wait on it).
 */
@Injectable()
export class PublishScheduler implements OnApplicationBootstrap, OnModuleDestroy {
  readonly events = new EventEmitter();
  private readonly logger = new Logger('Scheduling');
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private closed = false;
  private readonly onCommitted = () => this.wake();

  constructor(
    private readonly db: Db,
    private readonly outbox: OutboxService,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly kinds: ContentKinds,
  ) {}

  /** The kinds whose items can carry a publication time (@portfolio/contract/kinds), with their entities. */
  private scheduledKinds(): { kind: ContentKind; entity: EntityTarget<Schedulable> }[] {
    return SCHEDULED_KINDS.map((kind) => ({ kind, entity: this.kinds.service(kind).resource.entity as EntityTarget<Schedulable> }));
  }

  onApplicationBootstrap() {
    this.outbox.events.on('committed', this.onCommitted);
    this.wake();
  }

  async onModuleDestroy() {
    this.closed = true;
    this.outbox.events.off('committed', this.onCommitted);
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  /**
   * Items that will go live by themselves, soonest first (GET /api/admin/scheduled): a publication
   * time still ahead on an item that is otherwise public (a draft with a time stays a draft).
   */
  async upcoming(): Promise<ScheduledItem[]> {
    const now = new Date(this.clock.now());
    const items: ScheduledItem[] = [];
    for (const { kind, entity } of this.scheduledKinds()) {
      const rows = await this.db.manager.find(entity, {
        where: { ...publishedWhere<Schedulable>(kind), publishAt: MoreThan(now), isDeleted: false },
        select: { id: true, title: true, publishAt: true, isDeleted: true },
      });
      for (const row of rows) items.push({ kind, id: row.id, title: row.title, publishAt: row.publishAt!.toISOString() });
    }
    return items.sort((a, b) => a.publishAt.localeCompare(b.publishAt) || a.kind.localeCompare(b.kind) || a.id - b.id);
  }

  /** Checks now (again after the running check, if one is running). */
  wake() {
    if (this.closed) return;
    if (this.running) {
      this.again = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.running = this.tick().finally(() => {
      this.running = null;
      if (this.again) {
        this.again = false;
        this.wake();
      }
    });
  }

  private schedule(delayMs: number) {
    if (this.closed) return;
    if (this.timer) clearTimeout(this.timer);
    // setTimeout's limit is about 24.8 days; a later time is reached by waking up on the way.
    this.timer = setTimeout(
      () => {
        this.timer = null;
        this.wake();
      },
      Math.min(Math.max(0, delayMs), this.config.publishing.pollMs),
    );
    this.timer.unref();
  }

  private async tick() {
    let next = this.config.publishing.pollMs;
    try {
      const announced = await this.db.write((m) => this.announceDue(m, this.clock.now()));
      if (announced.length) {
        this.outbox.committed();
        this.logger.log(`Scheduled items now public: ${announced.map((a) => `${a.kind}/${a.id}`).join(', ')}`);
        this.events.emit('announced', announced);
      }
      const now = this.clock.now();
      for (const { entity } of this.scheduledKinds()) {
        const soonest = await this.db.manager.findOne(entity, {
          where: { publishAt: MoreThan(new Date(now)) },
          order: { publishAt: 'ASC' },
          select: { id: true, publishAt: true },
        });
        if (soonest?.publishAt) next = Math.min(next, soonest.publishAt.getTime() - now);
      }
    } catch (error) {
      this.logger.error(`Scheduled publishing check failed: ${(error as Error).message}`);
    }
    this.schedule(next);
  }

  /**
   * One transaction: moves the mark from its stored value to `now` (only if nobody moved it
   * meanwhile) and writes an outbox row for every item whose publishAt lies in between.
   */
  private async announceDue(m: EntityManager, now: number): Promise<{ kind: ContentKind; id: number }[]> {
    const qr = m.queryRunner!;
    const [row] = (await qr.query(`SELECT value FROM read_counters WHERE name = ?`, [COUNTER])) as { value: number | string }[];
    if (!row) {
      await qr.query(`INSERT INTO read_counters (name, value) VALUES (?, ?)`, [COUNTER, 0]);
      return [];
    }
    const upTo = Number(row.value);
    if (now <= upTo) return [];
    const claimed = await qr.query(`UPDATE read_counters SET value = ? WHERE name = ? AND value = ?`, [now, COUNTER, upTo], true);
    // Another replica moved the mark first: it writes these rows.
    if (claimed.affected !== 1) return [];
    const due: { kind: ContentKind; id: number }[] = [];
    for (const { kind, entity } of this.scheduledKinds()) {
      const rows = await m.find(entity, {
        where: { publishAt: And(Not(IsNull()), MoreThan(new Date(upTo)), LessThanOrEqual(new Date(now))) },
        select: { id: true },
        order: { id: 'ASC' },
      });
      for (const { id } of rows) {
        await this.outbox.record(m, kind, id, 'update');
        const item = await m.findOneBy(entity, { id });
        if (item) await offerIfFirstLive(m, kind, item as unknown as Record<string, unknown>, now);
        due.push({ kind, id });
      }
    }
    return due;
  }
}
