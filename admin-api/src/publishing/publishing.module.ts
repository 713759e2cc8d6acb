import { Module } from '@nestjs/common';

import { ContentVersion } from './content-version.js';
import { OutboxService } from './outbox.service.js';
import { RebuildSender } from './rebuild-sender.js';

/** The way a change reaches the site: the outbox written with each change, and the sender of rebuild requests. */
@Module({ providers: [OutboxService, RebuildSender, ContentVersion], exports: [OutboxService, RebuildSender, ContentVersion] })
export class PublishingModule {}
