import type { SiteSettings } from '@portfolio/contract/types';
import { SETTINGS_LIMITS as MAX } from '@portfolio/contract/settings';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from '../../api/client';
import { settingsApi } from '../../api/settings';
import { TextAreaField, TextField } from '../../components/field';
import { UploadField } from '../../components/upload-field';
import { useErrorHandler } from '../../hooks/use-error-handler';
import { useForm } from '../../hooks/use-form';
import { usePublishing } from '../../hooks/use-publishing';
import { useToast } from '../../hooks/use-toast';
import { useI18n } from '../../i18n/i18n';
import type { Message } from '../../i18n/message';
import { type LinkValues, type SettingsValues, settingsBody, settingsValues, validateLinks, validateSettings } from './settings-form';

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

function SettingsForm({ settings, onSaved }: { settings: SiteSettings; onSaved: (s: SiteSettings) => void }) {
  const { t } = useI18n();
  const { toast } = useToast();
  const handleError = useErrorHandler();
  const publishing = usePublishing();
  const [linkErrors, setLinkErrors] = useState<Record<string, Message>>({});
  const formRef = useRef<HTMLFormElement>(null);
  const focusFirstInvalid = () => setTimeout(() => formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus(), 0);

  const { values, errors, setValue, setValues, isSubmitting, handleSubmit } = useForm<SettingsValues>({
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
      setValues(settingsValues(saved));
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

  const links = values.socialLinks;
  const setLink = (index: number, change: Partial<LinkValues>) => {
    setValue('socialLinks', links.map((link, i) => (i === index ? { ...link, ...change } : link)));
    setLinkErrors((previous) => {
      const next = { ...previous };
      for (const field of Object.keys(change)) delete next[`socialLinks.${index}.${field}`];
      return next;
    });
  };
  const removeLink = (index: number) => {
    setValue('socialLinks', links.filter((_, i) => i !== index));
    setLinkErrors({});
  };

  /** One text in both languages: English, then Arabic (right to left), side by side where there is room. */
  const pair = (name: 'authorName' | 'subtitle' | 'quote' | 'location', max: number, required = false) => {
    const en = `${name}En` as const;
    const ar = `${name}Ar` as const;
    return (
      <div className="ao-settings-pair">
        <TextField label={t(`settings.${en}`)} lang="en" dir="ltr" required={required} maxLength={max} value={values[en]} onChange={(v) => setValue(en, v)} error={errors[en]} />
        <TextField label={t(`settings.${ar}`)} lang="ar" dir="rtl" required={required} maxLength={max} value={values[ar]} onChange={(v) => setValue(ar, v)} error={errors[ar]} />
      </div>
    );
  };

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

      <fieldset className="ao-settings-group">
        <legend>{t('settings.section.author')}</legend>
        {pair('authorName', MAX.name, true)}
        {pair('subtitle', MAX.subtitle)}
        <div className="ao-settings-pair">
          <TextAreaField label={t('settings.quoteEn')} lang="en" dir="ltr" rows={2} maxLength={MAX.quote} value={values.quoteEn} onChange={(v) => setValue('quoteEn', v)} error={errors.quoteEn} />
          <TextAreaField label={t('settings.quoteAr')} lang="ar" dir="rtl" rows={2} maxLength={MAX.quote} value={values.quoteAr} onChange={(v) => setValue('quoteAr', v)} error={errors.quoteAr} />
        </div>
        <div className="ao-settings-pair">
          <TextAreaField
            label={t('settings.biographyEn')}
            lang="en"
            dir="ltr"
            required
            rows={8}
            maxLength={MAX.biography}
            hint={t('settings.biographyHint')}
            value={values.biographyEn}
            onChange={(v) => setValue('biographyEn', v)}
            error={errors.biographyEn}
          />
          <TextAreaField
            label={t('settings.biographyAr')}
            lang="ar"
            dir="rtl"
            required
            rows={8}
            maxLength={MAX.biography}
            hint={t('settings.biographyHint')}
            value={values.biographyAr}
            onChange={(v) => setValue('biographyAr', v)}
            error={errors.biographyAr}
          />
        </div>
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

      <fieldset className="ao-settings-group">
        <legend>{t('settings.section.contact')}</legend>
        <TextField label={t('settings.contactEmail')} type="email" dir="ltr" required maxLength={MAX.email} value={values.contactEmail} onChange={(v) => setValue('contactEmail', v)} error={errors.contactEmail} />
        {pair('location', MAX.location)}
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
            <button type="button" className="ao-button ao-button-secondary ao-button-small ao-settings-add" onClick={() => setValue('socialLinks', [...links, { label: '', url: '' }])}>
              {t('settings.addLink')}
            </button>
          )}
        </div>
      </fieldset>

      <fieldset className="ao-settings-group">
        <legend>{t('settings.section.site')}</legend>
        <div className="ao-settings-pair">
          <TextField label={t('settings.footerCreditName')} maxLength={MAX.name} value={values.footerCreditName} onChange={(v) => setValue('footerCreditName', v)} error={errors.footerCreditName} />
          <TextField label={t('settings.footerCreditUrl')} type="url" dir="ltr" maxLength={MAX.link} value={values.footerCreditUrl} onChange={(v) => setValue('footerCreditUrl', v)} error={errors.footerCreditUrl} />
        </div>
        <div className="ao-settings-pair">
          <TextField label={t('settings.copyrightYear')} inputMode="numeric" dir="ltr" required value={values.copyrightYear} onChange={(v) => setValue('copyrightYear', v)} error={errors.copyrightYear} hint={t('settings.copyrightHint')} />
          <TextField label={t('settings.siteUrl')} type="url" dir="ltr" required maxLength={MAX.link} value={values.siteUrl} onChange={(v) => setValue('siteUrl', v)} error={errors.siteUrl} hint={t('settings.siteUrlHint')} />
        </div>
      </fieldset>

      <div className="ao-settings-footer">
        <button type="submit" className="ao-button ao-button-primary" disabled={isSubmitting}>
          {isSubmitting ? t('common.saving') : t('settings.save')}
        </button>
      </div>
    </form>
  );
}
