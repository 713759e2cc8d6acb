import type { NewsletterOffer } from '@portfolio/contract/newsletter';
import { useState } from 'react';

import { HiddenText } from '../../components/hidden-text';
import { useNewsletterOffers } from '../../hooks/use-newsletter-offers';
import { useI18n } from '../../i18n/i18n';
import { isolated } from '../../lib/format';
import { SendOfferModal } from './send-offer-modal';

/**
 * The items that went live and could be mailed to subscribers: "“Title” is live. Send it to your
 * subscribers?" each, opening the send dialog. Nothing is sent from here.
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
        </section>
      )}
      {open && <SendOfferModal offer={open} onClose={() => setOpen(null)} onSettled={reload} />}
    </>
  );
}
