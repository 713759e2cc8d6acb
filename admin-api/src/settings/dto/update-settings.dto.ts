import { applyDecorators } from '@nestjs/common';
import { SETTINGS_LIMITS as MAX } from '@portfolio/contract/settings';
import type { NewsletterSettingsInput, SiteSettingsInput } from '@portfolio/contract/types';
import { Transform, Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsObject, Matches, MaxLength, ValidateNested } from 'class-validator';

import { messageOption } from '../../common/api-message.js';
import type { AssertSame, Serialized } from '../../common/json-shape.js';
import {
  IsEmailAddress,
  IsWebLink,
  OptionalFilePath,
  OptionalLink,
  OptionalText,
  PresentOrAbsent,
  RequiredInt,
  RequiredText,
} from '../../common/validators.js';

/** A field the settings always have: it may be left out of a PATCH, but not blanked. */
const Kept = (...decorators: PropertyDecorator[]) => applyDecorators(PresentOrAbsent(), ...decorators);

export class SocialLinkDto {
  @RequiredText(MAX.linkName, 'validation.linkNameRequired')
  label: string;

  @RequiredText(MAX.link, 'validation.linkRequired')
  @IsWebLink()
  url: string;
}

/** PATCH /api/admin/settings: any of the fields; each one sent is checked as the whole form would be. */
export class UpdateSettingsDto {
  @Kept(RequiredText(MAX.name, 'validation.authorNameRequired'))
  authorNameEn?: string;

  @Kept(RequiredText(MAX.name, 'validation.authorNameRequired'))
  authorNameAr?: string;

  @OptionalText(MAX.subtitle)
  subtitleEn?: string | null;

  @OptionalText(MAX.subtitle)
  subtitleAr?: string | null;

  @OptionalText(MAX.quote)
  quoteEn?: string | null;

  @OptionalText(MAX.quote)
  quoteAr?: string | null;

  @Kept(RequiredText(MAX.biography, 'validation.biographyRequired'))
  biographyEn?: string;

  @Kept(RequiredText(MAX.biography, 'validation.biographyRequired'))
  biographyAr?: string;

  @OptionalText(MAX.shortBio)
  shortBioEn?: string | null;

  @OptionalText(MAX.shortBio)
  shortBioAr?: string | null;

  @OptionalFilePath()
  portraitImage?: string | null;

  @Kept(RequiredText(MAX.email, 'validation.emailRequired'), IsEmailAddress())
  contactEmail?: string;

  @OptionalText(MAX.location)
  locationEn?: string | null;

  @OptionalText(MAX.location)
  locationAr?: string | null;

  @Kept(
    Transform(({ value }) => (value === null ? [] : value)),
    IsArray(messageOption('validation.linkList')),
    ArrayMaxSize(MAX.socialLinks, messageOption('validation.maxEntries', { max: MAX.socialLinks })),
    IsObject(messageOption('validation.linkList', undefined, { each: true })),
    ValidateNested({ each: true }),
    Type(() => SocialLinkDto),
  )
  socialLinks?: SocialLinkDto[];

  @OptionalText(MAX.name)
  footerCreditName?: string | null;

  @OptionalLink()
  footerCreditUrl?: string | null;

  @Kept(RequiredInt(1000, 9999, 'label.copyrightYear', 'validation.yearRequired'))
  copyrightYear?: number;

  @Kept(RequiredText(MAX.link, 'validation.siteUrlRequired'), IsWebLink(), MaxLength(MAX.link))
  siteUrl?: string;

  /** A header value: a line break would let it write headers of its own. */
  @OptionalText(MAX.name)
  @Matches(/^[^\r\n]*$/, messageOption('validation.oneLine'))
  newsletterSenderName?: string | null;

  @OptionalText(MAX.email)
  @IsEmailAddress()
  newsletterSenderAddress?: string | null;

  @OptionalText(1000)
  newsletterFooterEn?: string | null;

  @OptionalText(1000)
  newsletterFooterAr?: string | null;
}

/** The body a client sends is the contract's SiteSettingsInput: a field renamed on one side only fails tsc. */
type BodyIsContract = AssertSame<Serialized<UpdateSettingsDto>, SiteSettingsInput & NewsletterSettingsInput>;
