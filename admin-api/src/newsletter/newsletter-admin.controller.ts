import { Body, Controller, Delete, Get, Header, HttpCode, Param, Post, Query, UploadedFile, UseInterceptors } from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
import { ApiBearerAuth, ApiBody, ApiConsumes, ApiOkResponse, ApiOperation, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';

import { type AuthContext, CurrentAuth } from '../auth/auth-context.js';
import { IdPipe } from '../common/id.pipe.js';
import { CampaignsService } from './campaigns.service.js';
import { DismissOffersDto, NewsletterItemDto, SubscriberListQuery } from './dto/newsletter.dto.js';
import { newsletterSchemaRef } from './newsletter.openapi.js';
import { SubscribersService } from './subscribers.service.js';

@ApiTags('subscribers')
@ApiBearerAuth()
@Controller('subscribers')
export class SubscribersController {
  constructor(private readonly subscribers: SubscribersService) {}

  @Get()
  @ApiOperation({ summary: 'The subscribers, a page at a time, with counts over all of them' })
  @ApiOkResponse({ description: 'SubscriberList', schema: newsletterSchemaRef('SubscriberList') })
  list(@Query() query: SubscriberListQuery) {
    return this.subscribers.list(query);
  }

  @Get('export')
  @Header('Content-Type', 'text/csv; charset=utf-8')
  @Header('Content-Disposition', 'attachment; filename="subscribers.csv"')
  @ApiOperation({ summary: 'Every subscriber as CSV: email,language,topics,state,createdAt,confirmedAt' })
  @ApiProduces('text/csv')
  exportCsv() {
    return this.subscribers.exportCsv();
  }

  @Post('import')
  @HttpCode(200)
  @UseInterceptors(FileInterceptor('file', { limits: { fileSize: 5 * 1024 * 1024, files: 1 } }))
  @ApiConsumes('multipart/form-data')
  @ApiOperation({ summary: 'Adds or updates confirmed subscribers from a CSV (email[,language][,topics]); needs consent=true' })
  @ApiBody({
    schema: {
      type: 'object',
      required: ['file', 'consent'],
      properties: { file: { type: 'string', format: 'binary' }, consent: { type: 'string', enum: ['true'] } },
    },
  })
  @ApiOkResponse({ description: 'SubscriberImportResult', schema: newsletterSchemaRef('SubscriberImportResult') })
  importCsv(@UploadedFile() file: Express.Multer.File | undefined, @Body('consent') consent: unknown) {
    return this.subscribers.importCsv(file?.buffer, consent);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Removes a subscriber completely (their row and their per-campaign rows)' })
  remove(@Param('id', IdPipe) id: number) {
    return this.subscribers.remove(id);
  }
}

@ApiTags('newsletter')
@ApiBearerAuth()
@Controller('newsletter')
export class NewsletterAdminController {
  constructor(private readonly campaigns: CampaignsService) {}

  @Get('offers')
  @ApiOperation({ summary: 'Items that went live for the first time and were neither sent nor dismissed' })
  @ApiOkResponse({ description: 'NewsletterOffer[], newest first', schema: newsletterSchemaRef('NewsletterOffer', true) })
  offers() {
    return this.campaigns.offers();
  }

  @Post('offers/dismiss')
  @HttpCode(204)
  @ApiOperation({ summary: 'Stops offering the items the overlay shows (dismiss all); one offered since stays' })
  dismissAll(@Body() dto: DismissOffersDto) {
    return this.campaigns.dismissAll(dto.offers);
  }

  @Post('offers/:kind/:id/dismiss')
  @HttpCode(204)
  @ApiOperation({ summary: 'Stops offering an item' })
  dismiss(@Param('kind') kind: string, @Param('id', IdPipe) id: number) {
    return this.campaigns.dismiss(kind, id);
  }

  @Get('preview')
  @ApiOperation({ summary: "An item's mail in every language" })
  @ApiOkResponse({ description: 'Record<Lang, MailPreview>', schema: newsletterSchemaRef('NewsletterPreview') })
  preview(@Query() query: NewsletterItemDto) {
    return this.campaigns.preview(query.kind, query.id);
  }

  @Post('test')
  @HttpCode(202)
  @ApiOperation({ summary: "Sends an item's mail in every language to the signed-in admin" })
  @ApiResponse({
    status: 202,
    description: 'notice.newsletterTestSent: the mails are queued',
    schema: newsletterSchemaRef('NewsletterNotice'),
  })
  sendTest(@Body() dto: NewsletterItemDto, @CurrentAuth() auth: AuthContext) {
    return this.campaigns.sendTest(dto.kind, dto.id, auth);
  }

  @Post('campaigns')
  @ApiOperation({ summary: 'Sends a live item to every confirmed subscriber following its kind (once per item)' })
  @ApiResponse({ status: 201, description: 'Campaign', schema: newsletterSchemaRef('Campaign') })
  @ApiResponse({ status: 409, description: 'This item has already been sent to subscribers.' })
  create(@Body() dto: NewsletterItemDto, @CurrentAuth() auth: AuthContext) {
    return this.campaigns.create(dto.kind, dto.id, auth);
  }

  @Get('campaigns')
  @ApiOperation({ summary: 'The campaigns, newest first, with their progress' })
  @ApiOkResponse({ description: 'Campaign[]', schema: newsletterSchemaRef('Campaign', true) })
  list() {
    return this.campaigns.list();
  }

  @Get('campaigns/:id')
  @ApiOperation({ summary: 'One campaign and its progress (poll it while it sends)' })
  @ApiOkResponse({ description: 'Campaign', schema: newsletterSchemaRef('Campaign') })
  get(@Param('id', IdPipe) id: number) {
    return this.campaigns.get(id);
  }
}
