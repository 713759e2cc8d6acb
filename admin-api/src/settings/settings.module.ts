import { Module } from '@nestjs/common';

import { PublishingModule } from '../publishing/publishing.module.js';
import { SettingsController } from './settings.controller.js';
import { SettingsService } from './settings.service.js';

@Module({ imports: [PublishingModule], controllers: [SettingsController], providers: [SettingsService] })
export class SettingsModule {}
