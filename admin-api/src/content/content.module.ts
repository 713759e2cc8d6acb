import { type MiddlewareConsumer, Module, type NestModule, RequestMethod } from '@nestjs/common';
import { CONTENT_KINDS } from '@portfolio/contract/kinds';

import { AuthModule } from '../auth/auth.module.js';
import { PublishingModule } from '../publishing/publishing.module.js';
import { PublicReadCache } from './public-read-cache.js';

/** The cache of public content answers, in front of every kind's public list and item routes. */
@Module({ imports: [AuthModule, PublishingModule] })
export class ContentModule implements NestModule {
  configure(consumer: MiddlewareConsumer) {
    consumer.apply(PublicReadCache).forRoutes(
      ...[...CONTENT_KINDS, 'settings'].flatMap((path) => [
        { path, method: RequestMethod.GET },
        { path: `${path}/:id`, method: RequestMethod.GET },
      ]),
    );
  }
}
