import { type Lang, LANGUAGES } from '@portfolio/contract/languages';
import type { Subscriber, SubscriberList, SubscriberState } from '@portfolio/contract/newsletter';
import { type FormEvent, useCallback, useEffect, useRef, useState } from 'react';

import { subscribersApi } from '../../api/newsletter';
import { Badge } from '../../components/badge';
import { type Column, DataTable } from '../../components/data-table';
import { SelectField } from '../../components/field';
import { HiddenText } from '../../components/hidden-text';
import { useErrorHandler } from '../../hooks/use-error-handler';
import { useRowAction } from '../../hooks/use-row-action';
import { useToast } from '../../hooks/use-toast';
import { nativeName, useI18n } from '../../i18n/i18n';
import { formatDate } from '../../lib/format';
import { saveFile } from '../../lib/save-file';
import { CampaignHistory } from './campaign-history';
import { ImportForm } from './import-form';
import { MailLinksWarning } from './mail-links-warning';

export const SUBSCRIBER_STATES: SubscriberState[] = ['confirmed', 'pending', 'paused', 'unsubscribed'];
export const PAGE_SIZE = 50;
const STATE_TONES = { confirmed: 'success', pending: 'warning', paused: 'info', unsubscribed: 'neutral' } as const;

/** Address, language, topics, state, since (confirmed, or signed up while pending). */
function useSubscriberColumns(): Column<Subscriber>[] {
  const { t, lang } = useI18n();
  return [
    {
      header: t('subscribers.address'),
      primary: true,
      render: (s) => <span dir="ltr">{s.email}</span>,
    },
    { header: t('subscribers.language'), render: (s) => nativeName(s.language) },
    { header: t('subscribers.topics'), render: (s) => s.topics.map((topic) => t(`tabs.${topic}`)).join(', ') },
    {
      header: t('common.status'),
      render: (s) => <Badge tone={STATE_TONES[s.state]}>{t(`subscribers.state.${s.state}`)}</Badge>,
    },
    { header: t('subscribers.since'), render: (s) => formatDate(s.confirmedAt ?? s.createdAt, lang) },
  ];
}

/** How many in each state, and the confirmed ones by the language of their mails. */
function SubscriberCounts({ counts }: { counts: SubscriberList['counts'] }) {
  const { t } = useI18n();
  const list = (label: string, entries: [string, number][]) => (
    <dl className="ao-counts" aria-label={label}>
      {entries.map(([name, n]) => (
        <div key={name} className="ao-count">
          <dt>{name}</dt>
          <dd>{n}</dd>
        </div>
      ))}
    </dl>
  );
  return (
    <div className="ao-counts-row">
      {list(
        t('subscribers.countsByState'),
        SUBSCRIBER_STATES.map((state) => [t(`subscribers.state.${state}`), counts.byState[state] ?? 0]),
      )}
      {list(
        t('subscribers.countsByLanguage'),
        LANGUAGES.map((lang: Lang) => [nativeName(lang), counts.byLanguage[lang] ?? 0]),
      )}
    </div>
  );
}

/** Previous and next page, and where we are. */
function Pager({ list, onPage }: { list: SubscriberList; onPage: (page: number) => void }) {
  const { t } = useI18n();
  const pages = Math.max(1, Math.ceil(list.total / list.pageSize));
  if (pages <= 1) return null;
  return (
    <nav className="ao-pager" aria-label={t('subscribers.pages')}>
      <button
        type="button"
        className="ao-button ao-button-secondary ao-button-small"
        disabled={list.page <= 1}
        onClick={() => onPage(list.page - 1)}
      >
        {t('subscribers.previous')}
      </button>
      <span aria-live="polite">{t('subscribers.page', { page: list.page, pages, total: list.total })}</span>
      <button
        type="button"
        className="ao-button ao-button-secondary ao-button-small"
        disabled={list.page >= pages}
        onClick={() => onPage(list.page + 1)}
      >
        {t('subscribers.next')}
      </button>
    </nav>
  );
}

/** 'Export CSV': every subscriber as a file (GET /api/subscribers/export). */
function ExportButton() {
  const { t } = useI18n();
  const { toast } = useToast();
  const handleError = useErrorHandler();
  const [busy, setBusy] = useState(false);
  const start = async () => {
    setBusy(true);
    try {
      const { blob, filename } = await subscribersApi.export();
      saveFile(blob, filename ?? 'subscribers.csv');
      toast({ title: t('subscribers.exported') });
    } catch (error) {
      handleError(error, { title: t('subscribers.exportFailed') });
    } finally {
      setBusy(false);
    }
  };
  return (
    <button type="button" className="ao-button ao-button-secondary" disabled={busy} aria-busy={busy} onClick={() => void start()}>
      {busy ? t('subscribers.exporting') : t('subscribers.export')}
    </button>
  );
}

