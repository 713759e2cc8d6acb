import path from 'node:path';

import type { BackupRun, BackupStatus } from '@portfolio/contract/types';
import { type EntityManager, LessThan, LessThanOrEqual } from 'typeorm';

import { BackupState } from './backup-state.entity.js';

export const STATE_NAME = 'backups';
const NEVER = new Date(0);

export interface RunOutcome {
  startedAt: Date;
  finishedAt: Date;
  ok: boolean;
  file: string | null;
  size: number | null;
  error: string | null;
}

/**
 * Creates the one state row if there is none (several processes may try at once); with a due time,
 * brings the next scheduled backup at least that close.
 */
export async function ensureState(m: EntityManager, nextRunAt: Date | null): Promise<BackupState> {
  const found = await m.findOneBy(BackupState, { name: STATE_NAME });
  if (found) {
    // Also when BACKUP_EVERY became shorter: the next backup is never further away than one interval.
    if (nextRunAt && (!found.nextRunAt || found.nextRunAt > nextRunAt)) {
      await m.update(BackupState, { name: STATE_NAME }, { nextRunAt });
      found.nextRunAt = nextRunAt;
    }
    return found;
  }
  try {
    await m.insert(BackupState, { name: STATE_NAME, leaseOwner: null, leaseUntil: NEVER, nextRunAt });
  } catch {
    // Another process created it first.
  }
  return (await m.findOneBy(BackupState, { name: STATE_NAME }))!;
}

/**
 * Takes the lease for a scheduled backup when one is due and no other process holds it: one
 * conditional UPDATE, so of several API replicas exactly one wins.
 */
export async function claimScheduled(m: EntityManager, owner: string, now: Date, leaseMs: number): Promise<boolean> {
  const result = await m.update(
    BackupState,
    { name: STATE_NAME, leaseUntil: LessThan(now), nextRunAt: LessThanOrEqual(now) },
    {
      leaseOwner: owner,
      leaseUntil: new Date(now.getTime() + leaseMs),
      lastStartedAt: now,
      lastFinishedAt: null,
      lastOk: null,
      lastTrigger: 'scheduled',
      lastFile: null,
      lastSize: null,
      lastError: null,
    },
  );
  return result.affected === 1;
}

export async function renewLease(m: EntityManager, owner: string, until: Date) {
  await m.update(BackupState, { name: STATE_NAME, leaseOwner: owner }, { leaseUntil: until });
}

/** Records the end of a scheduled run (and gives the lease back) or a whole manual one. */
export async function recordOutcome(m: EntityManager, outcome: RunOutcome, scheduled: { owner: string; nextRunAt: Date } | null) {
  const fields: Partial<BackupState> = {
    lastStartedAt: outcome.startedAt,
    lastFinishedAt: outcome.finishedAt,
    lastOk: outcome.ok,
    lastTrigger: scheduled ? 'scheduled' : 'manual',
    lastFile: outcome.file ? path.basename(outcome.file) : null,
    lastSize: outcome.size,
    lastError: outcome.error ? outcome.error.slice(0, 1000) : null,
    ...(outcome.ok
      ? {
          lastSuccessAt: outcome.finishedAt,
          lastSuccessFile: outcome.file ? path.basename(outcome.file) : null,
          lastSuccessSize: outcome.size,
        }
      : {}),
  };
  if (scheduled) {
    await m.update(
      BackupState,
      { name: STATE_NAME, leaseOwner: scheduled.owner },
      { ...fields, leaseOwner: null, leaseUntil: NEVER, nextRunAt: scheduled.nextRunAt },
    );
  } else {
    await ensureState(m, null);
    await m.update(BackupState, { name: STATE_NAME }, fields);
  }
}

/** The answer of GET /api/admin/backups. */
export function toStatus(state: BackupState | null, schedule: { every: string | null; keep: number }): BackupStatus {
  const iso = (d: Date | null) => (d ? d.toISOString() : null);
  let lastRun: BackupRun | null = null;
  if (state?.lastStartedAt) {
    lastRun = {
      startedAt: state.lastStartedAt.toISOString(),
      finishedAt: iso(state.lastFinishedAt),
      result: state.lastOk === null ? 'running' : state.lastOk ? 'succeeded' : 'failed',
      trigger: state.lastTrigger ?? 'manual',
      file: state.lastFile,
      sizeBytes: state.lastSize,
      error: state.lastError,
    };
  }
  return {
    every: schedule.every,
    keep: schedule.keep,
    nextRunAt: schedule.every ? iso(state?.nextRunAt ?? null) : null,
    lastRun,
    lastSuccess: state?.lastSuccessAt
      ? { finishedAt: state.lastSuccessAt.toISOString(), file: state.lastSuccessFile, sizeBytes: state.lastSuccessSize }
      : null,
  };
}
