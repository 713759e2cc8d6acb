import { Module } from '@nestjs/common';

import { PublishingModule } from '../publishing/publishing.module.js';
import { StorageModule } from '../uploads/storage.module.js';
import { FirstStartService } from './first-start.service.js';

/** The first start: the first admin, and the demo content when asked for. */
@Module({ imports: [StorageModule, PublishingModule], providers: [FirstStartService] })
export class SeedModule {}
