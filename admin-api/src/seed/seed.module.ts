import { Module } from '@nestjs/common';

import { ImageVariantsModule } from '../image-variants/image-variants.module.js';
import { PublishingModule } from '../publishing/publishing.module.js';
import { StorageModule } from '../uploads/storage.module.js';
import { FirstStartService } from './first-start.service.js';

/** The first start: the first admin, and the demo content when asked for. */
@Module({ imports: [StorageModule, PublishingModule, ImageVariantsModule], providers: [FirstStartService] })
export class SeedModule {}
