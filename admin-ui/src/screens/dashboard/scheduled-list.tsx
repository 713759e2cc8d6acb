import type { ScheduledItem } from '@portfolio/contract/types';
import { useEffect, useState } from 'react';

import { scheduledApi } from '../../api/preview';
import { useI18n } from '../../i18n/i18n';
import { formatWhen } from './backup-status';

/** On the dashboard: what goes live by itself later, and when (in the admin's time zone); nothing when none. */
export function ScheduledList() {
  const { t, lang } = useI18n();
  const [items, setItems] = useState<ScheduledItem[] | null>(null);

  useEffect(() => {
    let live = true;
    scheduledApi.list().then(
      (next) => live && setItems(next),
      () => undefined, // A convenience: a failed check must not disturb the work.
    );
    return () => {
      live = false;
    };
  }, []);

  if (!items?.length) return null;
  return (
    <div className="ao-publishing ao-scheduled" data-tone="neutral">
      <details className="ao-publishing-details">
        <summary>
          <span className="ao-publishing-dot" aria-hidden="true" />
          {t('schedule.summary', { count: items.length })}
        </summary>
        <ul className="ao-scheduled-list">
          {items.map((item) => (
            <li key={`${item.kind}/${item.id}`}>
              <time dateTime={item.publishAt}>{formatWhen(item.publishAt, lang)}</time>
              <span className="ao-scheduled-kind">{t(`schedule.kind.${item.kind}`)}</span>
              <bdi dir="auto">{item.title}</bdi>
            </li>
          ))}
        </ul>
      </details>
    </div>
  );
}
