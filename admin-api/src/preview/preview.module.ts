import { Module } from '@nestjs/common';

import { KindsModule } from '../kinds/kinds.module.js';
import { PreviewController } from './preview.controller.js';
import { PreviewService } from './preview.service.js';

@Module({ imports: [KindsModule], controllers: [PreviewController], providers: [PreviewService] })
export class PreviewModule {}
