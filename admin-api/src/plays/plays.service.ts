import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import { ContentService } from '../content/content.service.js';
import { Db } from '../database/db.service.js';
import { PublishingService } from '../publishing/publishing.service.js';
import { Play } from './play.entity.js';

@Injectable()
export class PlaysService extends ContentService<Play> {
  constructor(db: Db, publishing: PublishingService) {
    super(db, publishing, {
      kind: 'plays',
      entity: Play,
      notFound: 'Play not found',
      publicWhere: { status: In(['published', 'performed']) },
      order: { createdAt: 'DESC', id: 'DESC' },
      adminSeesDeletedByDefault: true,
    });
  }
}
