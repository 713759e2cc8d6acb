import { Module } from '@nestjs/common';

import type { KindFeature } from '../kinds/kind-feature.js';
import { KindsModule } from '../kinds/kinds.module.js';
import { PublishingModule } from '../publishing/publishing.module.js';
import { RevisionsModule } from '../revisions/revisions.module.js';
import { CreatePlayDto } from './dto/create-play.dto.js';
import { Play } from './play.entity.js';
import { PlaysController } from './plays.controller.js';
import { PlaysService } from './plays.service.js';

@Module({ imports: [KindsModule, RevisionsModule, PublishingModule], controllers: [PlaysController], providers: [PlaysService] })
export class PlaysModule {}

/** The kind 'plays' in the API (registered in src/kind-modules.ts). */
export const PLAYS: KindFeature = { module: PlaysModule, entity: Play, createDto: CreatePlayDto };
