import { Controller, Get } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { CONTENT_KINDS } from '@portfolio/contract/types';

import { PublishScheduler } from './publish-scheduler.js';

@ApiTags('scheduling')
@ApiBearerAuth()
@Controller('admin/scheduled')
export class ScheduledController {
  constructor(private readonly scheduler: PublishScheduler) {}

  /** Books, essays, news and plays (not in the trash) whose publication time is still ahead, soonest first. */
  @Get()
  @ApiOkResponse({
    description: 'Items that go live by themselves at `publishAt` (UTC), soonest first',
    schema: {
      type: 'array',
      items: {
        type: 'object',
        required: ['kind', 'id', 'title', 'publishAt'],
        properties: {
          kind: { type: 'string', enum: [...CONTENT_KINDS] },
          id: { type: 'integer' },
          title: { type: 'string' },
          publishAt: { type: 'string', format: 'date-time' },
        },
      },
    },
  })
  list() {
    return this.scheduler.upcoming();
  }
}
