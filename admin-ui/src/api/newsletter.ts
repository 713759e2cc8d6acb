import type { Lang } from '@portfolio/contract/languages';
import type {
  Campaign,
  MailPreview,
  NewsletterOffer,
  NewsletterTopic,
  SubscriberImportResult,
  SubscriberList,
  SubscriberState,
} from '@portfolio/contract/newsletter';

import { api, download } from './client';

export interface SubscriberQuery {
  search?: string;
  state?: SubscriberState;
  language?: Lang;
  /** Only readers following this topic. */
  topic?: NewsletterTopic;
  page?: number;
  pageSize?: number;
}

/** An item of a newsletter kind: what offers, previews, tests and campaigns are about. */
export interface NewsletterItem {
  kind: NewsletterTopic;
  id: number;
}

/** The subscribers (GET/DELETE /api/subscribers, export, import). */
export const subscribersApi = {
  list: (query: SubscriberQuery = {}) => api.get<SubscriberList>('/api/subscribers', { ...query, search: query.search || undefined }),
  remove: (id: number) => api.delete(`/api/subscribers/${id}`),
  export: () => download('/api/subscribers/export'),
  /** `consent`: the admin confirmed that everyone in the file agreed to receive the mails. */
  import: (file: File, consent: boolean) => {
    const form = new FormData();
    form.append('file', file);
    form.append('consent', String(consent));
    return api.upload<SubscriberImportResult>('/api/subscribers/import', form);
  },
};

/** Offers to mail an item that went live, previews, tests and campaigns (/api/newsletter/…). */
export const newsletterApi = {
  offers: () => api.get<NewsletterOffer[]>('/api/newsletter/offers'),
  dismiss: ({ kind, id }: NewsletterItem) => api.post<void>(`/api/newsletter/offers/${kind}/${id}/dismiss`),
  /** "Dismiss all": the offers shown stop being offered (one that came up since stays). */
  dismissAll: (shown: readonly NewsletterItem[]) =>
    api.post<void>('/api/newsletter/offers/dismiss', { offers: shown.map(({ kind, id }) => ({ kind, id })) }),
  preview: ({ kind, id }: NewsletterItem) => api.get<Record<Lang, MailPreview>>('/api/newsletter/preview', { kind, id }),
  test: ({ kind, id }: NewsletterItem) => api.post<void>('/api/newsletter/test', { kind, id }),
  send: ({ kind, id }: NewsletterItem) => api.post<Campaign>('/api/newsletter/campaigns', { kind, id }),
  campaigns: () => api.get<Campaign[]>('/api/newsletter/campaigns'),
  campaign: (id: number) => api.get<Campaign>(`/api/newsletter/campaigns/${id}`),
};
