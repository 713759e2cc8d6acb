import type { BackupStatus as Status } from '@portfolio/contract/types';
import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';

import { json, mockApi } from '../../test/api-mock';
import { renderWithProviders } from '../../test/render';
import { BackupStatus, formatSize, formatWhen } from './backup-status';

const status = (overrides: Partial<Status>): Status => ({
  every: '24h',
  keep: 7,
  nextRunAt: null,
  lastRun: null,
  lastSuccess: null,
  ...overrides,
});
const ok = {
  startedAt: '2026-11-20T03:00:00.000Z',
  finishedAt: '2026-11-20T03:00:02.000Z',
  result: 'succeeded' as const,
  trigger: 'scheduled' as const,
  file: 'portfolio-backup-2026-11-20T03-00-00-000Z.tar.gz',
  sizeBytes: 5_400_000,
  error: null,
};

async function shown(answer: Status) {
  mockApi({ 'GET /api/admin/backups': answer });
  renderWithProviders(<BackupStatus />);
  return (await screen.findByText((_, el) => el?.classList.contains('ao-publishing-text') ?? false)).closest('.ao-backup-status')!;
}

describe('backup status', () => {
  afterEach(() => {
    document.documentElement.lang = 'en';
    document.documentElement.dir = 'ltr';
  });

  it('shows when the last backup ran and its size', async () => {
    const line = await shown(status({ lastRun: ok, lastSuccess: { finishedAt: ok.finishedAt, file: ok.file, sizeBytes: ok.sizeBytes } }));
    expect(line.textContent).toBe(`Backups: Last backup: ${formatWhen(ok.finishedAt, 'en')} (5.1\u00a0MB)`);
    expect(line.getAttribute('data-tone')).toBe('success');
  });

  it('says when the last one failed, why, and when the last good one was', async () => {
    const failed = {
      ...ok,
      startedAt: '2026-11-21T03:00:00.000Z',
      finishedAt: '2026-11-21T03:00:01.000Z',
      result: 'failed' as const,
      file: null,
      sizeBytes: null,
      error: 'ENOSPC: no space left on device',
    };
    const line = await shown(
      status({ lastRun: failed, lastSuccess: { finishedAt: ok.finishedAt, file: ok.file, sizeBytes: ok.sizeBytes } }),
    );
    expect(line.getAttribute('data-tone')).toBe('danger');
    expect(line.querySelector('p')!.textContent).toBe(
      `Backups: The last backup failed (${formatWhen(failed.finishedAt, 'en')}). Last good backup: ${formatWhen(ok.finishedAt, 'en')}`,
    );
    expect(screen.getByText('ENOSPC: no space left on device')).toBeTruthy();
  });

  it('before the first backup: when it will run, or that scheduled backups are off', async () => {
    const line = await shown(status({ nextRunAt: '2026-11-24T03:00:00.000Z' }));
    expect(line.textContent).toBe(`Backups: No backup yet. The first one is made ${formatWhen('2026-11-24T03:00:00.000Z', 'en')}.`);
  });

  it('scheduled backups off', async () => {
    const line = await shown(status({ every: null }));
    expect(line.textContent).toBe('Backups: No backup yet. Scheduled backups are off.');
  });

  it('in Arabic', async () => {
    document.documentElement.lang = 'ar';
    document.documentElement.dir = 'rtl';
    const line = await shown(status({ lastRun: ok, lastSuccess: { finishedAt: ok.finishedAt, file: ok.file, sizeBytes: ok.sizeBytes } }));
    expect(line.textContent).toBe(
      `النسخ الاحتياطية: آخر نسخة احتياطية: ${formatWhen(ok.finishedAt, 'ar')} (${formatSize(ok.sizeBytes, 'ar')})`,
    );
    expect(formatSize(ok.sizeBytes, 'ar')).toMatch(/^5\.1\u00a0\S/);
  });

  it('shows nothing when the API has no backups endpoint', async () => {
    mockApi({ 'GET /api/admin/backups': json(404, { statusCode: 404, message: 'Not found' }) });
    const { container } = renderWithProviders(<BackupStatus />);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(container.querySelector('.ao-backup-status')).toBeNull();
  });
});
