import { Injectable, Module, type Type } from '@nestjs/common';
import type { ContentKind } from '@portfolio/contract/kinds';

import { ContentController } from '../content/content.controller.js';
import type { ContentEntity } from '../content/content.entity.js';
import { ContentService } from '../content/content.service.js';
import { Db } from '../database/db.service.js';
import { OutboxService } from '../publishing/outbox.service.js';
import { PublishingModule } from '../publishing/publishing.module.js';
import { RevisionsModule } from '../revisions/revisions.module.js';
import { KindsModule } from './kinds.module.js';

/** The API side of a content kind: its Nest module, its table's entity and the body that creates an item (see src/kind-modules.ts). */
export interface KindFeature {
  module: Type;
  entity: Type;
  createDto: new () => object;
}

export interface KindParts<T extends ContentEntity> {
  entity: Type<T> & (new () => T);
  /** The body of a create (POST); the PATCH body is made from it (UpdateContentDto). */
  createDto: Type<object>;
  /** A ContentService subclass when the kind has behaviour of its own (else the shared one). */
  service?: Type<ContentService<T>>;
  /** A ContentController subclass when the kind has routes of its own (else the shared routes). */
  controller?: Type;
}

/** A kind's Nest module from its parts: its controller at /api/<kind> and its service, registered in ContentKinds. */
export function kindFeature<T extends ContentEntity>(kind: ContentKind, parts: KindParts<T>): KindFeature {
  const { entity, createDto } = parts;
  const service = parts.service ?? plainService(kind, entity, createDto);
  const controller = parts.controller ?? ContentController(kind, service, createDto);

  @Module({ imports: [KindsModule, RevisionsModule, PublishingModule], controllers: [controller], providers: [service] })
  class KindModule {}
  Object.defineProperty(KindModule, 'name', { value: `${controller.name.replace(/Controller$/, '')}Module` });
  return { module: KindModule, entity, createDto };
}

function plainService<T extends ContentEntity>(kind: ContentKind, entity: KindParts<T>['entity'], createDto: Type<object>) {
  @Injectable()
  class KindService extends ContentService<T> {
    constructor(db: Db, outbox: OutboxService) {
      super(db, outbox, { kind, entity, createDto });
    }
  }
  return KindService;
}
