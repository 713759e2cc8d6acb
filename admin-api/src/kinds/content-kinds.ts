import { Injectable } from '@nestjs/common';
import { type ContentKind, KINDS } from '@portfolio/contract/kinds';
import { type EntityTarget, type FindOptionsWhere, In, type ObjectLiteral } from 'typeorm';

import type { Viewer } from '../auth/auth-context.js';

/** An item as the services working across kinds see it. */
export interface KindItem {
  id: number;
}

/** What the services working across kinds use of a kind's ContentService (content/content.service.ts). */
export interface KindService {
  readonly resource: { kind: ContentKind; entity: EntityTarget<ObjectLiteral>; createDto: new () => object };
  exists(id: number): Promise<boolean>;
  get(id: number, viewer: Viewer): Promise<KindItem>;
  restoreRevision(id: number, revision: number, viewer: NonNullable<Viewer>): Promise<KindItem>;
  previewData(
    id: number | null,
    fields: Record<string, unknown>,
    viewer: NonNullable<Viewer>,
  ): Promise<{ item: KindItem; list: KindItem[] }>;
}

/**
 * The content service of each kind. Every ContentService registers itself here when the app starts,
 * so the services that work across kinds (revisions, preview, scheduling) find a kind's service
 * and entity here, from the kinds of @portfolio/contract/kinds, and keep no list of their own.
 */
@Injectable()
export class ContentKinds {
  private readonly services = new Map<ContentKind, KindService>();

  register(kind: ContentKind, service: KindService) {
    this.services.set(kind, service);
  }

  service(kind: ContentKind): KindService {
    const service = this.services.get(kind);
    if (!service) throw new Error(`No content service registered for '${kind}'`);
    return service;
  }
}

/** What makes an item of `kind` visible to anonymous visitors (its publish rule), besides not being deleted and being due. */
export function publishedWhere<T>(kind: ContentKind): FindOptionsWhere<T> {
  const rule = KINDS[kind].publish;
  if (!rule) return {};
  return { [rule.field]: rule.values.length === 1 ? rule.values[0] : In([...rule.values]) } as FindOptionsWhere<T>;
}
