import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import os from 'node:os';

import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import type { BackupStatus } from '@portfolio/contract/types';

import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { Db } from '../database/db.service.js';
import { FileStorage } from '../uploads/file-storage.js';
import { runBackup } from './backup.js';
import { BackupState } from './backup-state.entity.js';
import { claimScheduled, ensureState, recordOutcome, renewLease, type RunOutcome, STATE_NAME, toStatus } from './backup-state.js';

/** A scheduled backup holds its lease this long, renewed while it runs; a crashed process frees it after that. */
const LEASE_MS = 10 * 60_000;
/** How often a replica looks again (another may have run the backup, or the schedule moved). */
const CHECK_MS = 60_000;

/**
 * Makes a backup every BACKUP_EVERY inside the API process. With several replicas a lease row in
 * the database lets exactly one of them make each backup. Emits 'finished' with the RunOutcome of
 * every scheduled run (tests wait on it).
 */
@Injectable()
export class BackupScheduler implements OnApplicationBootstrap, OnModuleDestroy {
  readonly events = new EventEmitter();
  private readonly logger = new Logger('Backups');
  private readonly owner = `${os.hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private closed = false;

  constructor(
    private readonly db: Db,
    private readonly storage: FileStorage,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async status(): Promise<BackupStatus> {
    const state = await this.db.manager.findOneBy(BackupState, { name: STATE_NAME });
    return toStatus(state, this.config.backup);
  }

  // Awaited before the API listens, so its first answer already shows this start's next backup.
  async onApplicationBootstrap() {
    if (this.config.backup.everyMs === null) return;
    const first = new Date(Date.now() + this.config.backup.everyMs);
    try {
      await this.db.write((m) => ensureState(m, first));
      this.schedule(0);
    } catch (error) {
      this.logger.error(`Scheduled backups could not start: ${(error as Error).message}`);
      this.schedule(CHECK_MS);
    }
  }

  async onModuleDestroy() {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  private schedule(delayMs: number) {
    if (this.closed) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(
      () => {
        this.timer = null;
        this.running = this.tick().finally(() => (this.running = null));
      },
      Math.max(0, delayMs),
    );
    this.timer.unref();
  }

  private async tick() {
    const everyMs = this.config.backup.everyMs!;
    let next = Math.min(CHECK_MS, everyMs);
    try {
      const now = new Date();
      if (await this.db.write((m) => claimScheduled(m, this.owner, now, LEASE_MS))) {
        await this.run(now);
      }
      const state = await this.db.manager.findOneBy(BackupState, { name: STATE_NAME });
      if (state?.nextRunAt) next = Math.min(next, Math.max(0, state.nextRunAt.getTime() - Date.now()));
    } catch (error) {
      this.logger.error(`Scheduled backup check failed: ${(error as Error).message}`);
    }
    this.schedule(next);
  }

  private async run(startedAt: Date) {
    const renew = setInterval(() => {
      void this.db.write((m) => renewLease(m, this.owner, new Date(Date.now() + LEASE_MS))).catch(() => undefined);
    }, LEASE_MS / 5);
    renew.unref();
    let outcome: RunOutcome;
    try {
      const result = await runBackup(this.config, { storage: this.storage });
      outcome = { startedAt, finishedAt: new Date(), ok: true, file: result.file, size: result.size, error: null };
      this.logger.log(
        `Backup written: ${result.file} (${result.size} bytes${result.removed.length ? `; removed ${result.removed.length} older` : ''})`,
      );
    } catch (error) {
      outcome = { startedAt, finishedAt: new Date(), ok: false, file: null, size: null, error: (error as Error).message };
      this.logger.error(`Scheduled backup failed: ${(error as Error).message}`);
    } finally {
      clearInterval(renew);
    }
    const nextRunAt = new Date(Math.max(startedAt.getTime() + this.config.backup.everyMs!, Date.now() + 1));
    await this.db.write((m) => recordOutcome(m, outcome, { owner: this.owner, nextRunAt }));
    this.events.emit('finished', outcome);
  }
}
