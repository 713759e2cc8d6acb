import type { MessageRef } from '@portfolio/contract/messages';
import { isWebLink } from '@portfolio/contract/rules';
import type { NewsletterSettingsInput, SiteSettings, SiteSettingsInput } from '@portfolio/contract/types';

import type { FormErrors } from '../../hooks/use-form';
import type { Message } from '../../i18n/message';
import { type FieldValues, type FormBody, optionalText, toInput } from '../../lib/form-values';
import { compact, filePathProblem, isBlank, isEmail, isWholeNumber, linkProblem } from '../../lib/validation';

type AdminSettingsInput = SiteSettingsInput & NewsletterSettingsInput;

/** The Settings tab's form: every text as typed (both languages of a text side by side), every field of the contract's input. */
export type SettingsValues = FieldValues<AdminSettingsInput>;
export type LinkValues = SettingsValues['socialLinks'][number];

export function settingsValues(s: SiteSettings): SettingsValues {
  return {
    authorNameEn: s.authorNameEn,
    authorNameAr: s.authorNameAr,
    subtitleEn: toInput(s.subtitleEn),
    subtitleAr: toInput(s.subtitleAr),
    quoteEn: toInput(s.quoteEn),
    quoteAr: toInput(s.quoteAr),
    biographyEn: s.biographyEn,
    biographyAr: s.biographyAr,
    shortBioEn: toInput(s.shortBioEn),
    shortBioAr: toInput(s.shortBioAr),
    portraitImage: toInput(s.portraitImage),
    contactEmail: s.contactEmail,
    locationEn: toInput(s.locationEn),
    locationAr: toInput(s.locationAr),
    socialLinks: s.socialLinks.map((link) => ({ ...link })),
    footerCreditName: toInput(s.footerCreditName),
    footerCreditUrl: toInput(s.footerCreditUrl),
    copyrightYear: String(s.copyrightYear),
    siteUrl: s.siteUrl,
    newsletterSenderName: toInput(s.newsletterSenderName),
    newsletterSenderAddress: toInput(s.newsletterSenderAddress),
    newsletterFooterEn: toInput(s.newsletterFooterEn),
    newsletterFooterAr: toInput(s.newsletterFooterAr),
  };
}

export function settingsBody(v: SettingsValues): FormBody<AdminSettingsInput> {
  return {
    authorNameEn: v.authorNameEn.trim(),
    authorNameAr: v.authorNameAr.trim(),
    subtitleEn: optionalText(v.subtitleEn),
    subtitleAr: optionalText(v.subtitleAr),
    quoteEn: optionalText(v.quoteEn),
    quoteAr: optionalText(v.quoteAr),
    biographyEn: v.biographyEn.trim(),
    biographyAr: v.biographyAr.trim(),
    shortBioEn: optionalText(v.shortBioEn),
    shortBioAr: optionalText(v.shortBioAr),
    portraitImage: optionalText(v.portraitImage),
    contactEmail: v.contactEmail.trim(),
    locationEn: optionalText(v.locationEn),
    locationAr: optionalText(v.locationAr),
    socialLinks: v.socialLinks.map((link) => ({ label: link.label.trim(), url: link.url.trim() })),
    footerCreditName: optionalText(v.footerCreditName),
    footerCreditUrl: optionalText(v.footerCreditUrl),
    copyrightYear: Number(v.copyrightYear.trim()),
    siteUrl: v.siteUrl.trim().replace(/\/+$/, ''),
    newsletterSenderName: optionalText(v.newsletterSenderName),
    newsletterSenderAddress: optionalText(v.newsletterSenderAddress),
    newsletterFooterEn: optionalText(v.newsletterFooterEn),
    newsletterFooterAr: optionalText(v.newsletterFooterAr),
  };
}

const year = { key: 'label.copyrightYear' } as const;
function yearProblem(value: string): Message | undefined {
  if (isBlank(value)) return 'validation.yearRequired';
  if (!isWholeNumber(value)) return { key: 'validation.wholeNumber', params: { field: year } } satisfies MessageRef;
  const n = Number(value);
  if (n < 1000) return { key: 'validation.atLeast', params: { field: year, min: 1000 } };
  if (n > 9999) return { key: 'validation.atMost', params: { field: year, max: 9999 } };
  return undefined;
}

/** The same checks as the API (the API decides in the end); answers with catalogue keys. */
export function validateSettings(v: SettingsValues): FormErrors<SettingsValues> {
  return compact({
    authorNameEn: isBlank(v.authorNameEn) ? 'validation.authorNameRequired' : undefined,
    authorNameAr: isBlank(v.authorNameAr) ? 'validation.authorNameRequired' : undefined,
    biographyEn: isBlank(v.biographyEn) ? 'validation.biographyRequired' : undefined,
    biographyAr: isBlank(v.biographyAr) ? 'validation.biographyRequired' : undefined,
    portraitImage: filePathProblem(v.portraitImage),
    contactEmail: isBlank(v.contactEmail) ? 'validation.emailRequired' : isEmail(v.contactEmail) ? undefined : 'validation.emailInvalid',
    footerCreditUrl: linkProblem(v.footerCreditUrl),
    copyrightYear: yearProblem(v.copyrightYear),
    siteUrl: isBlank(v.siteUrl) ? 'validation.siteUrlRequired' : linkProblem(v.siteUrl),
    newsletterSenderAddress:
      isBlank(v.newsletterSenderAddress) || isEmail(v.newsletterSenderAddress) ? undefined : 'validation.emailInvalid',
  });
}

/** Each social link's problems, by `socialLinks.<n>.label|url` as the API names them. */
export function validateLinks(links: LinkValues[]): Record<string, Message> {
  const out: Record<string, Message> = {};
  links.forEach((link, i) => {
    if (isBlank(link.label)) out[`socialLinks.${i}.label`] = 'validation.linkNameRequired';
    if (isBlank(link.url)) out[`socialLinks.${i}.url`] = 'validation.linkRequired';
    else if (!isWebLink(link.url.trim())) out[`socialLinks.${i}.url`] = 'validation.link';
  });
  return out;
}
