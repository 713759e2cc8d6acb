import { SETTINGS_LIMITS as MAX } from '@portfolio/contract/settings';
import { type Lang, LANGUAGES } from '@portfolio/contract/translations';
import type { SiteSettings } from '@portfolio/contract/types';
import { useCallback, useEffect, useRef, useState } from 'react';

import { ApiError } from '../../api/client';
import { settingsApi } from '../../api/settings';
import { TextAreaField, TextField } from '../../components/field';
import { UploadField } from '../../components/upload-field';
import { useErrorHandler } from '../../hooks/use-error-handler';
import { type FormErrors, useForm } from '../../hooks/use-form';
import { usePublishing } from '../../hooks/use-publishing';
import { useToast } from '../../hooks/use-toast';
import { directionOf, useI18n } from '../../i18n/i18n';
import type { Message } from '../../i18n/message';
import { type LinkValues, settingsBody, type SettingsValues, settingsValues, validateLinks, validateSettings } from './settings-form';

/** 'Settings': the author's details every page shows, in both languages side by side. */
export function SettingsScreen() {
  const { t } = useI18n();
  const handleError = useErrorHandler();
  const [loaded, setLoaded] = useState<SiteSettings | null>(null);
  const [failed, setFailed] = useState(false);

  const load = useCallback(async () => {
    setFailed(false);
    try {
      setLoaded(await settingsApi.get());
    } catch (error) {
      setFailed(true);
      handleError(error, { title: t('settings.loadFailed') });
    }
  }, [handleError, t]);
  useEffect(() => void load(), [load]);

  if (failed) {
    return (
      <div className="ao-settings-state" role="alert">
        <p>{t('settings.loadFailed')}</p>
        <button type="button" className="ao-button ao-button-secondary ao-button-small" onClick={() => void load()}>
          {t('common.retry')}
        </button>
      </div>
    );
  }
  if (!loaded) {
    return (
      <p role="status" className="ao-loading">
        {t('common.loading')}
      </p>
    );
  }
  return <SettingsForm settings={loaded} onSaved={setLoaded} />;
}

/** What each group of fields edits: the form's values, their problems, and the setter. */
interface GroupProps {
  values: SettingsValues;
  errors: FormErrors<SettingsValues>;
  setValue: <K extends keyof SettingsValues & string>(name: K, value: SettingsValues[K]) => void;
}

type LinkErrors = Record<string, Message>;

/** The social links' edits; each link's problems are by `socialLinks.<n>.label|url` (ours or the API's), an edit clears its own. */
function socialLinkEdits(
  { values, setValue }: Pick<GroupProps, 'values' | 'setValue'>,
  linkErrors: LinkErrors,
  setLinkErrors: (update: (errors: LinkErrors) => LinkErrors) => void,
) {
  const links = values.socialLinks;
  const setLink = (index: number, change: Partial<LinkValues>) => {
    setValue(
      'socialLinks',
      links.map((link, i) => (i === index ? { ...link, ...change } : link)),
    );
    setLinkErrors((previous) => {
      const next = { ...previous };
      for (const field of Object.keys(change)) delete next[`socialLinks.${index}.${field}`];
      return next;
    });
  };
  const removeLink = (index: number) => {
    setValue(
      'socialLinks',
      links.filter((_, i) => i !== index),
    );
    setLinkErrors(() => ({}));
  };
  const addLink = () => setValue('socialLinks', [...links, { label: '', url: '' }]);
  return { links, linkErrors, setLink, removeLink, addLink };
}
type SocialLinks = ReturnType<typeof socialLinkEdits>;

/** The form's state; a save checks the links too, saves, shows what was saved and announces the change to publishing. */
function useSettingsForm(settings: SiteSettings, onSaved: (s: SiteSettings) => void) {
  const { t } = useI18n();
  const { toast } = useToast();
  const handleError = useErrorHandler();
  const publishing = usePublishing();
  const formRef = useRef<HTMLFormElement>(null);
  const focusFirstInvalid = () => setTimeout(() => formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus(), 0);
  const [linkErrors, setLinkErrors] = useState<LinkErrors>({});

  const form = useForm<SettingsValues>({
    initialValues: () => settingsValues(settings),
    validate: validateSettings,
    onSubmit: async (current) => {
      const problems = validateLinks(current.socialLinks);
      setLinkErrors(problems);
      if (Object.keys(problems).length) {
        focusFirstInvalid();
        return;
      }
      const saved = await settingsApi.save(settingsBody(current));
      form.setValues(settingsValues(saved));
      onSaved(saved);
      publishing.notifyChange();
      toast({ title: t('settings.saved'), description: t('settings.savedHint') });
    },
    onError: (error) => {
      if (error instanceof ApiError) {
        const nested = Object.fromEntries(Object.entries(error.fieldErrors).filter(([field]) => field.startsWith('socialLinks.')));
        if (Object.keys(nested).length) {
          setLinkErrors(nested);
          focusFirstInvalid();
        }
      }
      handleError(error, { title: t('settings.saveFailed') });
    },
  });
  return { ...form, formRef, socialLinks: socialLinkEdits(form, linkErrors, setLinkErrors) };
}

