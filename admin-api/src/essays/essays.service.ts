import { Injectable } from '@nestjs/common';
import { ContentService } from '../content/content.service.js';
import { Db } from '../database/db.service.js';
import { OutboxService } from '../publishing/outbox.service.js';
import { Essay, ESSAY_PUBLIC } from './essay.entity.js';
import { LIST_ORDER } from '@portfolio/contract/rules';

@Injectable()
export class EssaysService extends ContentService<Essay> {
  constructor(db: Db, outbox: OutboxService) {
    super(db, outbox, {
      kind: 'essays',
      entity: Essay,
      notFound: 'error.essayNotFound',
      publicWhere: ESSAY_PUBLIC,
      scheduled: true,
      order: LIST_ORDER.essays,
      adminSeesDeletedByDefault: true,
    });
  }
}
