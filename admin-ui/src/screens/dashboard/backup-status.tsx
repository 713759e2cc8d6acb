import type { Lang } from '@portfolio/contract/translations';
import type { BackupStatus as Status } from '@portfolio/contract/types';
import { useEffect, useState } from 'react';

import { backupsApi } from '../../api/backups';
import { localeOf as locale, useI18n } from '../../i18n/i18n';

export function formatWhen(iso: string, lang: Lang): string {
  return new Intl.DateTimeFormat(locale(lang), { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
}

export function formatSize(bytes: number, lang: Lang): string {
  const [value, unit] =
    bytes >= 1024 * 1024 * 1024
      ? [bytes / 1024 ** 3, 'gigabyte']
      : bytes >= 1024 * 1024
        ? [bytes / 1024 ** 2, 'megabyte']
        : [Math.max(bytes / 1024, 0.1), 'kilobyte'];
  // One unbreakable piece: a line never ends between the number and its unit.
  return new Intl.NumberFormat(locale(lang), { style: 'unit', unit, maximumFractionDigits: 1 }).format(value).replace(/ /g, '\u00a0');
}

/** One line on the dashboard: when the last backup ran, or that it failed (with why). */
export function BackupStatus() {
  const { t, lang } = useI18n();
  const [status, setStatus] = useState<Status | null>(null);

  useEffect(() => {
    let live = true;
    backupsApi.status().then(
      (next) => live && setStatus(next),
      () => undefined, // A convenience: a failed check must not disturb the work.
    );
    return () => {
      live = false;
    };
  }, []);

  if (!status) return null;
  const { lastRun, lastSuccess } = status;
  let text: string;
  let tone: 'neutral' | 'success' | 'busy' | 'danger' = 'neutral';
  let detail: string | null = null;
  if (lastRun?.result === 'failed') {
    tone = 'danger';
    text = `${t('backups.failed', { when: formatWhen(lastRun.finishedAt ?? lastRun.startedAt, lang) })}. ${lastSuccess ? t('backups.lastGood', { when: formatWhen(lastSuccess.finishedAt, lang) }) : t('backups.neverGood')}`;
    detail = lastRun.error;
  } else if (lastRun?.result === 'running') {
    [text, tone] = [t('backups.running'), 'busy'];
  } else if (lastSuccess) {
    tone = 'success';
    text = t('backups.last', {
      when: formatWhen(lastSuccess.finishedAt, lang),
      size: lastSuccess.sizeBytes === null ? '?' : formatSize(lastSuccess.sizeBytes, lang),
    });
  } else if (status.nextRunAt) {
    text = t('backups.firstAt', { when: formatWhen(status.nextRunAt, lang) });
  } else {
    text = t(status.every ? 'backups.none' : 'backups.off');
  }

  return (
    <div className="ao-publishing ao-backup-status" data-tone={tone}>
      <p className="ao-publishing-text">
        <span className="ao-publishing-dot" aria-hidden="true" />
        <span className="ao-sr-only">{t('backups.label')}: </span>
        {text}
      </p>
      {detail && (
        <details className="ao-publishing-details">
          <summary>{t('backups.details')}</summary>
          <pre dir="ltr">{detail}</pre>
        </details>
      )}
    </div>
  );
}
