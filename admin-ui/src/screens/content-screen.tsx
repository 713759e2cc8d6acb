import { useCallback, useState, type ReactNode } from 'react';
import { DataTable, type Column } from '../components/data-table';
import { CheckboxField } from '../components/field';
import { matchesTranslationFilter, TranslationBadge, TranslationFilterField, type TranslationFilter } from '../components/bilingual';
import type { Translatable } from '@portfolio/contract/translations';
import { HiddenText } from '../components/hidden-text';
import type { ContentTab } from '../hooks/use-content-form';
import { useErrorHandler } from '../hooks/use-error-handler';
import { useList } from '../hooks/use-list';
import { usePublishing } from '../hooks/use-publishing';
import { useToast } from '../hooks/use-toast';
import { useI18n } from '../i18n/i18n';
import { kindOfTab } from './history/history-format';
import { HistoryModal } from './history/history-modal';
import { RemovedItemsModal } from './history/removed-items-modal';

interface ContentItem {
  id: number;
  isDeleted: boolean;
}

export interface FormProps<T> {
  /** null: a new item. */
  item: T | null;
  onSaved: () => void;
  onClose: () => void;
}

interface ContentScreenProps<T extends ContentItem> {
  tab: ContentTab;
  /** Asked with the browser's confirm() before a permanent removal. */
  confirmRemove?: string;
  /** Shown over the list of deleted items when they cannot be edited. */
  deletedNotEditable?: string;
  /** Fetch the list; `showDeleted` for the types whose server list leaves deleted items out. */
  load: (showDeleted: boolean) => Promise<T[]>;
  setDeleted: (id: number, isDeleted: boolean) => Promise<unknown>;
  /** Permanent removal instead of moving to trash (plays). */
  remove?: (id: number) => Promise<unknown>;
  columns: Column<T>[];
  /** Names the item in the labels of its row's buttons. */
  itemName: (item: T) => string;
  canEdit?: (item: T) => boolean;
  renderForm: (props: FormProps<T>) => ReactNode;
}

/**
 * The screen shared by books, essays, gallery, news and plays: the list with Show Deleted, add
 * and edit in a modal form, move to trash and restore (or remove for good), each item's history of
 * saved versions (and, where items are removed for good, the histories of those).
 */
