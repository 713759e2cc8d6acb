import { Body, Controller, Get, HttpException, HttpStatus, Ip, Post, Put, Query, Req, Res } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiOkResponse, ApiOperation, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import { isLang, type Lang } from '@portfolio/contract/languages';
import { messageText } from '@portfolio/contract/messages';
import type { Request, Response } from 'express';

import { Public } from '../auth/auth-context.js';
import { refusal } from '../common/api-message.js';
import { PreferencesDto, SubscribeDto } from './dto/newsletter.dto.js';
import { newsletterSchemaRef } from './newsletter.openapi.js';
import { NewsletterPublicService, sitePage } from './public.service.js';

const isForm = (req: Request) => req.is('application/x-www-form-urlencoded') === 'application/x-www-form-urlencoded';
const langOf = (value: unknown): Lang => (isLang(value) ? value : 'en');
const tokenQuery = { name: 'token', required: true, description: 'The token of a link in a newsletter mail.' };

/** What readers reach without signing in: from the site's form and pages, and from the links in mails. */
@ApiTags('newsletter')
@Public()
@Controller('newsletter')
export class NewsletterPublicController {
  constructor(private readonly service: NewsletterPublicService) {}

  @Post('subscribe')
  @ApiOperation({
    summary: 'Subscribes (double opt-in): a confirmation mail in the chosen language; the same answer whatever the address',
    description:
      'A plain HTML form (x-www-form-urlencoded) is answered with 303 to /newsletter/check-inbox, or /newsletter/error on bad input or over the rate limit (under /ar/ when lang=ar).',
  })
  @ApiConsumes('application/json', 'application/x-www-form-urlencoded')
  @ApiBody({ type: SubscribeDto })
  @ApiResponse({
    status: 202,
    description: '{ message: "Check your inbox to confirm your subscription.", messageKey: "notice.newsletterCheckInbox" }',
    schema: newsletterSchemaRef('NewsletterNotice'),
  })
  @ApiResponse({ status: 303, description: 'A form post: to the check-inbox page, or the error page.' })
  @ApiResponse({ status: 400, description: 'Bad input (JSON).' })
  @ApiResponse({ status: 429, description: 'Over the rate limit (JSON).' })
  async subscribe(@Body() body: Record<string, unknown>, @Ip() ip: string, @Req() req: Request, @Res() res: Response) {
    const fields = body && typeof body === 'object' ? body : {};
    if (!isForm(req)) {
      res.status(HttpStatus.ACCEPTED).json(await this.service.subscribe(fields, ip));
      return;
    }
    const lang = langOf(fields.lang);
    try {
      await this.service.subscribe(fields, ip);
      res.redirect(HttpStatus.SEE_OTHER, sitePage(lang, 'check-inbox'));
    } catch (error) {
      if (!(error instanceof HttpException) || error.getStatus() >= 500) throw error;
      res.redirect(HttpStatus.SEE_OTHER, sitePage(lang, 'error'));
    }
  }

  @Get('confirm')
  @ApiOperation({
    summary:
      'The link of a confirmation mail: 303 to /newsletter/confirmed, /newsletter/already-subscribed (opened again while subscribed), or /newsletter/link-invalid (48 h)',
  })
  @ApiQuery(tokenQuery)
  @ApiResponse({ status: 303, description: 'To the confirmed, already-subscribed or link-invalid page, in the reader’s language.' })
  async confirm(@Query('token') token: string, @Res() res: Response) {
    res.redirect(HttpStatus.SEE_OTHER, await this.service.confirm(token));
  }

  @Get('preferences')
  @ApiOperation({ summary: "A reader's preferences, by the token of their mail's link" })
  @ApiQuery(tokenQuery)
  @ApiOkResponse({ description: 'NewsletterPreferences', schema: newsletterSchemaRef('NewsletterPreferences') })
  @ApiResponse({ status: 404, description: 'Unknown token.' })
  preferences(@Query('token') token: string) {
    return this.service.preferences(token);
  }

  @Put('preferences')
  @ApiOperation({ summary: "Changes a reader's language and topics (topics given by an unsubscribed reader subscribe them again)" })
  @ApiQuery(tokenQuery)
  @ApiBody({ type: PreferencesDto })
  @ApiOkResponse({ description: 'NewsletterPreferences', schema: newsletterSchemaRef('NewsletterPreferences') })
  @ApiResponse({ status: 404, description: 'Unknown token.' })
  updatePreferences(@Query('token') token: string, @Body() body: Record<string, unknown>) {
    return this.service.updatePreferences(token, body && typeof body === 'object' ? body : {});
  }

  @Post('unsubscribe')
  @ApiOperation({
    summary: 'Unsubscribes at once: RFC 8058 one-click (List-Unsubscribe=One-Click), or the preferences page’s form (field token, lang)',
    description:
      'One-click: 200 text/plain "You have been unsubscribed." (404 for an unknown token). The form: 303 to /newsletter/unsubscribed or /newsletter/link-invalid. A replay changes nothing.',
  })
  @ApiConsumes('application/x-www-form-urlencoded')
  @ApiQuery({ ...tokenQuery, required: false })
  @ApiResponse({ status: 200, description: 'text/plain: You have been unsubscribed.' })
  @ApiResponse({ status: 303, description: 'A form post from the preferences page.' })
  @ApiResponse({ status: 404, description: 'Unknown token.' })
  async unsubscribe(
    @Query('token') queryToken: string | undefined,
    @Body() body: Record<string, unknown>,
    @Req() req: Request,
    @Res() res: Response,
  ) {
    const fields = body && typeof body === 'object' ? body : {};
    const oneClick = fields['List-Unsubscribe'] === 'One-Click';
    const form = isForm(req) && !oneClick;
    const language = await this.service.unsubscribe(queryToken ?? fields.token);
    if (form) {
      // The page the reader was on says which language to answer in; without it, the reader's own.
      const pageLang = isLang(fields.lang) ? fields.lang : (language ?? 'en');
      res.redirect(HttpStatus.SEE_OTHER, sitePage(pageLang, language ? 'unsubscribed' : 'link-invalid'));
      return;
    }
    if (!language) throw new HttpException(refusal('error.newsletterLinkInvalid'), HttpStatus.NOT_FOUND);
    res.status(HttpStatus.OK).type('text/plain').send(messageText('notice.newsletterUnsubscribed', 'en'));
  }
}
