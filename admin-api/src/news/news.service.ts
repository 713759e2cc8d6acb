import { Injectable } from '@nestjs/common';
import type { Viewer } from '../auth/auth-context.js';
import { ContentService } from '../common/content.service.js';
import { Db } from '../database/db.service.js';
import { PublishingService } from '../publishing/publishing.service.js';
import { News } from './news.entity.js';

type NewsFields = Omit<Partial<News>, 'publishedDate'> & { publishedDate?: Date | null };

@Injectable()
export class NewsService extends ContentService<News> {
  constructor(db: Db, publishing: PublishingService) {
    super(db, publishing, {
      kind: 'news',
      entity: News,
      notFound: 'News item not found',
      publicWhere: { published: true },
      order: { publishedDate: 'DESC', id: 'DESC' },
      adminSeesDeletedByDefault: true,
    });
  }

  /** publishedDate defaults to now; sending null means "now" too, as the column needs a date. */
  override create(fields: NewsFields, viewer: NonNullable<Viewer>) {
    return super.create({ ...fields, publishedDate: fields.publishedDate ?? new Date() }, viewer);
  }

  override update(id: number, patch: NewsFields & { isDeleted?: boolean }, viewer: NonNullable<Viewer>) {
    const { publishedDate, ...rest } = patch;
    return super.update(id, publishedDate === undefined ? rest : { ...rest, publishedDate: publishedDate ?? new Date() }, viewer);
  }
}
