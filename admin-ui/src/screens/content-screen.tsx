import { type ContentKind, type ContentTab, type KindDefinition, KINDS } from '@portfolio/contract/kinds';
import type { NewsletterTopic } from '@portfolio/contract/newsletter';
import type { Translatable } from '@portfolio/contract/translations';
import type { ContentItems } from '@portfolio/contract/types';
import { type ReactNode, useCallback, useState } from 'react';

import { matchesTranslationFilter, TranslationBadge, type TranslationFilter, TranslationFilterField } from '../components/bilingual';
import { type Column, DataTable } from '../components/data-table';
import { CheckboxField } from '../components/field';
import { HiddenText } from '../components/hidden-text';
import { useErrorHandler } from '../hooks/use-error-handler';
import { useList } from '../hooks/use-list';
import { useNewsletterOffers } from '../hooks/use-newsletter-offers';
import { usePublishing } from '../hooks/use-publishing';
import { useRowAction } from '../hooks/use-row-action';
import { type Translate, useI18n } from '../i18n/i18n';
import { HistoryModal } from './history/history-modal';
import { RemovedItemsModal } from './history/removed-items-modal';
import { SendOfferModal } from './newsletter/send-offer-modal';

export interface FormProps<T> {
  /** null: a new item. */
  item: T | null;
  onSaved: () => void;
  onClose: () => void;
}

interface ContentScreenProps<K extends ContentKind, T = ContentItems[K]> {
  /** The API's kind; the tab and its UI strings ('gallery.heading') are the kind's `tab` in the registry. */
  kind: K;
  /** Asked with the browser's confirm() before a permanent removal. */
  confirmRemove?: string;
  /** Fetch the list; `showDeleted` for the types whose server list leaves deleted items out. */
  load: (showDeleted: boolean) => Promise<T[]>;
  setDeleted: (id: number, isDeleted: boolean) => Promise<unknown>;
  /** Permanent removal instead of moving to trash (plays). */
  remove?: (id: number) => Promise<unknown>;
  columns: Column<T>[];
  /** Names the item in the labels of its row's buttons. */
  itemName: (item: T) => string;
  renderForm: (props: FormProps<T>) => ReactNode;
}

type Item = ContentItems[ContentKind];

