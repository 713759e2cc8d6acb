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
