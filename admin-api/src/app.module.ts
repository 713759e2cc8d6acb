import path from 'node:path';
import { DynamicModule, Logger, MiddlewareConsumer, Module, NestModule, RequestMethod } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_PIPE } from '@nestjs/core';
import { PassportModule } from '@nestjs/passport';
import { MulterModule } from '@nestjs/platform-express';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PUBLISH_KINDS } from '@portfolio/contract/types';
import multer from 'multer';
import { ArtworksController } from './artworks/artworks.controller.js';
import { ArtworksService } from './artworks/artworks.service.js';
import { AuthController } from './auth/auth.controller.js';
import { AuthService } from './auth/auth.service.js';
import { BearerStrategy } from './auth/bearer.strategy.js';
import { RateLimiter } from './auth/rate-limiter.js';
import { SessionAuthGuard } from './auth/session-auth.guard.js';
import { SessionsService } from './auth/sessions.service.js';
import { Clock } from './auth/clock.js';
import { TwoFactorController } from './auth/two-factor.controller.js';
import { TwoFactorKey } from './auth/two-factor-key.js';
import { TwoFactorService } from './auth/two-factor.service.js';
import { BackupScheduler } from './backup/backup-scheduler.js';
import { BackupsController } from './backup/backups.controller.js';
import { BooksController } from './books/books.controller.js';
import { BooksService } from './books/books.service.js';
import { HttpErrorFilter } from './common/http-error.filter.js';
import { createValidationPipe } from './common/validation.js';
import { APP_CONFIG, type AppConfig } from './config/config.js';
import { ContactsController } from './contacts/contacts.controller.js';
import { ContactsService } from './contacts/contacts.service.js';
import { ContentKinds } from './content/content-kinds.js';
import { PublicReadCache } from './content/public-read-cache.js';
import { dataSourceOptions } from './database/data-source.js';
import { Db } from './database/db.service.js';
import { EssaysController } from './essays/essays.controller.js';
import { EssaysService } from './essays/essays.service.js';
import { HealthController } from './health/health.controller.js';
import { OperationsService } from './operations/operations.service.js';
import { NewsController } from './news/news.controller.js';
import { NewsService } from './news/news.service.js';
import { PlaysController } from './plays/plays.controller.js';
import { PlaysService } from './plays/plays.service.js';
import { ContentVersion } from './publishing/content-version.js';
import { OutboxService } from './publishing/outbox.service.js';
import { PublishingController } from './publishing/publishing.controller.js';
import { PublishingStatusService } from './publishing/publishing-status.service.js';
import { RebuildSender } from './publishing/rebuild-sender.js';
import { RevisionHistory } from './revisions/revision-history.service.js';
import { RevisionsController } from './revisions/revisions.controller.js';
import { RevisionsService } from './revisions/revisions.service.js';
import { SettingsController } from './settings/settings.controller.js';
import { SettingsService } from './settings/settings.service.js';
import { FirstStartService } from './seed/first-start.service.js';
import { PreviewController } from './preview/preview.controller.js';
import { PreviewService } from './preview/preview.service.js';
import { PublishScheduler } from './scheduling/publish-scheduler.js';
import { ScheduledController } from './scheduling/scheduled.controller.js';
import { SiteExportController } from './site-export/site-export.controller.js';
import { SiteExportService } from './site-export/site-export.service.js';
import { FileStorage, storageFor } from './uploads/file-storage.js';
import { UploadsController } from './uploads/uploads.controller.js';
import { UploadsService } from './uploads/uploads.service.js';
import { UsersController } from './users/users.controller.js';
import { UsersService } from './users/users.service.js';
import { MailQueue } from './mail/mail-queue.js';
import { MailTransport } from './mail/mail-transport.js';

@Module({})
export class AppModule implements NestModule {
  configure(consumer: MiddlewareConsumer) {
    consumer
      .apply(PublicReadCache)
      .forRoutes(
        ...PUBLISH_KINDS.flatMap((path) => [
          { path, method: RequestMethod.GET },
          { path: `${path}/:id`, method: RequestMethod.GET },
        ]),
      );
  }

  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        TypeOrmModule.forRoot({ ...dataSourceOptions(config), retryAttempts: 10, retryDelay: 3000 }),
        PassportModule,
        MulterModule.register({
          storage: multer.memoryStorage(),
          limits: { fileSize: config.uploadMaxMb * 1024 * 1024, files: 1, fields: 10 },
        }),
      ],
      controllers: [
        HealthController,
        AuthController,
        TwoFactorController,
        UsersController,
        BooksController,
        EssaysController,
        ArtworksController,
        NewsController,
        PlaysController,
        ContactsController,
        UploadsController,
        SiteExportController,
        PublishingController,
        BackupsController,
        RevisionsController,
        ScheduledController,
        PreviewController,
        SettingsController,
      ],
      providers: [
        { provide: APP_CONFIG, useValue: config },
        { provide: APP_GUARD, useClass: SessionAuthGuard },
        { provide: APP_PIPE, useFactory: createValidationPipe },
        { provide: APP_FILTER, useClass: HttpErrorFilter },
        { provide: FileStorage, useFactory: () => storageFor(config, { warn: (message) => new Logger('Uploads').warn(message) }) },
        Db,
        RateLimiter,
        OperationsService,
        MailTransport,
        MailQueue,
        SessionsService,
        BearerStrategy,
        AuthService,
        Clock,
        TwoFactorKey,
        TwoFactorService,
        UsersService,
        OutboxService,
        RebuildSender,
        PublishingStatusService,
        ContentVersion,
        RevisionsService,
        RevisionHistory,
        ContentKinds,
        BooksService,
        EssaysService,
        ArtworksService,
        NewsService,
        PlaysService,
        ContactsService,
        UploadsService,
        FirstStartService,
        BackupScheduler,
        PublishScheduler,
        PreviewService,
        SiteExportService,
        SettingsService,
      ],
    };
  }
}
