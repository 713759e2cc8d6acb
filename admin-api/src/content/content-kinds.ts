import { Injectable } from '@nestjs/common';
import { KINDS, type ContentKind } from '@portfolio/contract/kinds';
import { In, type FindOptionsWhere } from 'typeorm';
import type { ContentEntity } from './content.entity.js';
import type { ContentService } from './content.service.js';

/**
 * The content service of each kind. Every ContentService registers itself here when the app starts,
 * so the services that work across kinds (revisions, preview, scheduling) find a kind's service
 * and entity here, from the kinds of @portfolio/contract/kinds, and keep no list of their own.
 */
@Injectable()
export class ContentKinds {
  private readonly services = new Map<ContentKind, ContentService<ContentEntity>>();

  register(kind: ContentKind, service: ContentService<ContentEntity>) {
    this.services.set(kind, service);
  }

  service(kind: ContentKind): ContentService<ContentEntity> {
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
