import { Module } from '@nestjs/common';

import { OperationsModule } from '../operations/operations.module.js';
import { PublishingModule } from '../publishing/publishing.module.js';
import { HealthController } from './health.controller.js';

@Module({ imports: [PublishingModule, OperationsModule], controllers: [HealthController] })
export class HealthModule {}
