import type { SubscriberList } from '@portfolio/contract/newsletter';

import { useI18n } from '../../i18n/i18n';
import { isolated } from '../../lib/format';

/**
 * Before anything is sent: links in mails that lead to this computer (no PUBLIC_URL at the first start,
 * so the site address is http://localhost:PORT) would reach no reader.
 */
export function MailLinksWarning({ mailLinks }: { mailLinks: SubscriberList['mailLinks'] | undefined }) {
  const { t } = useI18n();
  if (!mailLinks?.local) return null;
  return (
    <div role="alert" className="ao-alert ao-alert-warning">
      <strong>{t('subscribers.localLinks.title')}</strong>
      <span>{t('subscribers.localLinks.body', { url: isolated(mailLinks.base) })}</span>
    </div>
  );
}
