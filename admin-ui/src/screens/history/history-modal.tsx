import type { ContentKind, Revision, RevisionSummary } from '@portfolio/contract/types';
import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';

import { revisionsApi } from '../../api/revisions';
import { SelectField } from '../../components/field';
import { Modal } from '../../components/modal';
import { useErrorHandler } from '../../hooks/use-error-handler';
import { usePublishing } from '../../hooks/use-publishing';
import { useToast } from '../../hooks/use-toast';
import { useI18n } from '../../i18n/i18n';
import { diffText } from '../../lib/text-diff';
import { flattenTranslations, formatDateTime, historyFieldLabel, historyFields, valueText } from './history-format';

const PAGE = 50;

interface HistoryModalProps {
  kind: ContentKind;
  id: number;
  /** The item's title, for the dialog's title. */
  name: string;
  onClose: () => void;
  /** After a version was restored (saved anew): the screen reloads its list. */
  onRestored?: () => void;
}

/** An item's versions, a page at a time, and the two compared ('to' the chosen one, 'from' the one before it), with their snapshots. */
function useRevisions(kind: ContentKind, id: number) {
  const { t } = useI18n();
  const handleError = useErrorHandler();
  const [revisions, setRevisions] = useState<RevisionSummary[]>([]);
  const [total, setTotal] = useState(0);
  const [exists, setExists] = useState(true);
  const [isLoading, setIsLoading] = useState(true);
  const [to, setTo] = useState<number | null>(null);
  const [from, setFrom] = useState<number | null>(null);
  const [snapshots, setSnapshots] = useState<Record<number, Revision>>({});
  // The latest handler and words without reloading when they change (the session settles after the first render).
  const handleErrorRef = useRef(handleError);
  handleErrorRef.current = handleError;
  const tRef = useRef(t);
  tRef.current = t;

  const load = useCallback(
    async (offset = 0) => {
      setIsLoading(true);
      try {
        const page = await revisionsApi.list(kind, id, { limit: PAGE, offset });
        setTotal(page.total);
        setExists(page.exists);
        setRevisions((previous) => (offset ? [...previous, ...page.revisions] : page.revisions));
        if (!offset) {
          setTo(page.revisions[0]?.revision ?? null);
          setFrom(page.revisions[1]?.revision ?? null);
        }
      } catch (error) {
        handleErrorRef.current(error, { title: tRef.current('history.loadFailed') });
      } finally {
        setIsLoading(false);
      }
    },
    [kind, id],
  );

  useEffect(() => {
    void load();
  }, [load]);

  // The snapshots of the two versions compared, fetched once each.
  useEffect(() => {
    for (const revision of [from, to]) {
      if (revision === null || snapshots[revision]) continue;
      revisionsApi.get(kind, id, revision).then(
        (full) => setSnapshots((previous) => ({ ...previous, [revision]: full })),
        (error) => handleErrorRef.current(error, { title: tRef.current('history.loadFailed') }),
      );
    }
  }, [from, to, kind, id, snapshots]);

  const select = (revision: number) => {
    setTo(revision);
    const older = revisions.find((r) => r.revision < revision);
    setFrom(older?.revision ?? null);
  };
  /** After a restore: the list and the snapshots anew. */
  const reload = async () => {
    setSnapshots({});
    await load();
  };

  return { revisions, total, exists, isLoading, to, from, setFrom, select, snapshots, more: () => void load(revisions.length), reload };
}
type Revisions = ReturnType<typeof useRevisions>;

/** 'Restore this version' after its confirmation: saved anew, then the toast, the publishing status and the lists. */
function useRestore(kind: ContentKind, id: number, afterRestore: () => Promise<void>) {
  const { t } = useI18n();
  const { toast } = useToast();
  const handleError = useErrorHandler();
  const publishing = usePublishing();
  const [confirming, setConfirming] = useState(false);
  const [restoring, setRestoring] = useState(false);
  const restore = async (revision: number) => {
    setRestoring(true);
    try {
      await revisionsApi.restore(kind, id, revision);
      toast({ title: t('history.restored', { number: revision }) });
      publishing.notifyChange();
      setConfirming(false);
      await afterRestore();
    } catch (error) {
      handleError(error, { title: t('history.restoreFailed') });
    } finally {
      setRestoring(false);
    }
  };
  return { confirming, setConfirming, restoring, restore };
}

