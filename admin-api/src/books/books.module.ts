import { Module } from '@nestjs/common';

import type { KindFeature } from '../kinds/kind-feature.js';
import { KindsModule } from '../kinds/kinds.module.js';
import { PublishingModule } from '../publishing/publishing.module.js';
import { RevisionsModule } from '../revisions/revisions.module.js';
import { Book } from './book.entity.js';
import { BooksController } from './books.controller.js';
import { BooksService } from './books.service.js';
import { CreateBookDto } from './dto/create-book.dto.js';

@Module({ imports: [KindsModule, RevisionsModule, PublishingModule], controllers: [BooksController], providers: [BooksService] })
export class BooksModule {}

/** The kind 'books' in the API (registered in src/kind-modules.ts). */
export const BOOKS: KindFeature = { module: BooksModule, entity: Book, createDto: CreateBookDto };
