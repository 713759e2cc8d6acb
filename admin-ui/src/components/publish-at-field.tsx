import { localeOf, useI18n } from '../i18n/i18n';
import type { Message } from '../i18n/message';
import { utcFromLocalInput } from '../lib/local-time';
import { TextField } from './field';

/**
 * 'Publish at': a date and time in the admin's own time zone (sent as UTC). Until then visitors
 * do not see the item; at that time it goes live by itself.
 */
export function PublishAtField({
  value,
  onChange,
  error,
  published = true,
}: {
  value: string;
  onChange: (value: string) => void;
  error?: Message;
  published?: boolean;
}) {
  const { t, lang } = useI18n();
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const at = utcFromLocalInput(value);
  const when = at ? new Intl.DateTimeFormat(localeOf(lang), { dateStyle: 'full', timeStyle: 'short' }).format(new Date(at)) : null;
  const scheduled = at !== null && Date.parse(at) > Date.now();
  const hint = scheduled
    ? `${t('schedule.hintScheduled', { when: when!, zone })}${published ? '' : ` ${t('schedule.hintUnpublished')}`}`
    : t('schedule.hint', { zone });
  return (
    <div className="ao-publish-at">
      <TextField
        label={t('fields.publishAt')}
        type="datetime-local"
        value={value}
        onChange={onChange}
        error={error}
        hint={hint}
        dir="ltr"
      />
      {value && (
        <button type="button" className="ao-button ao-button-ghost ao-button-small" onClick={() => onChange('')}>
          {t('schedule.clear')}
        </button>
      )}
    </div>
  );
}