interface Query {
  search: string;
  state: SubscriberState | '';
  page: number;
}

/** One page of the list for a query; an answer that arrives after a newer request started is dropped. */
function useSubscriberList(query: Query) {
  const { t } = useI18n();
  const handleError = useErrorHandler();
  const [list, setList] = useState<SubscriberList | null>(null);
  const [isLoading, setLoading] = useState(true);
  const latest = useRef(0);
  const { search, state, page } = query;
  const reload = useCallback(async () => {
    const request = ++latest.current;
    setLoading(true);
    try {
      const next = await subscribersApi.list({ search, state: state || undefined, page, pageSize: PAGE_SIZE });
      if (request === latest.current) setList(next);
    } catch (error) {
      if (request === latest.current) handleError(error, { title: t('subscribers.loadFailed') });
    } finally {
      if (request === latest.current) setLoading(false);
    }
  }, [search, state, page, handleError, t]);
  useEffect(() => void reload(), [reload]);
  return { list, isLoading, reload };
}

/** 'Subscribers': counts, the list (search, state, pages, remove), export and import, then what was sent. */
export function SubscribersScreen() {
  const { t } = useI18n();
  const [query, setQuery] = useState<Query>({ search: '', state: '', page: 1 });
  const [typed, setTyped] = useState('');
  const { list, isLoading, reload } = useSubscriberList(query);
  const columns = useSubscriberColumns();
  const { busyId, run } = useRowAction(reload);

  const search = (event: FormEvent) => {
    event.preventDefault();
    setQuery((q) => ({ ...q, search: typed.trim(), page: 1 }));
  };
  const remove = (subscriber: Subscriber) => {
    if (!window.confirm(t('subscribers.confirmRemove', { email: subscriber.email }))) return;
    void run(subscriber.id, () => subscribersApi.remove(subscriber.id), t('subscribers.removed'), t('subscribers.removeFailed'));
  };

  return (
    <section className="ao-screen" aria-labelledby="ao-screen-heading">
      <div className="ao-screen-header">
        <h3 id="ao-screen-heading" className="ao-screen-title">
          {t('subscribers.heading')}
        </h3>
        <div className="ao-screen-tools">
          <ExportButton />
        </div>
      </div>
      <MailLinksWarning mailLinks={list?.mailLinks} />
      {list && <SubscriberCounts counts={list.counts} />}
      <div className="ao-screen-tools ao-subscriber-filters">
        <form role="search" className="ao-search" onSubmit={search} aria-label={t('subscribers.search')}>
          <label className="ao-field">
            <span className="ao-label-row">{t('subscribers.search')}</span>
            <input type="search" dir="ltr" className="ao-input" value={typed} onChange={(e) => setTyped(e.target.value)} />
          </label>
          <button type="submit" className="ao-button ao-button-secondary">
            {t('subscribers.searchButton')}
          </button>
        </form>
        <SelectField
          label={t('subscribers.stateFilter')}
          value={query.state}
          onChange={(state) => setQuery((q) => ({ ...q, state: state as SubscriberState | '', page: 1 }))}
          options={[
            { value: '', label: t('subscribers.allStates') },
            ...SUBSCRIBER_STATES.map((state) => ({ value: state, label: t(`subscribers.state.${state}`) })),
          ]}
        />
      </div>
      <DataTable
        caption={t('subscribers.heading')}
        items={list?.items ?? []}
        isLoading={isLoading && !list}
        emptyText={t('subscribers.empty')}
        columns={columns}
        actions={(subscriber) => (
          <div className="ao-row-actions">
            <button
              type="button"
              className="ao-button ao-button-danger ao-button-small"
              disabled={busyId === subscriber.id}
              onClick={() => remove(subscriber)}
            >
              {t('subscribers.remove')}
              <HiddenText>{subscriber.email}</HiddenText>
            </button>
          </div>
        )}
      />
      {list && <Pager list={list} onPage={(page) => setQuery((q) => ({ ...q, page }))} />}
      <ImportForm onImported={() => void reload()} />
      <CampaignHistory />
    </section>
  );
}
