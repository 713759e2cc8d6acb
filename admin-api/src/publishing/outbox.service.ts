import { EventEmitter } from 'node:events';

import { Injectable } from '@nestjs/common';
import type { ContentAction, PublishKind } from '@portfolio/contract/types';
import type { EntityManager } from 'typeorm';

import { OutboxEvent } from './outbox-event.entity.js';

/**
 * Records outbox rows, the hook point between content changes and the site rebuild. `record`
 * must be called inside the transaction of the change; `committed` after it, to wake whoever
 * sends rebuild requests (RebuildSender).
 */
@Injectable()
export class OutboxService {
  readonly events = new EventEmitter();

  async record(manager: EntityManager, kind: PublishKind, entityId: number, action: ContentAction) {
    await manager.insert(OutboxEvent, { kind, entityId, action, createdAt: new Date(), processedAt: null });
  }

  /** One row that asks for a full publish (an import saved many items without rows of their own). */
  async recordFullPublish(manager: EntityManager, kind: PublishKind) {
    await manager.insert(OutboxEvent, { kind, entityId: 0, action: 'update', fullPublish: true, createdAt: new Date(), processedAt: null });
  }

  committed() {
    this.events.emit('committed');
  }
}
