import { Module } from '@nestjs/common';

import { KindsModule } from '../kinds/kinds.module.js';
import { RevisionHistory } from './revision-history.service.js';
import { RevisionsController } from './revisions.controller.js';
import { RevisionsModule } from './revisions.module.js';

/** The revisions routes of every kind: histories, and restores through the kind's service. */
@Module({ imports: [RevisionsModule, KindsModule], controllers: [RevisionsController], providers: [RevisionHistory] })
export class RevisionHistoryModule {}
