import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import type * as Contract from '@portfolio/contract/types';
import type { EntityManager } from 'typeorm';

import type { AuthContext } from '../auth/auth-context.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { Db } from '../database/db.service.js';
import { OutboxService } from '../publishing/outbox.service.js';
import type { UpdateSettingsDto } from './dto/update-settings.dto.js';
import { SiteSettings } from './site-settings.entity.js';

/**
 * The site settings: one row, made at the first start from the SITE_* variables (config's
 * siteDefaults) and edited in the overlay afterwards. A save is published like any content change:
 * its outbox row (kind 'settings', id 1) is committed in the same transaction, and the builder
 * re-renders the pages that read the settings.
 */
@Injectable()
export class SettingsService implements OnApplicationBootstrap {
  private readonly logger = new Logger('Settings');

  constructor(
    private readonly db: Db,
    private readonly outbox: OutboxService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap() {
    if (await this.db.manager.existsBy(SiteSettings, { id: SiteSettings.ID })) return;
    const made = await this.db.write(async (m) => {
      if (await m.existsBy(SiteSettings, { id: SiteSettings.ID })) return false;
      await m.insert(SiteSettings, this.defaults());
      return true;
    });
    if (made) this.logger.log('Made the site settings from the SITE_* variables (edit them in the overlay from now on)');
  }

  /** GET /api/settings: what every page shows. */
  async publicSettings(): Promise<Contract.PublicSiteSettings> {
    const {
      id: _id,
      lastUpdatedByUserId: _by,
      newsletterSenderName: _name,
      newsletterSenderAddress: _address,
      newsletterFooterEn: _footerEn,
      newsletterFooterAr: _footerAr,
      ...shown
    } = await this.current(this.db.manager);
    return shown as unknown as Contract.PublicSiteSettings;
  }

  /** GET /api/admin/settings. */
  async adminSettings(): Promise<Contract.SiteSettings> {
    return this.adminView(await this.current(this.db.manager));
  }

  /** PATCH /api/admin/settings: the fields sent, saved and queued for publishing together. */
  async update(patch: UpdateSettingsDto, auth: AuthContext): Promise<Contract.SiteSettings> {
    const saved = await this.db.write(async (m) => {
      const lock = m.connection.options.type === 'mysql' ? { lock: { mode: 'pessimistic_write' as const } } : {};
      const row = (await m.findOne(SiteSettings, { where: { id: SiteSettings.ID }, ...lock })) ?? m.create(SiteSettings, this.defaults());
      Object.assign(row, patch, { updatedAt: new Date(), lastUpdatedByUserId: auth.user.id });
      await m.save(SiteSettings, row);
      await this.outbox.record(m, 'settings', SiteSettings.ID, 'update');
      return row;
    });
    this.outbox.committed();
    return this.adminView(saved);
  }

  /** The row, or (a database restored from before settings existed) the first-start values. */
  private async current(m: EntityManager): Promise<SiteSettings> {
    return (await m.findOneBy(SiteSettings, { id: SiteSettings.ID })) ?? m.create(SiteSettings, this.defaults());
  }

  private defaults(): SiteSettings {
    const d = this.config.siteDefaults;
    return Object.assign(new SiteSettings(), {
      ...d,
      socialLinks: d.socialLinks.map((l) => ({ ...l })),
      id: SiteSettings.ID,
      newsletterSenderName: null,
      newsletterSenderAddress: null,
      newsletterFooterEn: null,
      newsletterFooterAr: null,
      updatedAt: new Date(),
      lastUpdatedByUserId: null,
    });
  }

  private adminView(row: SiteSettings): Contract.SiteSettings {
    const { id: _id, ...fields } = row;
    return fields as unknown as Contract.SiteSettings;
  }
}
