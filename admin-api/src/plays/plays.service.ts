import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import { ContentService } from '../content/content.service.js';
import { Db } from '../database/db.service.js';
import { OutboxService } from '../publishing/outbox.service.js';
import { Play } from './play.entity.js';
import { LIST_ORDER } from '@portfolio/contract/rules';

@Injectable()
export class PlaysService extends ContentService<Play> {
  constructor(db: Db, outbox: OutboxService) {
    super(db, outbox, {
      kind: 'plays',
      entity: Play,
      notFound: 'error.playNotFound',
      publicWhere: { status: In(['published', 'performed']) },
      scheduled: true,
      order: LIST_ORDER.plays,
      adminSeesDeletedByDefault: true,
    });
  }

  /** A draft play is previewed as published (a performed one stays performed). */
  protected override asPublic(play: Play) {
    if (play.status === 'draft') play.status = 'published';
    play.publishAt = null;
  }
}
