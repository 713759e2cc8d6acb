import { Injectable } from '@nestjs/common';

import { ContentService } from '../content/content.service.js';
import { Db } from '../database/db.service.js';
import { OutboxService } from '../publishing/outbox.service.js';
import { CreateEssayDto } from './dto/create-essay.dto.js';
import { Essay } from './essay.entity.js';

@Injectable()
export class EssaysService extends ContentService<Essay> {
  constructor(db: Db, outbox: OutboxService) {
    super(db, outbox, { kind: 'essays', entity: Essay, createDto: CreateEssayDto });
  }
}
