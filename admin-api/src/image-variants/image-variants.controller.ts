import { Controller, Get, NotFoundException, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { ImageVariantsState } from '@portfolio/contract/image-variants';

import { Public } from '../auth/auth-context.js';
import { refusal } from '../common/api-message.js';
import { ref } from '../common/openapi-schema.js';
import { ImageVariantJobs } from './image-variant-jobs.js';

/** OpenAPI schema of the answer (the contract's ImageVariantsState). */
export const IMAGE_VARIANTS_SCHEMAS = {
  ImageVariantsState: {
    type: 'object',
    required: ['id', 'path', 'state'],
    properties: {
      id: { type: 'integer', description: "The job's id: a finished job is published as a change of kind `image-variants` with this id." },
      path: { type: 'string', example: '/uploads/books/mf3k2a-0123456789abcdef-1200x800.jpg' },
      state: {
        type: 'string',
        enum: ['pending', 'done', 'failed'],
        description:
          '`pending`: not made yet, or being made; `done`: every variant is in the uploads storage (under /uploads/_variants/); `failed`: given up (not an image the encoder reads).',
      },
    },
  },
};

@ApiTags('uploads')
@Controller('image-variants')
export class ImageVariantsController {
  constructor(private readonly jobs: ImageVariantJobs) {}

  @Public()
  @Get()
  @ApiOperation({ summary: "Whether an upload's image variants are made (read by the site's renderer when a variant is not there yet)" })
  @ApiQuery({ name: 'path', type: 'string', description: 'The upload, /uploads/<folder>/<name>' })
  @ApiOkResponse({ schema: ref('ImageVariantsState') })
  @ApiNotFoundResponse({ description: 'error.notFound: no job for that path (not an uploaded image).' })
  async state(@Query('path') uploadPath?: unknown): Promise<ImageVariantsState> {
    const found = typeof uploadPath === 'string' && uploadPath.length <= 255 ? await this.jobs.state(uploadPath) : null;
    if (!found) throw new NotFoundException(refusal('error.notFound'));
    return found;
  }
}
