import type { ImportJob, ImportMapping } from '@portfolio/contract/imports';
import { useCallback, useEffect, useRef, useState } from 'react';

import { ApiError } from '../../api/client';
import { importsApi } from '../../api/imports';
import { Badge } from '../../components/badge';
import { type Column, DataTable } from '../../components/data-table';
import { Field } from '../../components/field';
import { HiddenText } from '../../components/hidden-text';
import { useErrorHandler } from '../../hooks/use-error-handler';
import { useList } from '../../hooks/use-list';
import { useRowAction } from '../../hooks/use-row-action';
import { useToast } from '../../hooks/use-toast';
import { localeOf, useI18n } from '../../i18n/i18n';
import type { Message } from '../../i18n/message';
import { formatDate } from '../../lib/format';
import { ImportJobView } from './import-job-view';
import { doneCounts } from './import-report';

/** How often a running import is read again. */
export const IMPORT_POLL_MS = 1500;
const STATE_TONES = { ready: 'info', applying: 'warning', done: 'success', failed: 'danger' } as const;

const HINT_FORMATS = ['wordpress', 'ghost', 'substack', 'markdown'] as const;

/**
 * Where each blog makes its export, a line each. The platform's name and each file type ({xml} in the
 * words: '.xml') are isolated in <bdi>, so that in Arabic '.xml' keeps its dot in front and
 * 'Ghost:' its colon after it (Chromium did not honour the Unicode isolate characters here).
 */
function ImportFileHint() {
  const { t } = useI18n();
  return (
    <>
      {HINT_FORMATS.map((format) => (
        <span key={format} className="ao-import-hint-line">
          <bdi>{t(`import.format.${format}`)}</bdi>:{' '}
          {t(`import.fileHint.${format}`)
            .split(/(\{\w+\})/)
            .map((part, index) =>
              /^\{\w+\}$/.test(part) ? (
                <bdi key={index} dir="ltr">
                  .{part.slice(1, -1)}
                </bdi>
              ) : (
                part
              ),
            )}
        </span>
      ))}
    </>
  );
}

/**
 * The export file: chosen, then uploaded for the dry run. The client is fetch, which reports no upload
 * progress, so a big file shows its name and size while it goes.
 */
