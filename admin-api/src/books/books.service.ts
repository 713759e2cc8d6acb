import { Injectable } from '@nestjs/common';

import { ContentService } from '../content/content.service.js';
import { Db } from '../database/db.service.js';
import { OutboxService } from '../publishing/outbox.service.js';
import { Book } from './book.entity.js';
import { CreateBookDto } from './dto/create-book.dto.js';

@Injectable()
export class BooksService extends ContentService<Book> {
  constructor(db: Db, outbox: OutboxService) {
    super(db, outbox, { kind: 'books', entity: Book, createDto: CreateBookDto });
  }

  /** Counts a download atomically; only for books a visitor can see. */
  async countDownload(id: number): Promise<{ downloadCount: number }> {
    await this.get(id, null);
    await this.db.write(async (m) => {
      await m
        .createQueryBuilder()
        .update(Book)
        .set({ downloadCount: () => 'downloadCount + 1' })
        .where('id = :id', { id })
        .execute();
      // Renews cached public book answers (PublicReadCache), on every replica.
      await m.query(`UPDATE read_counters SET value = value + 1 WHERE name = 'downloads'`);
    });
    const { downloadCount } = await this.db.manager.findOneOrFail(Book, { where: { id }, select: { id: true, downloadCount: true } });
    return { downloadCount };
  }
}
