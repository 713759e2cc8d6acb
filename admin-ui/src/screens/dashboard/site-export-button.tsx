import type { Lang } from '@portfolio/contract/translations';
import { useState } from 'react';

import { siteExportApi } from '../../api/site-export';
import { useErrorHandler } from '../../hooks/use-error-handler';
import { useToast } from '../../hooks/use-toast';
import { localeOf, useI18n } from '../../i18n/i18n';
import { saveFile } from '../../lib/save-file';

/** Megabytes with one decimal, Western digits in both languages (as the overlay shows counts). */
const megabytes = (bytes: number, lang: Lang) =>
  new Intl.NumberFormat(localeOf(lang), { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(bytes / 1024 / 1024);

/**
 * 'Download the site': the live site as a ZIP that works from any static host or a USB stick
 * (GET /api/admin/site-export). Busy while it arrives, with the megabytes received so far.
 */
export function SiteExportButton() {
  const { t, lang } = useI18n();
  const { toast } = useToast();
  const handleError = useErrorHandler();
  const [received, setReceived] = useState<number | null>(null);
  const busy = received !== null;

  const start = async () => {
    setReceived(0);
    try {
      const { blob, filename } = await siteExportApi.download(setReceived);
      saveFile(blob, filename ?? 'site.zip');
      toast({ title: t('siteExport.done'), description: t('siteExport.doneHint') });
    } catch (error) {
      handleError(error, { title: t('siteExport.failed') });
    } finally {
      setReceived(null);
    }
  };

  return (
    <>
      <button
        type="button"
        className="ao-button ao-button-ghost ao-button-small"
        onClick={() => void start()}
        disabled={busy}
        aria-busy={busy}
        title={busy ? undefined : t('siteExport.hint')}
        data-site-export
      >
        {busy ? t('siteExport.busy', { size: megabytes(received, lang) }) : t('siteExport.button')}
      </button>
      <span className="ao-sr-only" aria-live="polite">
        {busy ? t('siteExport.preparing') : ''}
      </span>
    </>
  );
}
