import { type ContentKind, KINDS } from '@portfolio/contract/kinds';
import { NEWSLETTER_TOPICS, type NewsletterTopic } from '@portfolio/contract/newsletter';
import type { EntityManager } from 'typeorm';

import { Offer } from './entities.js';

export const isNewsletterKind = (kind: string): kind is NewsletterTopic => (NEWSLETTER_TOPICS as readonly string[]).includes(kind);

/** Whether anonymous visitors see the item now: the kind's publish rule, not in the trash, and due (see ContentService). */
export function isLive(kind: ContentKind, item: Record<string, unknown> | null, now: number): boolean {
  if (!item || item.isDeleted) return false;
  const rule = KINDS[kind].publish;
  if (rule && !(rule.values as readonly unknown[]).includes(item[rule.field])) return false;
  const publishAt = item.publishAt as Date | null | undefined;
  return !publishAt || new Date(publishAt).getTime() <= now;
}

/**
 * Called in the transaction of every change that can make an item live (a save, a restore, its
 * publishAt passing): an item of a newsletter kind seen live for the first time is offered to the
 * admin for a campaign. Once offered (or sent, or dismissed) an item is never offered again.
 */
export async function offerIfFirstLive(m: EntityManager, kind: ContentKind, item: Record<string, unknown>, now: number): Promise<void> {
  if (!isNewsletterKind(kind) || !isLive(kind, item, now)) return;
  const itemId = item.id as number;
  if (await m.existsBy(Offer, { kind, itemId })) return;
  await m.insert(Offer, { kind, itemId, liveAt: now, state: 'open' });
}

/**
 * An item an import brought in (or updated) is never offered: an export holds old posts, and one
 * click on each offer would mail them as new. Its offer is settled as dismissed in the import's own
 * transaction (whatever a save just opened), so no later change offers it either; the author can
 * still send it from the item.
 */
export async function neverOffer(m: EntityManager, kind: ContentKind, itemId: number, now: number): Promise<void> {
  if (!isNewsletterKind(kind)) return;
  const offer = await m.findOneBy(Offer, { kind, itemId });
  if (!offer) await m.insert(Offer, { kind, itemId, liveAt: now, state: 'dismissed' });
  else if (offer.state === 'open') await m.update(Offer, { id: offer.id }, { state: 'dismissed' });
}
