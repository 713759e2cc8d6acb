import { Injectable } from '@nestjs/common';
import { ContentService } from '../content/content.service.js';
import { Db } from '../database/db.service.js';
import { PublishingService } from '../publishing/publishing.service.js';
import { Essay } from './essay.entity.js';

@Injectable()
export class EssaysService extends ContentService<Essay> {
  constructor(db: Db, publishing: PublishingService) {
    super(db, publishing, {
      kind: 'essays',
      entity: Essay,
      notFound: 'Essay not found',
      publicWhere: { published: true },
      order: { publishedDate: 'DESC', createdAt: 'DESC', id: 'DESC' },
      adminSeesDeletedByDefault: true,
    });
  }
}
