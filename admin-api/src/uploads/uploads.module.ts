import { Module } from '@nestjs/common';
import { MulterModule } from '@nestjs/platform-express';
import multer from 'multer';

import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { ImageVariantsModule } from '../image-variants/image-variants.module.js';
import { StorageModule } from './storage.module.js';
import { UploadsController } from './uploads.controller.js';
import { UploadsService } from './uploads.service.js';

/** POST /api/upload: a file checked and stored. */
@Module({
  imports: [
    StorageModule,
    ImageVariantsModule,
    MulterModule.registerAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => ({
        storage: multer.memoryStorage(),
        limits: { fileSize: config.uploadMaxMb * 1024 * 1024, files: 1, fields: 10 },
      }),
    }),
  ],
  controllers: [UploadsController],
  providers: [UploadsService],
})
export class UploadsModule {}
