import { Module } from '@nestjs/common';

import { MailQueue } from './mail-queue.js';
import { MailTransport } from './mail-transport.js';

@Module({ providers: [MailTransport, MailQueue], exports: [MailQueue, MailTransport] })
export class MailModule {}
