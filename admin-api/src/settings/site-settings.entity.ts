import type * as Contract from '@portfolio/contract/types';
import { Column, Entity, PrimaryColumn } from 'typeorm';

import type { AssertSame, Serialized } from '../common/json-shape.js';

/** The one row of the site settings (id 1): see the contract's SiteSettings. */
@Entity('site_settings')
export class SiteSettings {
  static readonly ID = 1;

  @PrimaryColumn({ type: 'int' })
  id: number;

  @Column({ type: 'varchar', length: 200 })
  authorNameEn: string;

  @Column({ type: 'varchar', length: 200 })
  authorNameAr: string;

  @Column({ type: 'varchar', length: 300, nullable: true })
  subtitleEn: string | null;

  @Column({ type: 'varchar', length: 300, nullable: true })
  subtitleAr: string | null;

  @Column({ type: 'varchar', length: 1000, nullable: true })
  quoteEn: string | null;

  @Column({ type: 'varchar', length: 1000, nullable: true })
  quoteAr: string | null;

  @Column({ type: 'text' })
  biographyEn: string;

  @Column({ type: 'text' })
  biographyAr: string;

  @Column({ type: 'varchar', length: 500, nullable: true })
  shortBioEn: string | null = null;

  @Column({ type: 'varchar', length: 500, nullable: true })
  shortBioAr: string | null = null;

  @Column({ type: 'varchar', length: 2000, nullable: true })
  portraitImage: string | null;

  @Column({ type: 'varchar', length: 254 })
  contactEmail: string;

  @Column({ type: 'varchar', length: 200, nullable: true })
  locationEn: string | null;

  @Column({ type: 'varchar', length: 200, nullable: true })
  locationAr: string | null;

  @Column({ type: 'simple-json' })
  socialLinks: Contract.SocialLink[];

  @Column({ type: 'varchar', length: 200, nullable: true })
  footerCreditName: string | null;

  @Column({ type: 'varchar', length: 2000, nullable: true })
  footerCreditUrl: string | null;

  @Column({ type: 'int' })
  copyrightYear: number;

  @Column({ type: 'varchar', length: 2000 })
  siteUrl: string;

  @Column({ type: 'varchar', length: 200, nullable: true })
  newsletterSenderName: string | null = null;

  @Column({ type: 'varchar', length: 254, nullable: true })
  newsletterSenderAddress: string | null = null;

  @Column({ type: 'varchar', length: 1000, nullable: true })
  newsletterFooterEn: string | null = null;

  @Column({ type: 'varchar', length: 1000, nullable: true })
  newsletterFooterAr: string | null = null;

  @Column({ type: 'datetime' })
  updatedAt: Date;

  @Column({ type: 'int', nullable: true })
  lastUpdatedByUserId: number | null;
}

/** The admin answer is the contract's SiteSettings plus the row id, which the answer leaves out. */
type AnswerIsContract = AssertSame<Serialized<Omit<SiteSettings, 'id'>>, Contract.SiteSettings>;
