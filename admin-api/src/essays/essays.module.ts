import { Module } from '@nestjs/common';

import type { KindFeature } from '../kinds/kind-feature.js';
import { KindsModule } from '../kinds/kinds.module.js';
import { PublishingModule } from '../publishing/publishing.module.js';
import { RevisionsModule } from '../revisions/revisions.module.js';
import { CreateEssayDto } from './dto/create-essay.dto.js';
import { Essay } from './essay.entity.js';
import { EssaysController } from './essays.controller.js';
import { EssaysService } from './essays.service.js';

@Module({ imports: [KindsModule, RevisionsModule, PublishingModule], controllers: [EssaysController], providers: [EssaysService] })
export class EssaysModule {}

/** The kind 'essays' in the API (registered in src/kind-modules.ts). */
export const ESSAYS: KindFeature = { module: EssaysModule, entity: Essay, createDto: CreateEssayDto };
