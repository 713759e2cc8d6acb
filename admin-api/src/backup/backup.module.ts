import { Module } from '@nestjs/common';

import { StorageModule } from '../uploads/storage.module.js';
import { BackupScheduler } from './backup-scheduler.js';
import { BackupsController } from './backups.controller.js';

@Module({ imports: [StorageModule], controllers: [BackupsController], providers: [BackupScheduler] })
export class BackupModule {}
