import { Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';

const PUBLISHING_STATUS = { schema: { $ref: '#/components/schemas/PublishingStatus' } };
import { PublishingStatusService } from './publishing-status.service.js';

@ApiTags('publishing')
@ApiBearerAuth()
@Controller('admin/publishing')
export class PublishingController {
  constructor(private readonly publishing: PublishingStatusService) {}

  @Get()
  @ApiOkResponse(PUBLISHING_STATUS)
  status() {
    return this.publishing.status();
  }

  /** 'Publish now': 202, since the build itself happens afterwards. */
  @Post()
  @HttpCode(202)
  @ApiAcceptedResponse(PUBLISHING_STATUS)
  publishNow() {
    return this.publishing.publishNow();
  }
}
