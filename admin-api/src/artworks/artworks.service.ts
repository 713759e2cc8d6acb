import { Injectable } from '@nestjs/common';
import { ContentService } from '../content/content.service.js';
import { Db } from '../database/db.service.js';
import { OutboxService } from '../publishing/outbox.service.js';
import { Artwork } from './artwork.entity.js';
import { LIST_ORDER } from '@portfolio/contract/rules';

@Injectable()
export class ArtworksService extends ContentService<Artwork> {
  constructor(db: Db, outbox: OutboxService) {
    super(db, outbox, {
      kind: 'artworks',
      entity: Artwork,
      notFound: 'error.artworkNotFound',
      publicWhere: {},
      order: LIST_ORDER.artworks,
      adminSeesDeletedByDefault: true,
    });
  }
}
