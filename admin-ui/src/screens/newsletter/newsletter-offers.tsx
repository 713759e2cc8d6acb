import type { NewsletterOffer } from '@portfolio/contract/newsletter';
import { useState } from 'react';

import { newsletterApi } from '../../api/newsletter';
import { HiddenText } from '../../components/hidden-text';
import { useErrorHandler } from '../../hooks/use-error-handler';
import { useNewsletterOffers } from '../../hooks/use-newsletter-offers';
import { useToast } from '../../hooks/use-toast';
import { useI18n } from '../../i18n/i18n';
import { isolated } from '../../lib/format';
import { SendOfferModal } from './send-offer-modal';

/** "Dismiss all", when several offers stand: none of those shown is offered again, none is sent. */
function DismissAll({ shown, onSettled }: { shown: readonly NewsletterOffer[]; onSettled: () => void }) {
  const { t } = useI18n();
  const { toast } = useToast();
  const handleError = useErrorHandler();
  const [busy, setBusy] = useState(false);
  const dismissAll = async () => {
    setBusy(true);
    try {
      await newsletterApi.dismissAll(shown);
      toast({ title: t('newsletter.dismissedAll') });
      onSettled();
    } catch (error) {
      handleError(error, { title: t('newsletter.dismissAllFailed') });
    } finally {
      setBusy(false);
    }
  };
  return (
    <button
      type="button"
      className="ao-button ao-button-secondary ao-button-small ao-offers-dismiss-all"
      disabled={busy}
      aria-busy={busy}
      onClick={() => void dismissAll()}
    >
      {t('newsletter.dismissAll')}
    </button>
  );
}

/**
 * The items that went live and could be mailed to subscribers: "“Title” is live. Send it to your
 * subscribers?" each, opening the send dialog; "Dismiss all" when there are several. Nothing is sent from here.
 */
export function NewsletterOffers() {
  const { t } = useI18n();
  const { offers, reload } = useNewsletterOffers();
  const [open, setOpen] = useState<NewsletterOffer | null>(null);
  if (!offers.length && !open) return null;
  return (
    <>
      {offers.length > 0 && (
        <section className="ao-offers" aria-label={t('newsletter.offers')}>
          <ul>
            {offers.map((offer) => (
              <li key={`${offer.kind}-${offer.id}`} className="ao-offer">
                <span>{t('newsletter.offer', { title: isolated(offer.title) })}</span>
                <button type="button" className="ao-button ao-button-primary ao-button-small" onClick={() => setOpen(offer)}>
                  {t('newsletter.offerOpen')}
                  <HiddenText>{offer.title}</HiddenText>
                </button>
              </li>
            ))}
          </ul>
          {offers.length > 1 && <DismissAll shown={offers} onSettled={reload} />}
        </section>
      )}
      {open && <SendOfferModal offer={open} onClose={() => setOpen(null)} onSettled={reload} />}
    </>
  );
}
