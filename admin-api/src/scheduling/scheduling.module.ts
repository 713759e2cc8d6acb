import { Module } from '@nestjs/common';

import { KindsModule } from '../kinds/kinds.module.js';
import { PublishingModule } from '../publishing/publishing.module.js';
import { PublishScheduler } from './publish-scheduler.js';
import { ScheduledController } from './scheduled.controller.js';

@Module({ imports: [KindsModule, PublishingModule], controllers: [ScheduledController], providers: [PublishScheduler] })
export class SchedulingModule {}
