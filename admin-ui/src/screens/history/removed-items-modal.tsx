import type { ContentKind, RemovedItem } from '@portfolio/contract/types';
import { useCallback, useEffect, useRef, useState } from 'react';

import { revisionsApi } from '../../api/revisions';
import { HiddenText } from '../../components/hidden-text';
import { Modal } from '../../components/modal';
import { useErrorHandler } from '../../hooks/use-error-handler';
import { useI18n } from '../../i18n/i18n';
import { formatDateTime } from './history-format';
import { HistoryModal } from './history-modal';

interface RemovedItemsModalProps {
  kind: ContentKind;
  onClose: () => void;
  /** A removed item was brought back: the screen reloads its list. */
  onRestored: () => void;
}

/** Items deleted for good (plays) whose history is kept: each opens its history, where a version brings it back. */
export function RemovedItemsModal({ kind, onClose, onRestored }: RemovedItemsModalProps) {
  const { t, lang } = useI18n();
  const handleError = useErrorHandler();
  const [items, setItems] = useState<RemovedItem[] | null>(null);
  const [open, setOpen] = useState<RemovedItem | null>(null);

  const handleErrorRef = useRef(handleError);
  handleErrorRef.current = handleError;
  const loadFailed = t('history.removedLoadFailed');
  const loadFailedRef = useRef(loadFailed);
  loadFailedRef.current = loadFailed;

  const load = useCallback(async () => {
    try {
      setItems(await revisionsApi.removed(kind));
    } catch (error) {
      setItems([]);
      handleErrorRef.current(error, { title: loadFailedRef.current });
    }
  }, [kind]);

  useEffect(() => {
    void load();
  }, [load]);

  return (
    <Modal title={t('history.removedTitle')} onClose={onClose} size="medium">
      {items === null ? (
        <p role="status" className="ao-loading">
          {t('common.loading')}
        </p>
      ) : !items.length ? (
        <p role="status" className="ao-empty">
          {t('history.removedEmpty')}
        </p>
      ) : (
        <ul className="ao-removed-list">
          {items.map((item) => (
            <li key={item.entityId} className="ao-removed-item">
              <span>
                <span className="ao-history-entry-title" dir="auto">
                  {item.title}
                </span>
                <span className="ao-secondary-text">
                  {t('history.removedAt', {
                    date: formatDateTime(item.removedAt, lang),
                    name: item.removedByUsername ?? t('history.unknownUser'),
                  })}
                </span>
              </span>
              <button type="button" className="ao-button ao-button-secondary ao-button-small" onClick={() => setOpen(item)}>
                {t('history.open')}
                <HiddenText>{item.title}</HiddenText>
              </button>
            </li>
          ))}
        </ul>
      )}
      {open && (
        <HistoryModal
          kind={kind}
          id={open.entityId}
          name={open.title}
          onClose={() => setOpen(null)}
          onRestored={() => {
            onRestored();
            void load();
          }}
        />
      )}
    </Modal>
  );
}
