import { mkdirSync } from 'node:fs';
import path from 'node:path';

import Database from 'libsql';
import { DataSource, type DataSourceOptions } from 'typeorm';

import { Artwork } from '../artworks/artwork.entity.js';
import { AdminRecoveryCode } from '../auth/admin-recovery-code.entity.js';
import { AdminSession } from '../auth/admin-session.entity.js';
import { AdminTotp } from '../auth/admin-totp.entity.js';
import { AdminUser } from '../auth/admin-user.entity.js';
import { LoginChallenge } from '../auth/login-challenge.entity.js';
import { PasswordResetToken } from '../auth/password-reset-token.entity.js';
import { BackupState } from '../backup/backup-state.entity.js';
import { Book } from '../books/book.entity.js';
import type { AppConfig } from '../config/config.js';
import { Contact } from '../contacts/contact.entity.js';
import { Essay } from '../essays/essay.entity.js';
import { ImageVariantJob } from '../image-variants/image-variant-job.entity.js';
import { ImportJobRow } from '../import/import-job.entity.js';
import { ImportedItem } from '../import/imported-item.entity.js';
import { OutgoingMail } from '../mail/outgoing-mail.entity.js';
import { News } from '../news/news.entity.js';
import { Campaign, Delivery, Offer, Subscriber } from '../newsletter/entities.js';
import { Play } from '../plays/play.entity.js';
import { OutboxEvent } from '../publishing/outbox-event.entity.js';
import { PublishAttempt } from '../publishing/publish-attempt.entity.js';
import { ContentRevision } from '../revisions/content-revision.entity.js';
import { SiteSettings } from '../settings/site-settings.entity.js';
import { InitialSchema1763700000000 } from './migrations/1763700000000-initial-schema.js';
import { PublishAttempts1763800000000 } from './migrations/1763800000000-publish-attempts.js';
import { ReadCounters1763900000000 } from './migrations/1763900000000-read-counters.js';
import { Revisions1764000000000 } from './migrations/1764000000000-revisions.js';
import { Backups1764100000000 } from './migrations/1764100000000-backups.js';
import { TwoFactor1764200000000 } from './migrations/1764200000000-two-factor.js';
import { Translations1764300000000 } from './migrations/1764300000000-translations.js';
import { Settings1764400000000 } from './migrations/1764400000000-settings.js';
import { PublishAt1764500000000 } from './migrations/1764500000000-publish-at.js';
import { Replicas1764700000000 } from './migrations/1764700000000-replicas.js';
import { MailQueue1764800000000 } from './migrations/1764800000000-mail-queue.js';
import { Newsletter1764900000000 } from './migrations/1764900000000-newsletter.js';
import { Imports1765100000000 } from './migrations/1765100000000-imports.js';
import { NewsletterLinks1765170000000 } from './migrations/1765170000000-newsletter-links.js';
import { ImportResults1765320000000 } from './migrations/1765320000000-import-results.js';
import { ShortBio1765400000000 } from './migrations/1765400000000-short-bio.js';
import { TextFormat1765410000000 } from './migrations/1765410000000-text-format.js';
import { ImageVariants1765500000000 } from './migrations/1765500000000-image-variants.js';

export const ENTITIES = [
  AdminUser,
  AdminSession,
  PasswordResetToken,
  Book,
  Essay,
  Artwork,
  News,
  Play,
  Contact,
  OutboxEvent,
  PublishAttempt,
  ContentRevision,
  AdminTotp,
  AdminRecoveryCode,
  LoginChallenge,
  BackupState,
  SiteSettings,
  OutgoingMail,
  Subscriber,
  Campaign,
  Delivery,
  Offer,
  ImportJobRow,
  ImportedItem,
  ImageVariantJob,
];
export const MIGRATIONS = [
  InitialSchema1763700000000,
  PublishAttempts1763800000000,
  ReadCounters1763900000000,
  Revisions1764000000000,
  Backups1764100000000,
  TwoFactor1764200000000,
  Translations1764300000000,
  Settings1764400000000,
  PublishAt1764500000000,
  Replicas1764700000000,
  MailQueue1764800000000,
  Newsletter1764900000000,
  Imports1765100000000,
  NewsletterLinks1765170000000,
  ImportResults1765320000000,
  ShortBio1765400000000,
  TextFormat1765410000000,
  ImageVariants1765500000000,
];

/**
 * libsql, with every transaction begun IMMEDIATE: it takes the write lock when it starts, so the busy
 * timeout waits for another process's write (a second replica, a backup). A deferred transaction that
 * reads before it writes would instead fail at once with SQLITE_BUSY when it upgrades to a writer
 * (SQLite cannot wait there without risking a deadlock). TypeORM begins every transaction with exactly
 * this statement (migrations, `Db.write`, its own implicit ones).
 */
class ImmediateTransactions extends Database {
  override prepare<P extends unknown[] | object = unknown[]>(sql: string) {
    return super.prepare<P>(sql === 'BEGIN TRANSACTION' ? 'BEGIN IMMEDIATE TRANSACTION' : sql);
  }
}

export function dataSourceOptions(config: AppConfig): DataSourceOptions {
  const common = {
    entities: ENTITIES,
    migrations: MIGRATIONS,
    migrationsRun: true,
    migrationsTransactionMode: 'each' as const,
    synchronize: false,
    logging: false,
    invalidWhereValuesBehavior: { null: 'throw', undefined: 'throw' } as const,
  };
  if (config.database.kind === 'sqlite') {
    mkdirSync(path.dirname(config.database.file), { recursive: true });
    return {
      ...common,
      type: 'better-sqlite3',
      driver: ImmediateTransactions,
      database: config.database.file,
      enableWAL: true,
      prepareDatabase: (db: { pragma(sql: string): unknown }) => {
        db.pragma('busy_timeout = 5000');
        db.pragma('synchronous = NORMAL');
      },
    };
  }
  return {
    ...common,
    type: 'mysql',
    host: config.database.host,
    port: config.database.port,
    username: config.database.user,
    password: config.database.password,
    database: config.database.database,
    timezone: 'Z',
    charset: 'utf8mb4_unicode_ci',
    connectTimeout: 5000,
    poolSize: 10,
    extra: { enableKeepAlive: true, maxIdle: 10, idleTimeout: 60_000 },
  };
}

/**
 * A connection of its own for a backup or a restore, also inside the API process: on SQLite a
 * second connection reads a snapshot (WAL) while the API's one connection keeps writing. Never
 * migrates by itself: a restore checks that the target is empty before it creates anything.
 */
export async function openDataSource(config: AppConfig): Promise<DataSource> {
  const options = dataSourceOptions(config);
  const dataSource = new DataSource({
    ...options,
    migrationsRun: false,
    ...(options.type === 'mysql' ? { poolSize: 2 } : {}),
  } as typeof options);
  await dataSource.initialize();
  return dataSource;
}
