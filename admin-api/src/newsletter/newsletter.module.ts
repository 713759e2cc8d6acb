import { type MiddlewareConsumer, Module, type NestModule, RequestMethod } from '@nestjs/common';
import express from 'express';

import { AuthModule } from '../auth/auth.module.js';
import { KindsModule } from '../kinds/kinds.module.js';
import { MailModule } from '../mail/mail.module.js';
import { CampaignsService } from './campaigns.service.js';
import { NewsletterAdminController, SubscribersController } from './newsletter-admin.controller.js';
import { NewsletterContext } from './newsletter-context.js';
import { NewsletterPublicController } from './newsletter-public.controller.js';
import { NewsletterPublicService } from './public.service.js';
import { NewsletterSender } from './sender.js';
import { SubscribersService } from './subscribers.service.js';
import { NewsletterTokens } from './tokens.js';

/** The newsletter (issue 25): subscriptions, the admin's subscribers and campaigns, and the sender. */
@Module({
  imports: [AuthModule, KindsModule, MailModule],
  controllers: [NewsletterPublicController, NewsletterAdminController, SubscribersController],
  providers: [NewsletterTokens, NewsletterContext, NewsletterPublicService, SubscribersService, CampaignsService, NewsletterSender],
})
export class NewsletterModule implements NestModule {
  // Plain HTML forms (no script) post here; the rest of the API takes JSON only.
  configure(consumer: MiddlewareConsumer) {
    consumer
      .apply(express.urlencoded({ extended: false, limit: '16kb', parameterLimit: 20 }))
      .forRoutes(
        { path: 'newsletter/subscribe', method: RequestMethod.POST },
        { path: 'newsletter/unsubscribe', method: RequestMethod.POST },
      );
  }
}