/** A settings text written once per language (`quoteEn`, `quoteAr`): the fields that hold it in each. */
const SUFFIX = { en: 'En', ar: 'Ar' } as const satisfies Record<Lang, string>;
type PairName = 'authorName' | 'subtitle' | 'quote' | 'biography' | 'shortBio' | 'location' | 'newsletterFooter';

interface PairProps extends GroupProps {
  name: PairName;
  max: number;
  required?: boolean;
  /** A text area of this many rows instead of one line. */
  rows?: number;
  hint?: string;
}

/** One text in every language: English, then Arabic (right to left), side by side where there is room. */
function LanguagePair({ name, max, required = false, rows, hint, values, errors, setValue }: PairProps) {
  const { t } = useI18n();
  return (
    <div className="ao-settings-pair">
      {LANGUAGES.map((lang) => {
        const field = `${name}${SUFFIX[lang]}` as const;
        const common = { label: t(`settings.${field}`), lang, dir: directionOf(lang), required, maxLength: max, hint };
        const control = { value: values[field], onChange: (v: string) => setValue(field, v), error: errors[field] };
        return rows ? <TextAreaField key={lang} {...common} rows={rows} {...control} /> : <TextField key={lang} {...common} {...control} />;
      })}
    </div>
  );
}

/** The author: name, subtitle, quote, biography, short bio, portrait. */
function AuthorGroup(props: GroupProps) {
  const { t } = useI18n();
  const { values, errors, setValue } = props;
  return (
    <fieldset className="ao-settings-group">
      <legend>{t('settings.section.author')}</legend>
      <LanguagePair {...props} name="authorName" max={MAX.name} required />
      <LanguagePair {...props} name="subtitle" max={MAX.subtitle} />
      <LanguagePair {...props} name="quote" max={MAX.quote} rows={2} />
      <LanguagePair {...props} name="biography" max={MAX.biography} required rows={8} hint={t('settings.biographyHint')} />
      <LanguagePair {...props} name="shortBio" max={MAX.shortBio} rows={3} hint={t('settings.shortBioHint')} />
      <UploadField
        label={t('settings.portrait')}
        contentType="general"
        value={values.portraitImage}
        onChange={(v) => setValue('portraitImage', v)}
        error={errors.portraitImage}
        toasts={{
          success: { title: t('upload.imageSuccess'), description: null },
          failure: { title: t('upload.failed'), description: t('upload.tryAgainOrUrl') },
          network: { title: t('upload.error'), description: t('common.tryAgain') },
        }}
      />
    </fieldset>
  );
}

/** The social links: a name and an address each, at most MAX.socialLinks. */
function SocialLinksField({ links, linkErrors, setLink, removeLink, addLink }: SocialLinks) {
  const { t } = useI18n();
  return (
    <div className="ao-field">
      <p className="ao-label-row" id="ao-settings-links">
        <span>{t('settings.socialLinks')}</span>
      </p>
      <ul className="ao-settings-links" aria-labelledby="ao-settings-links">
        {links.map((link, i) => (
          <li key={i} className="ao-settings-link">
            <TextField
              label={t('settings.linkName', { n: i + 1 })}
              required
              maxLength={MAX.linkName}
              value={link.label}
              onChange={(v) => setLink(i, { label: v })}
              error={linkErrors[`socialLinks.${i}.label`]}
            />
            <TextField
              label={t('settings.linkUrl', { n: i + 1 })}
              type="url"
              dir="ltr"
              required
              maxLength={MAX.link}
              value={link.url}
              onChange={(v) => setLink(i, { url: v })}
              error={linkErrors[`socialLinks.${i}.url`]}
            />
            <button type="button" className="ao-button ao-button-ghost ao-button-small" onClick={() => removeLink(i)}>
              {t('settings.removeLink', { name: link.label.trim() || String(i + 1) })}
            </button>
          </li>
        ))}
      </ul>
      {links.length < MAX.socialLinks && (
        <button type="button" className="ao-button ao-button-secondary ao-button-small ao-settings-add" onClick={addLink}>
          {t('settings.addLink')}
        </button>
      )}
    </div>
  );
}