/** The screen's words, each tab's own ('Book moved to trash', or 'Play deleted successfully' for a removal). */
function screenTexts(tab: ContentTab, t: Translate) {
  return {
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
}
type ScreenTexts = ReturnType<typeof screenTexts>;

/** The list as shown: the server's list, then the trash or not (Show Deleted) and the translation filter. */
function useContentList<T>(kind: ContentKind, load: (showDeleted: boolean) => Promise<T[]>, loadFailed: string) {
  const handleError = useErrorHandler();
  const [showDeleted, setShowDeleted] = useState(false);
  const [translationFilter, setTranslationFilter] = useState<TranslationFilter>('all');
  const loadList = useCallback(() => load(showDeleted), [load, showDeleted]);
  const { items, isLoading, reload: reloadList } = useList(loadList, (error) => handleError(error, { title: loadFailed }));
  const offers = useNewsletterOffers();
  // After a save or a restore, which may have made an item live: the offers to mail it are asked for again.
  const reload = () => {
    offers.reload();
    return reloadList();
  };
  const inView = (item: T) => (item as Item).isDeleted === showDeleted;
  const visible = items.filter((item) => inView(item) && matchesTranslationFilter(kind, item as Translatable, translationFilter));
  return {
    showDeleted,
    setShowDeleted,
    translationFilter,
    setTranslationFilter,
    visible,
    isLoading,
    reload,
    /** The filter hides every item there is ('No items match the filter' rather than 'No items'). */
    filteredOut: translationFilter !== 'all' && items.some(inView),
  };
}

/**
 * An item visitors see now (its kind's publish rule, out of the trash, due) of a kind readers follow
 * by mail: it can be sent to subscribers from its row, offered or not (an imported one never is).
 * The API decides again when it is sent.
 */
function canBeMailed(kind: ContentKind, item: Item): boolean {
  const definition = KINDS[kind] as KindDefinition;
  const fields = item as unknown as Record<string, unknown>;
  if (!definition.newsletter || fields.isDeleted) return false;
  if (definition.publish && !(definition.publish.values as readonly unknown[]).includes(fields[definition.publish.field])) return false;
  const publishAt = fields.publishAt as string | null | undefined;
  return !publishAt || new Date(publishAt).getTime() <= Date.now();
}

/** "Send to subscribers" on a row that can be mailed, and the send dialog it opens (in a portal). */
function SendFromRow({ kind, item, name }: { kind: ContentKind; item: Item; name: string }) {
  const { t } = useI18n();
  const [open, setOpen] = useState(false);
  const offers = useNewsletterOffers();
  if (!canBeMailed(kind, item)) return null;
  return (
    <>
      <button type="button" className="ao-button ao-button-ghost ao-button-small" onClick={() => setOpen(true)}>
        {t('newsletter.offerOpen')}
        <HiddenText>{name}</HiddenText>
      </button>
      {open && (
        <SendOfferModal
          offer={{ kind: kind as NewsletterTopic, id: item.id, title: name, liveAt: '' }}
          onClose={() => setOpen(false)}
          onSettled={offers.reload}
        />
      )}
    </>
  );
}

interface RowActionsProps {
  name: string;
  isDeleted: boolean;
  busy: boolean;
  onEdit?: () => void;
  /** "Send to subscribers", where the row can be mailed. */
  send?: ReactNode;
  onHistory: () => void;
  onRestore: () => void;
  onDelete: () => void;
}

/** A row's Edit, History and Delete (or Restore) buttons, each naming the item for screen readers. */
function RowActions({ name, isDeleted, busy, onEdit, send, onHistory, onRestore, onDelete }: RowActionsProps) {
  const { t } = useI18n();
  const hiddenName = <HiddenText>{name}</HiddenText>;
  const button = (label: string, variant: string, onClick: () => void, disabled = false) => (
    <button type="button" className={`ao-button ao-button-${variant} ao-button-small`} disabled={disabled} onClick={onClick}>
      {label}
      {hiddenName}
    </button>
  );
  return (
    <div className="ao-row-actions">
      {onEdit && button(t('common.edit'), 'secondary', onEdit)}
      {send}
      {button(t('history.open'), 'ghost', onHistory)}
      {isDeleted ? button(t('common.restore'), 'secondary', onRestore, busy) : button(t('common.delete'), 'danger', onDelete, busy)}
    </div>
  );
}

interface ScreenHeaderProps {
  texts: ScreenTexts;
  list: Pick<ReturnType<typeof useContentList>, 'showDeleted' | 'setShowDeleted' | 'translationFilter' | 'setTranslationFilter'>;
  /** The 'Removed items' button, where items are removed for good. */
  onShowRemoved?: () => void;
  onAdd: () => void;
}

/** The heading and the tools above the list: Show Deleted, the translation filter, removed items, Add. */
function ScreenHeader({ texts, list, onShowRemoved, onAdd }: ScreenHeaderProps) {
  const { t } = useI18n();
  return (
    <div className="ao-screen-header">
      <h3 id="ao-screen-heading" className="ao-screen-title">
        {texts.heading}
      </h3>
      <div className="ao-screen-tools">
        <CheckboxField asSwitch label={t('common.showDeleted')} checked={list.showDeleted} onChange={list.setShowDeleted} />
        <TranslationFilterField value={list.translationFilter} onChange={list.setTranslationFilter} />
        {onShowRemoved && (
          <button type="button" className="ao-button ao-button-secondary" onClick={onShowRemoved}>
            {t('history.removedOpen')}
          </button>
        )}
        <button type="button" className="ao-button ao-button-primary" onClick={onAdd}>
          <span aria-hidden="true">+ </span>
          {texts.add}
        </button>
      </div>
    </div>
  );
}

/**
 * The screen shared by books, essays, gallery, news and plays: the list with Show Deleted, add
 * and edit in a modal form, move to trash and restore (or remove for good), each item's history of
 * saved versions (and, where items are removed for good, the histories of those). What differs by
 * kind comes from the registry: the tab's words, and whether items in the trash may be edited.
 */
export function ContentScreen<K extends ContentKind>(props: ContentScreenProps<K>) {
  const { kind, confirmRemove, load, setDeleted, remove, columns, itemName, renderForm } = props;
  type T = ContentItems[K];
  const { t, msg } = useI18n();
  const texts = screenTexts(KINDS[kind].tab, t);
  const notEditable = (KINDS[kind] as KindDefinition).softDelete.notEditableInTrash;
  const publishing = usePublishing();
  const list = useContentList(kind, load, texts.loadFailed);
  const { showDeleted, visible, isLoading, reload } = list;
  const [editing, setEditing] = useState<{ item: T | null } | null>(null);
  const [history, setHistory] = useState<T | null>(null);
  const [showRemoved, setShowRemoved] = useState(false);
  // Every list says which items lack a version in one of the languages.
  const allColumns: Column<T>[] = [
    ...columns,
    { header: t('translation.column'), render: (item) => <TranslationBadge kind={kind} item={item as Translatable} /> },
  ];
  const changed = () => {
    publishing.notifyChange();
    void reload();
  };
  const { busyId, run } = useRowAction(changed);

  const actions = (item: T) => {
    const { id, isDeleted } = item as Item;
    const onDelete = () => {
      if (remove && !window.confirm(confirmRemove)) return;
      void run(id, () => (remove ? remove(id) : setDeleted(id, true)), texts.deleted, texts.deleteFailed);
    };
    return (
      <RowActions
        name={itemName(item)}
        isDeleted={isDeleted}
        busy={busyId === id}
        onEdit={notEditable && isDeleted ? undefined : () => setEditing({ item })}
        send={<SendFromRow kind={kind} item={item as Item} name={itemName(item)} />}
        onHistory={() => setHistory(item)}
        onRestore={() => void run(id, () => setDeleted(id, false), texts.restored, texts.restoreFailed)}
        onDelete={onDelete}
      />
    );
  };

  return (
    <section className="ao-screen" aria-labelledby="ao-screen-heading">
      <ScreenHeader
        texts={texts}
        list={list}
        onShowRemoved={remove ? () => setShowRemoved(true) : undefined}
        onAdd={() => setEditing({ item: null })}
      />
      {showDeleted && notEditable && !isLoading && visible.length > 0 && <p className="ao-note">{msg(notEditable)}</p>}
      <DataTable
        caption={texts.heading}
        items={visible}
        columns={allColumns}
        isLoading={isLoading}
        emptyText={list.filteredOut ? t('translation.filter.none') : showDeleted ? texts.emptyDeleted : texts.empty}
        actions={actions}
        rowClassName={(item) => ((item as Item).isDeleted ? 'ao-row-deleted' : undefined)}
      />
      {history && (
        <HistoryModal
          kind={kind}
          id={(history as Item).id}
          name={itemName(history)}
          onClose={() => setHistory(null)}
          onRestored={() => void reload()}
        />
      )}
      {showRemoved && <RemovedItemsModal kind={kind} onClose={() => setShowRemoved(false)} onRestored={() => void reload()} />}
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
