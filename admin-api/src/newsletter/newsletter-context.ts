import { Inject, Injectable } from '@nestjs/common';
import { type Lang, perLanguage } from '@portfolio/contract/languages';

import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { Db } from '../database/db.service.js';
import { SiteSettings } from '../settings/site-settings.entity.js';

/** A mail's From: `{name, address}`, encoded by nodemailer, never pasted into a header. */
export type Sender = { name: string; address: string };

/** What every newsletter mail takes from the settings (or, before they exist, the configuration). */
export interface MailSettings {
  siteUrl: string;
  /** The author's name in each language (Settings): the site's name in mails. */
  authorName: Record<Lang, string>;
  /** The From of a mail in a language; undefined: MAIL_FROM as the operator set it. */
  from: (lang: Lang) => Sender | undefined;
  footer: Record<Lang, string | null>;
}

/** Line breaks never reach a header: refused when saved, and stripped here for rows from elsewhere (a restore). */
const oneLine = (text: string) => text.replace(/[\r\n]+/g, ' ').trim();

@Injectable()
export class NewsletterContext {
  constructor(
    private readonly db: Db,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * From: the settings' sender address (and name, else the author's); without one, MAIL_FROM when
   * the operator set it; otherwise the author's name at no-reply@ the host of PUBLIC_URL, never
   * "Portfolio <no-reply@localhost>".
   */
  async mailSettings(): Promise<MailSettings> {
    const row = await this.db.manager.findOneBy(SiteSettings, { id: SiteSettings.ID });
    const d = this.config.siteDefaults;
    const siteUrl = (row?.siteUrl ?? d.siteUrl).replace(/\/+$/, '');
    const authorName = perLanguage((lang) =>
      oneLine((lang === 'ar' ? row?.authorNameAr : row?.authorNameEn) ?? (lang === 'ar' ? d.authorNameAr : d.authorNameEn)),
    );
    const address = row?.newsletterSenderAddress?.replace(/[\r\n\s]+/g, '') || null;
    const name = row?.newsletterSenderName ? oneLine(row.newsletterSenderName) : null;
    const fallbackAddress = this.config.mail.fromIsDefault ? `no-reply@${new URL(this.config.publicUrl).hostname || 'localhost'}` : null;
    return {
      siteUrl,
      authorName,
      from: (lang) => {
        const sender = address ?? fallbackAddress;
        return sender ? { name: name ?? authorName[lang], address: sender } : undefined;
      },
      footer: { en: row?.newsletterFooterEn ?? null, ar: row?.newsletterFooterAr ?? null },
    };
  }
}
