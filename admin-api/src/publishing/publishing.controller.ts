import { Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { PublishingStatusService } from './publishing-status.service.js';

@ApiTags('publishing')
@ApiBearerAuth()
@Controller('admin/publishing')
export class PublishingController {
  constructor(private readonly publishing: PublishingStatusService) {}

  @Get()
  status() {
    return this.publishing.status();
  }

  /** 'Publish now': 202, since the build itself happens afterwards. */
  @Post()
  @HttpCode(202)
  publishNow() {
    return this.publishing.publishNow();
  }
}