export function ContentScreen<T extends ContentItem>(props: ContentScreenProps<T>) {
  const { tab, confirmRemove, deletedNotEditable, load, setDeleted, remove, columns, itemName, canEdit = () => true, renderForm } = props;
  const { t } = useI18n();
  // After a delete: 'Book moved to trash', or 'Play deleted successfully' for a removal.
  const texts = {
    heading: t(`${tab}.heading`),
    add: t(`${tab}.add`),
    empty: t(`${tab}.empty`),
    emptyDeleted: t(`${tab}.emptyDeleted`),
    loadFailed: t(`${tab}.loadFailed`),
    deleted: t(`${tab}.deleted`),
    restored: t(`${tab}.restored`),
    deleteFailed: t(`${tab}.deleteFailed`),
    restoreFailed: t(`${tab}.restoreFailed`),
  };
  const { toast } = useToast();
  const handleError = useErrorHandler();
  const publishing = usePublishing();
  const [showDeleted, setShowDeleted] = useState(false);
  const [editing, setEditing] = useState<{ item: T | null } | null>(null);
  const [busyId, setBusyId] = useState<number | null>(null);
  const [history, setHistory] = useState<T | null>(null);
  const [showRemoved, setShowRemoved] = useState(false);
  const [translationFilter, setTranslationFilter] = useState<TranslationFilter>('all');
  const kind = kindOfTab(tab);

  const loadList = useCallback(() => load(showDeleted), [load, showDeleted]);
  const { items, isLoading, reload } = useList(loadList, (error) => handleError(error, { title: texts.loadFailed }));
  const visible = items.filter(
    (item) => item.isDeleted === showDeleted && matchesTranslationFilter(kind, item as unknown as Translatable, translationFilter),
  );
  // Every list says which items lack a version in one of the languages.
  const allColumns: Column<T>[] = [
    ...columns,
    { header: t('translation.column'), render: (item) => <TranslationBadge kind={kind} item={item as unknown as Translatable} /> },
  ];

  const changed = () => {
    publishing.notifyChange();
    void reload();
  };

  const run = async (item: T, work: () => Promise<unknown>, success: string, failure: string) => {
    setBusyId(item.id);
    try {
      await work();
      toast({ title: success });
      changed();
    } catch (error) {
      handleError(error, { title: failure });
    } finally {
      setBusyId(null);
    }
  };

  const onDelete = (item: T) => {
    if (remove) {
      if (!window.confirm(confirmRemove)) return;
      void run(item, () => remove(item.id), texts.deleted, texts.deleteFailed);
    } else {
      void run(item, () => setDeleted(item.id, true), texts.deleted, texts.deleteFailed);
    }
  };

  const actions = (item: T) => {
    const name = <HiddenText>{itemName(item)}</HiddenText>;
    const busy = busyId === item.id;
    return (
      <div className="ao-row-actions">
        {canEdit(item) && (
          <button type="button" className="ao-button ao-button-secondary ao-button-small" onClick={() => setEditing({ item })}>
            {t('common.edit')}
            {name}
          </button>
        )}
        <button type="button" className="ao-button ao-button-ghost ao-button-small" onClick={() => setHistory(item)}>
          {t('history.open')}
          {name}
        </button>
        {item.isDeleted ? (
          <button
            type="button"
            className="ao-button ao-button-secondary ao-button-small"
            disabled={busy}
            onClick={() => void run(item, () => setDeleted(item.id, false), texts.restored, texts.restoreFailed)}
          >
            {t('common.restore')}
            {name}
          </button>
        ) : (
          <button type="button" className="ao-button ao-button-danger ao-button-small" disabled={busy} onClick={() => onDelete(item)}>
            {t('common.delete')}
            {name}
          </button>
        )}
      </div>
    );
  };

  return (
    <section className="ao-screen" aria-labelledby="ao-screen-heading">
      <div className="ao-screen-header">
        <h3 id="ao-screen-heading" className="ao-screen-title">
          {texts.heading}
        </h3>
        <div className="ao-screen-tools">
          <CheckboxField asSwitch label={t('common.showDeleted')} checked={showDeleted} onChange={setShowDeleted} />
          <TranslationFilterField value={translationFilter} onChange={setTranslationFilter} />
          {remove && (
            <button type="button" className="ao-button ao-button-secondary" onClick={() => setShowRemoved(true)}>
              {t('history.removedOpen')}
            </button>
          )}
          <button type="button" className="ao-button ao-button-primary" onClick={() => setEditing({ item: null })}>
            <span aria-hidden="true">+ </span>
            {texts.add}
          </button>
        </div>
      </div>
      {showDeleted && deletedNotEditable && !isLoading && visible.length > 0 && <p className="ao-note">{deletedNotEditable}</p>}
      <DataTable
        caption={texts.heading}
        items={visible}
        columns={allColumns}
        isLoading={isLoading}
        emptyText={translationFilter !== 'all' && items.some((item) => item.isDeleted === showDeleted) ? t('translation.filter.none') : showDeleted ? texts.emptyDeleted : texts.empty}
        actions={actions}
        rowClassName={(item) => (item.isDeleted ? 'ao-row-deleted' : undefined)}
      />
      {history && (
        <HistoryModal kind={kindOfTab(tab)} id={history.id} name={itemName(history)} onClose={() => setHistory(null)} onRestored={() => void reload()} />
      )}
      {showRemoved && <RemovedItemsModal kind={kindOfTab(tab)} onClose={() => setShowRemoved(false)} onRestored={() => void reload()} />}
      {editing &&
        renderForm({
          item: editing.item,
          onClose: () => setEditing(null),
          onSaved: () => {
            setEditing(null);
            changed();
          },
        })}
    </section>
  );
}
