import { Module } from '@nestjs/common';

import { StorageModule } from '../uploads/storage.module.js';
import { SiteExportController } from './site-export.controller.js';
import { SiteExportService } from './site-export.service.js';

@Module({ imports: [StorageModule], controllers: [SiteExportController], providers: [SiteExportService] })
export class SiteExportModule {}
