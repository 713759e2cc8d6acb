import { randomBytes } from 'node:crypto';

import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';

import { AdminUser } from '../auth/admin-user.entity.js';
import { hashPassword } from '../auth/passwords.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { Db } from '../database/db.service.js';
import { ImageVariantJobs } from '../image-variants/image-variant-jobs.js';
import { OutboxService } from '../publishing/outbox.service.js';
import { FileStorage } from '../uploads/file-storage.js';
import { seedDemoContent } from './demo-content.js';

/**
 * On the very first start (no admin exists yet): creates the superadmin from ADMIN_* and, unless
 * SEED_DEMO=false, a few demo items of every type so a new install shows a living site.
 */
@Injectable()
export class FirstStartService implements OnApplicationBootstrap {
  private readonly logger = new Logger('FirstStart');

  constructor(
    private readonly db: Db,
    private readonly storage: FileStorage,
    private readonly outbox: OutboxService,
    private readonly variants: ImageVariantJobs,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap() {
    if ((await this.db.manager.count(AdminUser)) > 0) return;
    const { username, email } = this.config.admin;
    const generated = this.config.admin.password === null;
    const password = this.config.admin.password ?? randomBytes(12).toString('base64url');
    const passwordHash = await hashPassword(password);

    const demo = this.config.seedDemo ? await seedDemoContent.prepareImages(this.storage) : null;
    const created = await this.db.write(async (m) => {
      if ((await m.count(AdminUser)) > 0) return null;
      const admin = await m.save(m.create(AdminUser, { username, email, name: 'Site Administrator', passwordHash, isSuperadmin: true }));
      if (demo) await seedDemoContent.insert(m, admin.id, demo, this.outbox);
      return admin;
    });
    if (!created) return;
    this.outbox.committed();
    this.variants.wake();
    this.logger.log(`Created the first admin "${username}"${demo ? ' and demo content' : ''}`);
    if (generated) {
      // Printed once, on the console only, because nobody chose this password yet.
      process.stdout.write(
        `\n  First admin account created.\n    username: ${username}\n    password: ${password}\n  Keep it safe: it is shown only this once. Set ADMIN_PASSWORD to choose your own.\n\n`,
      );
    }
  }
}
