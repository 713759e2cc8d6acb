import { Module } from '@nestjs/common';

import { PublishingModule } from '../publishing/publishing.module.js';
import { StorageModule } from '../uploads/storage.module.js';
import { ImageVariantJobs } from './image-variant-jobs.js';
import { ImageVariantsController } from './image-variants.controller.js';

/** The variants of uploaded images, made once when they arrive, and GET /api/image-variants. */
@Module({
  imports: [StorageModule, PublishingModule],
  controllers: [ImageVariantsController],
  providers: [ImageVariantJobs],
  exports: [ImageVariantJobs],
})
export class ImageVariantsModule {}
