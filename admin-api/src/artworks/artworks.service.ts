import { Injectable } from '@nestjs/common';

import { ContentService } from '../content/content.service.js';
import { Db } from '../database/db.service.js';
import { OutboxService } from '../publishing/outbox.service.js';
import { Artwork } from './artwork.entity.js';
import { CreateArtworkDto } from './dto/create-artwork.dto.js';

@Injectable()
export class ArtworksService extends ContentService<Artwork> {
  constructor(db: Db, outbox: OutboxService) {
    super(db, outbox, { kind: 'artworks', entity: Artwork, createDto: CreateArtworkDto });
  }
}
