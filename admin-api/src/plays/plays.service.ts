import { Injectable } from '@nestjs/common';

import { ContentService } from '../content/content.service.js';
import { Db } from '../database/db.service.js';
import { OutboxService } from '../publishing/outbox.service.js';
import { CreatePlayDto } from './dto/create-play.dto.js';
import { Play } from './play.entity.js';

@Injectable()
export class PlaysService extends ContentService<Play> {
  constructor(db: Db, outbox: OutboxService) {
    super(db, outbox, { kind: 'plays', entity: Play, createDto: CreatePlayDto });
  }

  /** A draft play is previewed as published (a performed one stays performed). */
  protected override asPublic(play: Play) {
    if (play.status === 'draft') play.status = 'published';
    play.publishAt = null;
  }
}
