import type { ImportJob, ImportMapping } from '@portfolio/contract/imports';
import type { Ref } from 'react';

import { useI18n } from '../../i18n/i18n';
import { formatDate } from '../../lib/format';
import { ImportItems, ImportMappingFields, ImportSummary, ImportWarnings } from './import-report';

/** Items and images done of their totals, as one bar and two lines; announced as they change. */
function ImportProgress({ job }: { job: ImportJob }) {
  const { t } = useI18n();
  const { images } = job.progress;
  // Until the API has counted them, the items to import are the report's (to create and to update).
  const planned = job.report.counts.create + job.report.counts.update;
  const items = job.progress.items.total ? job.progress.items : { done: job.progress.items.done, total: planned };
  const total = items.total + images.total;
  return (
    <div className="ao-import-progress">
      <progress aria-label={t('import.progress')} max={Math.max(total, 1)} value={items.done + images.done} />
      <p role="status">
        <span>{t('import.progressItems', { done: items.done, total: items.total })}</span>
        <span>{t('import.progressImages', { done: images.done, total: images.total })}</span>
      </p>
    </div>
  );
}

interface ImportJobViewProps {
  job: ImportJob;
  /** The report's heading, where focus goes once the report is there (the button pressed is gone). */
  headingRef?: Ref<HTMLHeadingElement>;
  mappingBusy: boolean;
  /** The mapping being saved, shown in the boxes meanwhile. */
  pendingMapping: ImportMapping | null;
  applying: boolean;
  pollFailed: boolean;
  onMappingChange: (mapping: ImportMapping) => void;
  onApply: () => void;
  onRetryPoll: () => void;
}

/** One import: the dry run and its mapping (ready), progress (applying), the outcome (done, failed). */
export function ImportJobView({
  job,
  headingRef,
  mappingBusy,
  pendingMapping,
  applying,
  pollFailed,
  onMappingChange,
  onApply,
  onRetryPoll,
}: ImportJobViewProps) {
  const { t, lang } = useI18n();
  const { report } = job;
  const toImport = report.counts.create + report.counts.update;
  return (
    <section className="ao-import-job" aria-labelledby="ao-import-job-heading">
      <h4 id="ao-import-job-heading" className="ao-import-job-title" ref={headingRef} tabIndex={-1}>
        {job.state === 'done' ? t('import.done') : job.state === 'failed' ? t('import.failed') : t('import.report')}
      </h4>
      <p className="ao-hint">
        {/* The file name isolated (FSI … PDI): a Latin name inside an Arabic sentence keeps its own order. */}
        {t('import.reportOf', {
          file: `\u2068${job.fileName}\u2069`,
          format: t(`import.format.${job.format}`),
          date: formatDate(job.createdAt, lang),
        })}
      </p>
      {job.state === 'applying' && (
        <>
          <p className="ao-intro">{t('import.applying')}</p>
          <ImportProgress job={job} />
          <p className="ao-hint">{t('import.leaveHint')}</p>
          {pollFailed && (
            <div className="ao-settings-state" role="alert">
              <p>{t('import.progressFailed')}</p>
              <button type="button" className="ao-button ao-button-secondary ao-button-small" onClick={onRetryPoll}>
                {t('common.retry')}
              </button>
            </div>
          )}
        </>
      )}
      {job.state === 'done' && <p className="ao-alert ao-alert-success">{t('import.doneHint')}</p>}
      {job.state === 'failed' && job.error && (
        <p className="ao-alert ao-alert-error" role="alert" dir="auto">
          {job.error}
        </p>
      )}
      <ImportSummary job={job} />
      {job.state !== 'ready' && (
        <ImportWarnings heading={t('import.applyWarnings', { count: job.applyWarnings.length })} warnings={job.applyWarnings} />
      )}
      {job.state === 'ready' && (
        <>
          <ImportMappingFields job={job} mapping={pendingMapping ?? job.mapping} busy={mappingBusy} onChange={onMappingChange} />
          <div className="ao-import-apply">
            {toImport > 0 ? (
              <button
                type="button"
                className="ao-button ao-button-primary"
                disabled={mappingBusy || applying}
                aria-busy={applying}
                onClick={onApply}
              >
                {toImport === 1 ? t('import.applyOne') : t('import.apply', { count: toImport })}
              </button>
            ) : (
              <p className="ao-note">{t('import.nothingToApply')}</p>
            )}
          </div>
        </>
      )}
      <ImportWarnings heading={t('import.warnings', { count: report.warnings.length })} warnings={report.warnings} />
      <ImportItems items={report.items} />
    </section>
  );
}