/** A version's words: 'Version 3', what was done ('Restored from version 1'), and when. */
function useVersionWords() {
  const { t, lang } = useI18n();
  const actionText = (r: RevisionSummary) => t(`history.action.${r.action}`, { number: r.restoredFrom ?? '' });
  const versionLabel = (r: RevisionSummary) =>
    `${t('history.version', { number: r.revision })} · ${actionText(r)} · ${formatDateTime(r.createdAt, lang)}`;
  return { actionText, versionLabel };
}

/** The versions, newest first: who saved each, when, what was done and which fields changed; a click compares it. */
function VersionList({ history }: { history: Revisions }) {
  const { t, lang } = useI18n();
  const { actionText } = useVersionWords();
  const { revisions, total, exists, isLoading, to, select, more } = history;
  const newest = revisions[0]?.revision;
  const changedFields = (r: RevisionSummary) =>
    r.changedFields.map((field) => historyFieldLabel(field, t)).join(t('history.fieldSeparator'));
  const headingId = useId();
  return (
    <section className="ao-history-versions" aria-labelledby={headingId}>
      <h3 id={headingId} className="ao-history-heading">
        {t('history.versions')}
      </h3>
      <ol className="ao-history-list">
        {revisions.map((r) => (
          <li key={r.revision}>
            <button type="button" className="ao-history-entry" aria-pressed={r.revision === to} onClick={() => select(r.revision)}>
              <span className="ao-history-entry-title">
                {t('history.version', { number: r.revision })}
                {r.revision === newest && exists && <span className="ao-badge ao-badge-success">{t('history.current')}</span>}
              </span>
              <span className="ao-history-entry-action">{actionText(r)}</span>
              <span className="ao-secondary-text">
                <span dir="auto">{t('history.by', { name: r.username ?? t('history.unknownUser') })}</span>
                {' · '}
                <time dateTime={r.createdAt}>{formatDateTime(r.createdAt, lang)}</time>
              </span>
              {r.changedFields.length > 0 && r.action !== 'create' && (
                <span className="ao-secondary-text">{t('history.changed', { fields: changedFields(r) })}</span>
              )}
            </button>
          </li>
        ))}
      </ol>
      {revisions.length < total && (
        <button type="button" className="ao-button ao-button-secondary ao-button-small" disabled={isLoading} onClick={more}>
          {t('history.more')}
        </button>
      )}
    </section>
  );
}

/** The two versions compared (From, To) and their differences; 'Restore this version' for the chosen one unless it is current. */
interface CompareVersionsProps {
  history: Revisions;
  restoring: boolean;
  onRestore: () => void;
}

function CompareVersions({ history, restoring, onRestore }: CompareVersionsProps) {
  const { t } = useI18n();
  const { versionLabel } = useVersionWords();
  const { revisions, exists, to, from, setFrom, select, snapshots } = history;
  const options = revisions.map((r) => ({ value: String(r.revision), label: versionLabel(r) }));
  const headingId = useId();
  return (
    <section className="ao-history-compare" aria-labelledby={headingId}>
      <h3 id={headingId} className="ao-history-heading">
        {t('history.compare')}
      </h3>
      <div className="ao-history-pickers">
        <SelectField
          label={t('history.from')}
          value={from === null ? '' : String(from)}
          onChange={(value) => setFrom(value ? Number(value) : null)}
          options={options.filter((o) => to === null || Number(o.value) < to)}
          placeholder="—"
        />
        <SelectField
          label={t('history.to')}
          value={to === null ? '' : String(to)}
          onChange={(value) => select(Number(value))}
          options={options}
        />
      </div>
      <Comparison before={from === null ? null : snapshots[from]} after={to === null ? undefined : snapshots[to]} single={from === null} />
      {to !== null && (
        <div className="ao-history-restore">
          <button
            type="button"
            className="ao-button ao-button-primary"
            disabled={restoring || (to === revisions[0]?.revision && exists)}
            onClick={onRestore}
          >
            {t('history.restore')}
          </button>
        </div>
      )}
    </section>
  );
}

/** 'Restore version n?' with Cancel (focused) and Restore. */
interface RestoreConfirmProps {
  revision: number;
  restoring: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}

function RestoreConfirm({ revision, restoring, onCancel, onConfirm }: RestoreConfirmProps) {
  const { t } = useI18n();
  return (
    <Modal title={t('history.restoreTitle', { number: revision })} onClose={onCancel} size="small">
      <p>{t('history.restoreConfirm', { number: revision })}</p>
      <div className="ao-form-footer">
        <button type="button" className="ao-button ao-button-secondary" data-autofocus onClick={onCancel}>
          {t('common.cancel')}
        </button>
        <button type="button" className="ao-button ao-button-primary" disabled={restoring} onClick={onConfirm}>
          {restoring ? t('history.restoring') : t('history.restoreButton', { number: revision })}
        </button>
      </div>
    </Modal>
  );
}

