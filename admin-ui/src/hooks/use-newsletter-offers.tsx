import type { NewsletterOffer } from '@portfolio/contract/newsletter';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';

import { newsletterApi } from '../api/newsletter';
import { usePublishing } from './use-publishing';

export interface NewsletterOffers {
  /** Items that went live and were neither sent nor dismissed (GET /api/newsletter/offers). */
  offers: NewsletterOffer[];
  /** Asks again: after a save that may have made an item live, a send or a dismissal. */
  reload: () => void;
}

const NewsletterOffersContext = createContext<NewsletterOffers>({ offers: [], reload: () => {} });

/** The pending offers to mail subscribers, shared by the dashboard and the screens that save items. */
export function NewsletterOffersProvider({ children }: { children: ReactNode }) {
  const [offers, setOffers] = useState<NewsletterOffer[]>([]);
  const latest = useRef(0);

  const reload = useCallback(() => {
    const request = ++latest.current;
    newsletterApi.offers().then(
      (next) => {
        if (request === latest.current) setOffers(next);
      },
      // An offer is a convenience: a failed check (or an API without newsletters) must not disturb the work.
      () => {},
    );
  }, []);

  // Each time the site goes live again: an item may have reached its publication time meanwhile.
  const liveAt = usePublishing().status?.lastLiveAt;
  useEffect(() => reload(), [reload, liveAt]);

  const value = useMemo(() => ({ offers, reload }), [offers, reload]);
  return <NewsletterOffersContext.Provider value={value}>{children}</NewsletterOffersContext.Provider>;
}

export function useNewsletterOffers(): NewsletterOffers {
  return useContext(NewsletterOffersContext);
}
