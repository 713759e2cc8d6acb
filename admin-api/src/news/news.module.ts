import { Module } from '@nestjs/common';

import type { KindFeature } from '../kinds/kind-feature.js';
import { KindsModule } from '../kinds/kinds.module.js';
import { PublishingModule } from '../publishing/publishing.module.js';
import { RevisionsModule } from '../revisions/revisions.module.js';
import { CreateNewsDto } from './dto/create-news.dto.js';
import { NewsController } from './news.controller.js';
import { News } from './news.entity.js';
import { NewsService } from './news.service.js';

@Module({ imports: [KindsModule, RevisionsModule, PublishingModule], controllers: [NewsController], providers: [NewsService] })
export class NewsModule {}

/** The kind 'news' in the API (registered in src/kind-modules.ts). */
export const NEWS: KindFeature = { module: NewsModule, entity: News, createDto: CreateNewsDto };
