import {
  IMPORT_ACTIONS,
  type ImportAction,
  type ImportJob,
  type ImportMapping,
  type ImportPlanItem,
  type ImportWarning,
} from '@portfolio/contract/imports';
import { publicPages } from '@portfolio/contract/kinds';
import { pathFor } from '@portfolio/contract/languages';
import { useId } from 'react';

import { Badge } from '../../components/badge';
import { type Column, DataTable } from '../../components/data-table';
import { CheckboxField } from '../../components/field';
import { nativeName, useI18n } from '../../i18n/i18n';
import { formatDate } from '../../lib/format';

const ACTION_TONES = { create: 'success', update: 'info', unchanged: 'neutral', skip: 'warning' } as const;

/** The dry run's four numbers (to create, to update, unchanged, skipped), or once applied what was done (created, updated…). */
export function ImportCounts({ counts, done = false }: { counts: Record<ImportAction, number>; done?: boolean }) {
  const { t } = useI18n();
  return (
    <dl className="ao-import-counts">
      {IMPORT_ACTIONS.map((action) => (
        <div key={action} className={`ao-import-count ao-import-count-${action}`}>
          <dt>{done ? t(`import.countDone.${action}`) : t(`import.count.${action}`)}</dt>
          <dd>{counts[action]}</dd>
        </div>
      ))}
    </dl>
  );
}

/** Every warning with the title of the item it is about. */
export function ImportWarnings({ heading, warnings }: { heading: string; warnings: ImportWarning[] }) {
  const id = useId();
  if (!warnings.length) return null;
  return (
    <section className="ao-import-warnings" aria-labelledby={id}>
      <h4 id={id}>{heading}</h4>
      <ul>
        {warnings.map((warning, index) => (
          <li key={index}>
            <strong dir="auto">{warning.title}</strong>: <span dir="auto">{warning.message}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** What an apply did: created and updated from its results, the rest as planned. */
export function doneCounts(job: ImportJob): Record<ImportAction, number> {
  const saved = (action: 'create' | 'update') => job.results.filter((result) => result.action === action).length;
  return { create: saved('create'), update: saved('update'), unchanged: job.report.counts.unchanged, skip: job.report.counts.skip };
}

/**
 * Each item the apply saved, linked to its page on the site (in a new tab, so the overlay stays
 * open) when it is published; a draft or a scheduled item is not on the site, and says so.
 */
export function ImportResults({ job }: { job: ImportJob }) {
  const { t, lang } = useI18n();
  const id = useId();
  if (!job.results.length) return null;
  const statusOf = new Map(job.report.items.map((item) => [item.sourceId, item.status]));
  return (
    <section className="ao-import-results" aria-labelledby={id}>
      <h4 id={id}>{t('import.results', { count: job.results.length })}</h4>
      <ul>
        {job.results.map((result) => {
          const status = statusOf.get(result.sourceId) ?? 'published';
          const what = t(`import.result.${result.kind}.${result.action}`);
          return (
            <li key={`${result.kind}-${result.id}`}>
              {status === 'published' ? (
                <a href={pathFor(lang, publicPages(result.kind, result)[0])} target="_blank" rel="noopener">
                  <bdi>{result.title}</bdi>
                </a>
              ) : (
                <bdi>{result.title}</bdi>
              )}{' '}
              <span className="ao-hint">
                ({what}
                {status !== 'published' && `${t('common.listSeparator')}${t(`import.result.${status}`)}`})
              </span>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

/** The four numbers: what the import would do, or once it has saved items what it did ("Created 3"), with links to them. */
export function ImportSummary({ job }: { job: ImportJob }) {
  if (job.state === 'done' || (job.state === 'failed' && job.results.length))
    return (
      <>
        <ImportCounts counts={doneCounts(job)} done />
        <ImportResults job={job} />
      </>
    );
  return <ImportCounts counts={job.report.counts} />;
}

type Row = ImportPlanItem & { id: number };

function useItemColumns(): Column<Row>[] {
  const { t, lang } = useI18n();
  return [
    { header: t('import.col.title'), primary: true, render: (item) => <span dir="auto">{item.title}</span> },
    { header: t('import.col.kind'), render: (item) => (item.kind ? t(`import.kind.${item.kind}`) : t('import.kind.none')) },
    { header: t('import.col.language'), render: (item) => nativeName(item.language) },
    {
      header: t('import.col.translations'),
      render: (item) => (item.translations.length ? item.translations.map(nativeName).join(t('common.listSeparator')) : t('import.none')),
    },
    { header: t('import.col.status'), render: (item) => t(`import.status.${item.status}`) },
    { header: t('import.col.date'), render: (item) => formatDate(item.date, lang) },
    { header: t('import.col.images'), render: (item) => String(item.images) },
    {
      header: t('import.col.action'),
      render: (item) => <Badge tone={ACTION_TONES[item.action]}>{t(`import.action.${item.action}`)}</Badge>,
    },
    { header: t('import.col.reason'), render: (item) => (item.reason ? <span dir="auto">{item.reason}</span> : '') },
  ];
}

/** The items of the file as the dry run plans them. */
export function ImportItems({ items }: { items: ImportPlanItem[] }) {
  const { t } = useI18n();
  const columns = useItemColumns();
  return (
    <div className="ao-import-items">
      <h4>{t('import.items')}</h4>
      <DataTable
        caption={t('import.items')}
        items={items.map((item, index) => ({ ...item, id: index }))}
        columns={columns}
        isLoading={false}
        emptyText={t('import.none')}
      />
    </div>
  );
}

interface MappingProps {
  job: ImportJob;
  /** What the boxes show: the job's mapping, or the one being saved. */
  mapping: ImportMapping;
  busy: boolean;
  onChange: (mapping: ImportMapping) => void;
}

/** Which of the file's categories and tags make a post News (checkbox lists, each with how many items carry it). */
export function ImportMappingFields({ job, mapping, busy, onChange }: MappingProps) {
  const { t } = useI18n();
  const { report } = job;
  const toggle = (list: string[], name: string, on: boolean) => (on ? [...list, name] : list.filter((n) => n !== name));
  const group = (legend: string, empty: string, choices: { name: string; count: number }[], field: keyof ImportMapping) => (
    <fieldset className="ao-import-choices" disabled={busy}>
      <legend>{legend}</legend>
      {choices.length ? (
        choices.map(({ name, count }) => (
          <CheckboxField
            key={name}
            label={t('import.withCount', { name, count })}
            checked={mapping[field].includes(name)}
            onChange={(on) => onChange({ ...mapping, [field]: toggle(mapping[field], name, on) })}
          />
        ))
      ) : (
        <p className="ao-hint">{empty}</p>
      )}
    </fieldset>
  );
  return (
    <fieldset className="ao-settings-group ao-import-mapping" aria-busy={busy}>
      <legend>{t('import.mapping')}</legend>
      <p className="ao-hint">{t('import.mappingHint')}</p>
      <div className="ao-import-choice-groups">
        {group(t('import.categories'), t('import.noCategories'), report.categories, 'newsCategories')}
        {group(t('import.tags'), t('import.noTags'), report.tags, 'newsTags')}
      </div>
      <p role="status" className="ao-hint">
        {busy ? t('import.updatingReport') : ''}
      </p>
    </fieldset>
  );
}
