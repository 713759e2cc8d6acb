import { Body, Controller, HttpCode, Post, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { CONTENT_KINDS } from '@portfolio/contract/kinds';
import type { Response } from 'express';

import { type AuthContext, CurrentAuth } from '../auth/auth-context.js';
import { PreviewService } from './preview.service.js';
import { PreviewRequestDto } from './preview-request.dto.js';

@ApiTags('preview')
@ApiBearerAuth()
@Controller('admin/preview')
export class PreviewController {
  constructor(private readonly previews: PreviewService) {}

  /**
   * The item's pages (detail, list, home; English then Arabic addresses) rendered by the site's
   * templates with the draft in place. Nothing is saved or published. 409 where there is no builder.
   */
  @Post()
  @HttpCode(200)
  @ApiOkResponse({
    description: 'The rendered pages; never cached (Cache-Control: private, no-store) or indexed (X-Robots-Tag: noindex)',
    schema: {
      type: 'object',
      required: ['kind', 'id', 'pages'],
      properties: {
        kind: { type: 'string', enum: [...CONTENT_KINDS] },
        id: { type: 'integer', description: "The item's id on the pages (a new item gets the next free id there)" },
        pages: {
          type: 'array',
          items: {
            type: 'object',
            required: ['path', 'status', 'html'],
            properties: {
              path: { type: 'string', example: '/books/3' },
              status: { type: 'integer', description: '200, or 404 when the site has no such page' },
              html: { type: 'string' },
            },
          },
        },
      },
    },
  })
  preview(@Body() dto: PreviewRequestDto, @CurrentAuth() auth: AuthContext, @Res({ passthrough: true }) res: Response) {
    res.setHeader('Cache-Control', 'private, no-store');
    res.setHeader('X-Robots-Tag', 'noindex, nofollow');
    return this.previews.preview(dto, auth);
  }
}