/**
 * An item's saved versions: who saved each, when and what changed; two versions compared field by
 * field (texts word by word); 'Restore this version' after a confirmation.
 */
export function HistoryModal({ kind, id, name, onClose, onRestored }: HistoryModalProps) {
  const { t } = useI18n();
  const history = useRevisions(kind, id);
  const { confirming, setConfirming, restoring, restore } = useRestore(kind, id, async () => {
    onRestored?.();
    await history.reload();
  });
  const { revisions, isLoading, exists, to } = history;

  return (
    <Modal title={t('history.title', { name })} onClose={onClose} size="large">
      {!exists && <p className="ao-note">{t('history.gone')}</p>}
      {isLoading && !revisions.length ? (
        <p role="status" className="ao-loading">
          {t('common.loading')}
        </p>
      ) : !revisions.length ? (
        <p role="status" className="ao-empty">
          {t('history.empty')}
        </p>
      ) : (
        <div className="ao-history">
          <VersionList history={history} />
          <CompareVersions history={history} restoring={restoring} onRestore={() => setConfirming(true)} />
        </div>
      )}
      {confirming && to !== null && (
        <RestoreConfirm revision={to} restoring={restoring} onCancel={() => setConfirming(false)} onConfirm={() => void restore(to)} />
      )}
    </Modal>
  );
}

interface ComparisonProps {
  /** The older version (null: none chosen, the newer one is shown alone); undefined while loading. */
  before: Revision | null | undefined;
  after: Revision | undefined;
  single: boolean;
}

/** The fields that differ between two versions: old and new side by side, texts with their changed words marked. */
function Comparison({ before, after, single }: ComparisonProps) {
  const { t } = useI18n();
  const rows = useMemo(() => {
    if (!after || before === undefined) return null;
    const old = before ? flattenTranslations(before.snapshot as unknown as Record<string, unknown>) : undefined;
    const neu = flattenTranslations(after.snapshot as unknown as Record<string, unknown>);
    return historyFields(old, neu)
      .filter((field) => !old || JSON.stringify(old[field] ?? null) !== JSON.stringify(neu[field] ?? null))
      .map((field) => ({ field, before: old ? valueText(old[field], t) : null, after: valueText(neu[field], t) }));
  }, [before, after, t]);

  if (!rows) {
    return (
      <p role="status" className="ao-loading">
        {t('common.loading')}
      </p>
    );
  }
  return (
    <div className="ao-diff" aria-live="polite">
      {single && <p className="ao-note">{t('history.onlyOne')}</p>}
      {!rows.length && <p className="ao-empty">{t('history.noDifferences')}</p>}
      {rows.map((row) => (
        <section key={row.field} className="ao-diff-field" aria-label={historyFieldLabel(row.field, t)}>
          <h4 className="ao-diff-label">{historyFieldLabel(row.field, t)}</h4>
          {row.before !== null && (row.before.long || row.after.long) ? (
            <p className="ao-diff-text" dir="auto">
              {diffText(row.before.text, row.after.text).map((part, index) =>
                part.type === 'same' ? (
                  <span key={index}>{part.text}</span>
                ) : part.type === 'removed' ? (
                  <del key={index} className="ao-diff-removed">
                    <span className="ao-sr-only">{t('history.removedText')}: </span>
                    {part.text}
                  </del>
                ) : (
                  <ins key={index} className="ao-diff-added">
                    <span className="ao-sr-only">{t('history.addedText')}: </span>
                    {part.text}
                  </ins>
                ),
              )}
            </p>
          ) : (
            <dl className="ao-diff-values">
              {row.before !== null && (
                <div className="ao-diff-before">
                  <dt>{t('history.before')}</dt>
                  <dd dir="auto">{row.before.empty ? <em>{t('history.emptyValue')}</em> : row.before.text}</dd>
                </div>
              )}
              <div className="ao-diff-after">
                <dt>{t('history.after')}</dt>
                <dd dir="auto">{row.after.empty ? <em>{t('history.emptyValue')}</em> : row.after.text}</dd>
              </div>
            </dl>
          )}
        </section>
      ))}
    </div>
  );
}
