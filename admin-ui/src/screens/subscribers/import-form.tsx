import type { SubscriberImportResult } from '@portfolio/contract/newsletter';
import { type FormEvent, useId, useState } from 'react';

import { subscribersApi } from '../../api/newsletter';
import { CheckboxField } from '../../components/field';
import { useErrorHandler } from '../../hooks/use-error-handler';
import { useToast } from '../../hooks/use-toast';
import { useI18n } from '../../i18n/i18n';

/**
 * 'Import CSV': a file and the admin's word that everyone in it agreed to receive the mails; the
 * button waits for both. Then what happened: created, updated, skipped, and each refused line.
 */
export function ImportForm({ onImported }: { onImported: () => void }) {
  const { t } = useI18n();
  const { toast } = useToast();
  const handleError = useErrorHandler();
  const fileId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [consent, setConsent] = useState(false);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<SubscriberImportResult | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!file || !consent) return;
    setBusy(true);
    setResult(null);
    try {
      setResult(await subscribersApi.import(file, consent));
      toast({ title: t('subscribers.import.done') });
      onImported();
    } catch (error) {
      handleError(error, { title: t('subscribers.import.failed') });
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      className="ao-subscriber-import"
      aria-labelledby={`${fileId}-title`}
      onSubmit={(event) => void submit(event)}
      aria-busy={busy || undefined}
    >
      <h4 id={`${fileId}-title`} className="ao-section-title">
        {t('subscribers.import.title')}
      </h4>
      <p className="ao-hint">{t('subscribers.import.hint')}</p>
      <div className="ao-field">
        <label htmlFor={fileId}>{t('subscribers.import.file')}</label>
        <input
          id={fileId}
          type="file"
          accept=".csv,text/csv"
          className="ao-input"
          onChange={(event) => {
            setFile(event.target.files?.[0] ?? null);
            setResult(null);
          }}
        />
      </div>
      <CheckboxField label={t('subscribers.import.consent')} checked={consent} onChange={setConsent} />
      <div>
        <button type="submit" className="ao-button ao-button-primary" disabled={!consent || !file || busy}>
          {busy ? t('subscribers.import.busy') : t('subscribers.import.submit')}
        </button>
      </div>
      {result && (
        <div role="status" className="ao-subscriber-import-result">
          <p>{t('subscribers.import.result', { created: result.created, updated: result.updated, skipped: result.skipped })}</p>
          {result.errors.length > 0 && (
            <>
              <p>{t('subscribers.import.errors', { count: result.errors.length })}</p>
              <ul>
                {result.errors.map((error) => (
                  <li key={`${error.line}-${error.message}`} dir="auto">
                    {t('subscribers.import.errorLine', { line: error.line, message: error.message })}
                  </li>
                ))}
              </ul>
            </>
          )}
        </div>
      )}
    </form>
  );
}
