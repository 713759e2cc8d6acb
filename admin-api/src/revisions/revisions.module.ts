import { Module } from '@nestjs/common';

import { RevisionsService } from './revisions.service.js';

/** The revisions store, written by every content change. */
@Module({ providers: [RevisionsService], exports: [RevisionsService] })
export class RevisionsModule {}
