import type { Campaign } from '@portfolio/contract/newsletter';
import { useEffect, useState } from 'react';

import { newsletterApi } from '../../api/newsletter';
import { Badge } from '../../components/badge';
import { useI18n } from '../../i18n/i18n';
import { isolated } from '../../lib/format';

export const CAMPAIGN_POLL_MS = 2000;

/**
 * Campaigns as last seen: those sending are asked for again every CAMPAIGN_POLL_MS (GET
 * /api/newsletter/campaigns/:id) until they are done. A new `list` (a reload) starts over from it.
 */
export function useLiveCampaigns(list: Campaign[]): Campaign[] {
  const [seen, setSeen] = useState<{ list: Campaign[]; live: Record<number, Campaign> }>({ list, live: {} });
  const live = seen.list === list ? seen.live : {};
  if (seen.list !== list) setSeen({ list, live });
  const campaigns = list.map((campaign) => live[campaign.id] ?? campaign);
  const sending = campaigns.filter((campaign) => campaign.state === 'sending').map((campaign) => campaign.id);
  const key = sending.join(',');
  const [round, setRound] = useState(0);

  useEffect(() => {
    if (!key) return;
    let stopped = false;
    const timer = setTimeout(async () => {
      const answers = await Promise.allSettled(key.split(',').map((id) => newsletterApi.campaign(Number(id))));
      if (stopped) return;
      const fresh = answers.flatMap((answer) => (answer.status === 'fulfilled' ? [answer.value] : []));
      // A failed ask shows the progress as last seen; the next round tries again.
      setSeen((previous) =>
        previous.list === list ? { list, live: { ...previous.live, ...Object.fromEntries(fresh.map((c) => [c.id, c])) } } : previous,
      );
      setRound((n) => n + 1);
    }, CAMPAIGN_POLL_MS);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [key, list, round]);

  return campaigns;
}

export function CampaignState({ campaign }: { campaign: Campaign }) {
  const { t } = useI18n();
  return campaign.state === 'sending' ? (
    <Badge tone="info">{t('campaigns.state.sending')}</Badge>
  ) : (
    <Badge tone="success">{t('campaigns.state.done')}</Badge>
  );
}

/** Sent, failed and remaining, with a bar of how much is done (sent, failed and skipped of the total). */
export function CampaignProgress({ campaign }: { campaign: Campaign }) {
  const { t } = useI18n();
  const done = campaign.total - campaign.remaining;
  return (
    <div className="ao-campaign-progress">
      <progress
        className="ao-progress"
        max={Math.max(campaign.total, 1)}
        value={campaign.total ? done : 1}
        aria-label={t('campaigns.bar', { title: isolated(campaign.title) })}
      />
      <span className="ao-secondary-text" aria-live="polite">
        {t('campaigns.counts', { sent: campaign.sent, failed: campaign.failed, remaining: campaign.remaining })}
      </span>
    </div>
  );
}
