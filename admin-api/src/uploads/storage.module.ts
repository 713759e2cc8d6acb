import { Logger, Module } from '@nestjs/common';

import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { FileStorage } from './file-storage.js';
import { storageFor } from './storage-for.js';

/** Where uploaded files are kept (the local folder or an S3 bucket): for uploads, backups, the site export and the demo content. */
@Module({
  providers: [
    {
      provide: FileStorage,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => storageFor(config, { warn: (message) => new Logger('Uploads').warn(message) }),
    },
  ],
  exports: [FileStorage],
})
export class StorageModule {}
