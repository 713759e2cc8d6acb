import { Injectable } from '@nestjs/common';
import { ContentService } from '../content/content.service.js';
import { Db } from '../database/db.service.js';
import { OutboxService } from '../publishing/outbox.service.js';
import { Play, PLAY_PUBLIC } from './play.entity.js';
import { LIST_ORDER } from '@portfolio/contract/rules';

@Injectable()
export class PlaysService extends ContentService<Play> {
  constructor(db: Db, outbox: OutboxService) {
    super(db, outbox, {
      kind: 'plays',
      entity: Play,
      notFound: 'error.playNotFound',
      publicWhere: PLAY_PUBLIC,
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
