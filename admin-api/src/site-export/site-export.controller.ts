import { Controller, Get, Header } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';

import { SiteExportService } from './site-export.service.js';

@ApiTags('site export')
@ApiBearerAuth()
@Controller('admin/site-export')
export class SiteExportController {
  constructor(private readonly siteExport: SiteExportService) {}

  /** 'Download the site': the live site as a ZIP that works from any static host or from file://. */
  @Get()
  @ApiOperation({
    summary: 'Download the live site as a ZIP',
    description:
      'A copy of the current live site that works from any static host or opened from a folder (file://): relative addresses, the uploads its pages show, image variants and assets; no Admin button, and the contact page says that messages cannot be sent from the copy. Streamed; 409 (error.siteNotBuilt) before the first build is live. Admins only.',
  })
  @ApiProduces('application/zip')
  @ApiOkResponse({
    description: 'The ZIP archive (Content-Disposition: attachment; filename="site-YYYY-MM-DD.zip").',
    content: { 'application/zip': { schema: { type: 'string', format: 'binary' } } },
  })
  @Header('Cache-Control', 'no-store')
  download() {
    return this.siteExport.zip();
  }
}
