import { type DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_PIPE } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CONTENT_KINDS } from '@portfolio/contract/kinds';

import { AuthModule } from './auth/auth.module.js';
import { BackupModule } from './backup/backup.module.js';
import { CommonModule } from './common/common.module.js';
import { HttpErrorFilter } from './common/http-error.filter.js';
import { createValidationPipe } from './common/validation.js';
import type { AppConfig } from './config/config.js';
import { ContactsModule } from './contacts/contacts.module.js';
import { ContentModule } from './content/content.module.js';
import { dataSourceOptions } from './database/data-source.js';
import { DatabaseModule } from './database/database.module.js';
import { HealthModule } from './health/health.module.js';
import { ImageVariantsModule } from './image-variants/image-variants.module.js';
import { ImportsModule } from './import/imports.module.js';
import { KIND_FEATURES } from './kind-modules.js';
import { NewsletterModule } from './newsletter/newsletter.module.js';
import { PreviewModule } from './preview/preview.module.js';
import { PublishingStatusModule } from './publishing/publishing-status.module.js';
import { RevisionHistoryModule } from './revisions/revision-history.module.js';
import { SchedulingModule } from './scheduling/scheduling.module.js';
import { SeedModule } from './seed/seed.module.js';
import { SettingsModule } from './settings/settings.module.js';
import { SiteExportModule } from './site-export/site-export.module.js';
import { UploadsModule } from './uploads/uploads.module.js';
import { UsersModule } from './users/users.module.js';

/**
 * The whole API: one module per feature and per content kind. The modules with routes are listed
 * in the order their routes appear in the OpenAPI document; the modules they share (publishing,
 * revisions, kinds, mail, operations) have no routes of their own, so importing them changes no order.
 */
@Module({})
export class AppModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        TypeOrmModule.forRoot({ ...dataSourceOptions(config), retryAttempts: 10, retryDelay: 3000 }),
        CommonModule.forRoot(config),
        DatabaseModule,
        HealthModule,
        AuthModule,
        UsersModule,
        ...CONTENT_KINDS.map((kind) => KIND_FEATURES[kind].module),
        ContentModule,
        ContactsModule,
        NewsletterModule,
        UploadsModule,
        ImageVariantsModule,
        SiteExportModule,
        PublishingStatusModule,
        BackupModule,
        RevisionHistoryModule,
        SchedulingModule,
        PreviewModule,
        SettingsModule,
        ImportsModule,
        SeedModule,
      ],
      providers: [
        { provide: APP_PIPE, useFactory: createValidationPipe },
        { provide: APP_FILTER, useClass: HttpErrorFilter },
      ],
    };
  }
}
