import type { Campaign } from '@portfolio/contract/newsletter';
import { useCallback, useEffect, useRef } from 'react';

import { newsletterApi } from '../../api/newsletter';
import { DataTable } from '../../components/data-table';
import { useErrorHandler } from '../../hooks/use-error-handler';
import { useList } from '../../hooks/use-list';
import { useNewsletterOffers } from '../../hooks/use-newsletter-offers';
import { useI18n } from '../../i18n/i18n';
import { formatDate } from '../../lib/format';
import { CampaignProgress, CampaignState, useLiveCampaigns } from '../newsletter/campaign-progress';

/** What was sent to subscribers, newest first: title, date, state, progress (live while sending). */
export function CampaignHistory() {
  const { t, lang } = useI18n();
  const handleError = useErrorHandler();
  const load = useCallback(() => newsletterApi.campaigns(), []);
  const { items, isLoading, reload } = useList(load, (error) => handleError(error, { title: t('campaigns.loadFailed') }));
  // Asked again when the offers change: a campaign started from an offer shows up here.
  const { offers } = useNewsletterOffers();
  const seenOffers = useRef(offers);
  useEffect(() => {
    if (seenOffers.current === offers) return;
    seenOffers.current = offers;
    void reload();
  }, [offers, reload]);
  const campaigns = useLiveCampaigns(items);
  return (
    <section className="ao-campaigns" aria-labelledby="ao-campaigns-heading">
      <h4 id="ao-campaigns-heading" className="ao-section-title">
        {t('campaigns.heading')}
      </h4>
      <DataTable<Campaign>
        caption={t('campaigns.heading')}
        items={campaigns}
        isLoading={isLoading}
        emptyText={t('campaigns.empty')}
        columns={[
          { header: t('fields.title'), primary: true, render: (c) => <span dir="auto">{c.title}</span> },
          { header: t('campaigns.date'), render: (c) => formatDate(c.createdAt, lang) },
          { header: t('common.status'), render: (c) => <CampaignState campaign={c} /> },
          { header: t('campaigns.progress'), render: (c) => <CampaignProgress campaign={c} /> },
        ]}
      />
    </section>
  );
}
