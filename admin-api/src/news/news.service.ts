import { Injectable } from '@nestjs/common';

import type { Viewer } from '../auth/auth-context.js';
import { ContentService, type SaveOptions } from '../content/content.service.js';
import { Db } from '../database/db.service.js';
import { OutboxService } from '../publishing/outbox.service.js';
import { CreateNewsDto } from './dto/create-news.dto.js';
import { News } from './news.entity.js';

type NewsFields = Omit<Partial<News>, 'publishedDate'> & { publishedDate?: Date | null };

@Injectable()
export class NewsService extends ContentService<News> {
  constructor(db: Db, outbox: OutboxService) {
    super(db, outbox, { kind: 'news', entity: News, createDto: CreateNewsDto });
  }

  /** publishedDate defaults to now on create; on edit, a cleared date keeps the stored one (never a silent "today"). */
  override create(fields: NewsFields, viewer: NonNullable<Viewer>, options?: SaveOptions) {
    return super.create({ ...fields, publishedDate: fields.publishedDate ?? new Date() }, viewer, options);
  }

  /** A new item's preview carries today's date, as its create would. */
  override previewData(id: number | null, fields: NewsFields, viewer: NonNullable<Viewer>) {
    const dated = id === null ? { ...fields, publishedDate: fields.publishedDate ?? new Date() } : fields;
    return super.previewData(id, dated as Partial<News>, viewer);
  }

  override update(id: number, patch: NewsFields & { isDeleted?: boolean }, viewer: NonNullable<Viewer>, options?: SaveOptions) {
    const { publishedDate, ...rest } = patch;
    return super.update(id, publishedDate ? { ...rest, publishedDate } : rest, viewer, options);
  }
}
