import { Module } from '@nestjs/common';

import { PublishingController } from './publishing.controller.js';
import { PublishingModule } from './publishing.module.js';
import { PublishingStatusService } from './publishing-status.service.js';

/** GET/POST /api/admin/publishing: what the site's publishing is doing, and "Publish now". */
@Module({ imports: [PublishingModule], controllers: [PublishingController], providers: [PublishingStatusService] })
export class PublishingStatusModule {}