function ImportUpload({ onUploaded }: { onUploaded: (job: ImportJob) => void }) {
  const { t, lang } = useI18n();
  const handleError = useErrorHandler();
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [uploading, setUploading] = useState(false);
  const [problem, setProblem] = useState<Message | undefined>();
  // The button pressed was disabled meanwhile (and lost focus): once enabled again, focus goes to the
  // field with its error, not to the page behind.
  const [refused, setRefused] = useState(0);
  useEffect(() => {
    if (refused) input.current?.focus();
  }, [refused]);
  const megabytes = (bytes: number) =>
    new Intl.NumberFormat(localeOf(lang), { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(bytes / 1024 / 1024);

  const upload = async () => {
    if (!file) return;
    setUploading(true);
    setProblem(undefined);
    try {
      const job = await importsApi.upload(file);
      setFile(null);
      if (input.current) input.current.value = '';
      onUploaded(job);
    } catch (error) {
      // A bad file: the API's one sentence stays beside the field, the toast says it too.
      if (error instanceof ApiError && error.serverMessage) setProblem(error.serverMessage);
      handleError(error, { title: t('import.uploadFailed') });
      setRefused((n) => n + 1);
    } finally {
      setUploading(false);
    }
  };

  return (
    <form
      className="ao-import-upload"
      onSubmit={(event) => {
        event.preventDefault();
        void upload();
      }}
    >
      <Field label={t('import.file')} hint={<ImportFileHint />} error={problem}>
        {(control) => (
          <input
            {...control}
            ref={input}
            type="file"
            className="ao-input"
            accept=".xml,.json,.zip,.md,.markdown"
            disabled={uploading}
            onChange={(event) => {
              setFile(event.target.files?.[0] ?? null);
              setProblem(undefined);
            }}
          />
        )}
      </Field>
      <div className="ao-import-upload-actions">
        <button type="submit" className="ao-button ao-button-primary" disabled={!file || uploading} aria-busy={uploading}>
          {uploading && file ? t('import.uploading', { name: file.name, size: megabytes(file.size) }) : t('import.upload')}
        </button>
      </div>
    </form>
  );
}

function usePastColumns(): Column<ImportJob>[] {
  const { t, lang } = useI18n();
  return [
    { header: t('import.col.file'), primary: true, render: (job) => <span dir="auto">{job.fileName}</span> },
    { header: t('import.col.format'), render: (job) => t(`import.format.${job.format}`) },
    { header: t('import.col.uploaded'), render: (job) => formatDate(job.createdAt, lang) },
    { header: t('import.col.state'), render: (job) => <Badge tone={STATE_TONES[job.state]}>{t(`import.state.${job.state}`)}</Badge> },
  ];
}

interface PastImportsProps {
  jobs: ImportJob[];
  isLoading: boolean;
  busyId: number | null;
  onOpen: (job: ImportJob) => void;
  onDelete: (job: ImportJob) => void;
}

/** Every import, newest first: open one (a running one too), or delete it (its file; not the items it imported). */
function PastImports({ jobs, isLoading, busyId, onOpen, onDelete }: PastImportsProps) {
  const { t } = useI18n();
  const columns = usePastColumns();
  return (
    <DataTable
      caption={t('import.past')}
      items={jobs}
      columns={columns}
      isLoading={isLoading}
      emptyText={t('import.pastEmpty')}
      actions={(listed) => (
        <div className="ao-row-actions">
          <button type="button" className="ao-button ao-button-secondary ao-button-small" onClick={() => onOpen(listed)}>
            {t('import.open')}
            <HiddenText>{listed.fileName}</HiddenText>
          </button>
          {listed.state !== 'applying' && (
            <button
              type="button"
              className="ao-button ao-button-danger ao-button-small"
              disabled={busyId === listed.id}
              onClick={() => onDelete(listed)}
            >
              {t('import.delete')}
              <HiddenText>{listed.fileName}</HiddenText>
            </button>
          )}
        </div>
      )}
    />
  );
}

/** Polls the open import while it applies; says when it ends. */
function useImportPolling(job: ImportJob | null, setJob: (job: ImportJob) => void, onEnded: (job: ImportJob) => void, pollMs: number) {
  const { t } = useI18n();
  const { toast } = useToast();
  const handleError = useErrorHandler();
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (!job || job.state !== 'applying' || failed) return;
    let cancelled = false;
    const timer = setTimeout(() => {
      importsApi.get(job.id).then(
        (next) => {
          if (cancelled) return;
          setJob(next);
          if (next.state === 'done') toast({ title: t('import.done'), description: t('import.doneHint') });
          if (next.state === 'failed') toast({ variant: 'destructive', title: t('import.failed'), detail: next.error ?? undefined });
          if (next.state !== 'applying') onEnded(next);
        },
        (error: unknown) => {
          if (cancelled) return;
          setFailed(true);
          handleError(error, { title: t('import.progressFailed') });
        },
      );
    }, pollMs);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [job, failed, pollMs, setJob, onEnded, toast, handleError, t]);
  return { failed, retry: () => setFailed(false), reset: () => setFailed(false) };
}

/** The job's edits: its mapping (the report comes back recomputed) and applying it. */
function useImportActions(job: ImportJob | null, setJob: (job: ImportJob) => void, reload: () => Promise<void>, onApplied: () => void) {
  const { t } = useI18n();
  const handleError = useErrorHandler();
  // The boxes show the choice at once; the report follows when the API has planned again (or they go back).
  const [pendingMapping, setPendingMapping] = useState<ImportMapping | null>(null);
  const [applying, setApplying] = useState(false);
  const changeMapping = async (mapping: ImportMapping) => {
    if (!job) return;
    setPendingMapping(mapping);
    try {
      setJob(await importsApi.setMapping(job.id, mapping));
    } catch (error) {
      handleError(error, { title: t('import.mappingFailed') });
    } finally {
      setPendingMapping(null);
    }
  };
  const mappingBusy = pendingMapping !== null;
  const apply = async () => {
    if (!job) return;
    setApplying(true);
    try {
      setJob(await importsApi.apply(job.id));
      onApplied();
      void reload();
    } catch (error) {
      handleError(error, { title: t('import.applyFailed') });
    } finally {
      setApplying(false);
    }
  };
  return { mappingBusy, pendingMapping, applying, changeMapping, apply };
}

/**
 * After "Upload and check" and "Import N items" the button pressed is gone or disabled: focus moves
 * to the report's heading (not to the page behind) and the live region says what is there.
 */
function useReportFocus() {
  const heading = useRef<HTMLHeadingElement>(null);
  const [announcement, setAnnouncement] = useState('');
  const [focusCount, setFocusCount] = useState(0);
  useEffect(() => {
    if (focusCount) heading.current?.focus();
  }, [focusCount]);
  const showReport = (message: string) => {
    setAnnouncement(message);
    setFocusCount((n) => n + 1);
  };
  return { heading, announcement, setAnnouncement, showReport };
}

/** 'Import': another blog's export → its dry run and mapping → applied with progress; past imports to come back to. */
export function ImportScreen({ pollMs = IMPORT_POLL_MS }: { pollMs?: number }) {
  const { t } = useI18n();
  const handleError = useErrorHandler();
  const load = useCallback(() => importsApi.list(), []);
  const { items: jobs, isLoading, reload } = useList(load, (error) => handleError(error, { title: t('import.loadFailed') }));
  const [job, setJob] = useState<ImportJob | null>(null);
  const { heading, announcement, setAnnouncement, showReport } = useReportFocus();
  const ended = useCallback(
    (finished: ImportJob) => {
      const counts = doneCounts(finished);
      setAnnouncement(
        finished.state === 'done' ? t('import.doneSummary', { created: counts.create, updated: counts.update }) : t('import.failed'),
      );
      void reload();
    },
    [reload, setAnnouncement, t],
  );
  const polling = useImportPolling(job, setJob, ended, pollMs);
  const actions = useImportActions(job, setJob, reload, () => showReport(t('import.applyStarted')));
  const { busyId, run } = useRowAction(reload);

  // Coming back while an import runs: it opens by itself.
  const cameBack = useRef(false);
  useEffect(() => {
    if (isLoading || cameBack.current) return;
    cameBack.current = true;
    const running = jobs.find((listed) => listed.state === 'applying');
    if (running) setJob(running);
  }, [isLoading, jobs]);

  const open = (listed: ImportJob) => {
    polling.reset();
    setJob(listed);
  };
  const remove = (listed: ImportJob) =>
    void run(
      listed.id,
      () => importsApi.remove(listed.id).then(() => setJob((current) => (current?.id === listed.id ? null : current))),
      t('import.deleted'),
      t('import.deleteFailed'),
    );

  return (
    <section className="ao-screen ao-import" aria-labelledby="ao-screen-heading">
      <div className="ao-screen-header">
        <h3 id="ao-screen-heading" className="ao-screen-title">
          {t('import.heading')}
        </h3>
      </div>
      <p className="ao-intro">{t('import.intro')}</p>
      <ImportUpload
        onUploaded={(created) => {
          open(created);
          showReport(t('import.reportReady', { file: `\u2068${created.fileName}\u2069` }));
          void reload();
        }}
      />
      {job && (
        <ImportJobView
          key={job.id}
          job={job}
          headingRef={heading}
          mappingBusy={actions.mappingBusy}
          pendingMapping={actions.pendingMapping}
          applying={actions.applying}
          pollFailed={polling.failed}
          onMappingChange={(mapping) => void actions.changeMapping(mapping)}
          onApply={() => void actions.apply()}
          onRetryPoll={polling.retry}
        />
      )}
      <p role="status" className="ao-sr-only">
        {announcement}
      </p>
      <h4 className="ao-import-past-title">{t('import.past')}</h4>
      <PastImports jobs={jobs} isLoading={isLoading} busyId={busyId} onOpen={open} onDelete={remove} />
    </section>
  );
}
