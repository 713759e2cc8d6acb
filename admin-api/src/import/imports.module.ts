import { Module } from '@nestjs/common';

import { ImageVariantsModule } from '../image-variants/image-variants.module.js';
import { KindsModule } from '../kinds/kinds.module.js';
import { PublishingModule } from '../publishing/publishing.module.js';
import { StorageModule } from '../uploads/storage.module.js';
import { UploadsService } from '../uploads/uploads.service.js';
import { ImportUploadInterceptor } from './import-upload.interceptor.js';
import { ImportsController } from './imports.controller.js';
import { ImportsService } from './imports.service.js';

/** /api/imports: another blog's export read, planned, and applied as a job (and `npm run import`). */
@Module({
  imports: [KindsModule, PublishingModule, StorageModule, ImageVariantsModule],
  controllers: [ImportsController],
  providers: [ImportsService, UploadsService, ImportUploadInterceptor],
  exports: [ImportsService],
})
export class ImportsModule {}