/** Contact: the e-mail address, the location, the social links. */
function ContactGroup({ socialLinks, ...props }: GroupProps & { socialLinks: SocialLinks }) {
  const { t } = useI18n();
  const { values, errors, setValue } = props;
  return (
    <fieldset className="ao-settings-group">
      <legend>{t('settings.section.contact')}</legend>
      <TextField
        label={t('settings.contactEmail')}
        type="email"
        dir="ltr"
        required
        maxLength={MAX.email}
        value={values.contactEmail}
        onChange={(v) => setValue('contactEmail', v)}
        error={errors.contactEmail}
      />
      <LanguagePair {...props} name="location" max={MAX.location} />
      <SocialLinksField {...socialLinks} />
    </fieldset>
  );
}

/** The site: the footer's credit and year, the public address. */
function SiteGroup({ values, errors, setValue }: GroupProps) {
  const { t } = useI18n();
  return (
    <fieldset className="ao-settings-group">
      <legend>{t('settings.section.site')}</legend>
      <div className="ao-settings-pair">
        <TextField
          label={t('settings.footerCreditName')}
          maxLength={MAX.name}
          value={values.footerCreditName}
          onChange={(v) => setValue('footerCreditName', v)}
          error={errors.footerCreditName}
        />
        <TextField
          label={t('settings.footerCreditUrl')}
          type="url"
          dir="ltr"
          maxLength={MAX.link}
          value={values.footerCreditUrl}
          onChange={(v) => setValue('footerCreditUrl', v)}
          error={errors.footerCreditUrl}
        />
      </div>
      <div className="ao-settings-pair">
        <TextField
          label={t('settings.copyrightYear')}
          inputMode="numeric"
          dir="ltr"
          required
          value={values.copyrightYear}
          onChange={(v) => setValue('copyrightYear', v)}
          error={errors.copyrightYear}
          hint={t('settings.copyrightHint')}
        />
        <TextField
          label={t('settings.siteUrl')}
          type="url"
          dir="ltr"
          required
          maxLength={MAX.link}
          value={values.siteUrl}
          onChange={(v) => setValue('siteUrl', v)}
          error={errors.siteUrl}
          hint={t('settings.siteUrlHint')}
        />
      </div>
    </fieldset>
  );
}

/** The newsletter's mails: who they come from, and a line at their end in each language. */
function NewsletterGroup(props: GroupProps) {
  const { t } = useI18n();
  const { values, errors, setValue } = props;
  return (
    <fieldset className="ao-settings-group">
      <legend>{t('settings.section.newsletter')}</legend>
      <div className="ao-settings-pair">
        <TextField
          label={t('settings.newsletterSenderName')}
          maxLength={MAX.name}
          value={values.newsletterSenderName}
          onChange={(v) => setValue('newsletterSenderName', v)}
          error={errors.newsletterSenderName}
          hint={t('settings.newsletterSenderNameHint')}
        />
        <TextField
          label={t('settings.newsletterSenderAddress')}
          type="email"
          dir="ltr"
          maxLength={MAX.email}
          value={values.newsletterSenderAddress}
          onChange={(v) => setValue('newsletterSenderAddress', v)}
          error={errors.newsletterSenderAddress}
          hint={t('settings.newsletterSenderAddressHint')}
        />
      </div>
      <LanguagePair {...props} name="newsletterFooter" max={MAX.quote} rows={2} hint={t('settings.newsletterFooterHint')} />
    </fieldset>
  );
}

function SettingsForm({ settings, onSaved }: { settings: SiteSettings; onSaved: (s: SiteSettings) => void }) {
  const { t } = useI18n();
  const { values, errors, setValue, isSubmitting, handleSubmit, formRef, socialLinks } = useSettingsForm(settings, onSaved);
  const group = { values, errors, setValue };
  return (
    <form
      ref={formRef}
      className="ao-form ao-settings"
      noValidate
      aria-busy={isSubmitting || undefined}
      aria-labelledby="ao-settings-title"
      onSubmit={(event) => void handleSubmit(event)}
    >
      <div className="ao-settings-head">
        <h3 id="ao-settings-title">{t('settings.title')}</h3>
        <p className="ao-hint">{t('settings.lead')}</p>
      </div>
      <AuthorGroup {...group} />
      <ContactGroup {...group} socialLinks={socialLinks} />
      <SiteGroup {...group} />
      <NewsletterGroup {...group} />
      <div className="ao-settings-footer">
        <button type="submit" className="ao-button ao-button-primary" disabled={isSubmitting}>
          {isSubmitting ? t('common.saving') : t('settings.save')}
        </button>
      </div>
    </form>
  );
}
