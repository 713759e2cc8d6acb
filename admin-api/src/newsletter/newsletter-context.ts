import { Inject, Injectable } from '@nestjs/common';
import type { Lang } from '@portfolio/contract/languages';

import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { Db } from '../database/db.service.js';
import { SiteSettings } from '../settings/site-settings.entity.js';

/** What every newsletter mail takes from the settings (or, before they exist, the configuration). */
export interface MailSettings {
  siteUrl: string;
  from: { name: string; address: string } | null;
  footer: Record<Lang, string | null>;
}

@Injectable()
export class NewsletterContext {
  constructor(
    private readonly db: Db,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async mailSettings(): Promise<MailSettings> {
    const row = await this.db.manager.findOneBy(SiteSettings, { id: SiteSettings.ID });
    const siteUrl = (row?.siteUrl ?? this.config.siteDefaults.siteUrl).replace(/\/+$/, '');
    const address = row?.newsletterSenderAddress ?? null;
    return {
      siteUrl,
      // Line breaks never reach a header: refused when saved, and stripped here for rows from elsewhere (a restore).
      from: address
        ? { name: (row?.newsletterSenderName ?? '').replace(/[\r\n]+/g, ' ').trim(), address: address.replace(/[\r\n\s]+/g, '') }
        : null,
      footer: { en: row?.newsletterFooterEn ?? null, ar: row?.newsletterFooterAr ?? null },
    };
  }
}
