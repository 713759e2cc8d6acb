import { useState } from 'react';

import { useErrorHandler } from '../../hooks/use-error-handler';
import { usePublishing } from '../../hooks/use-publishing';
import { useI18n } from '../../i18n/i18n';

type Tone = 'neutral' | 'busy' | 'success' | 'danger';

/** Whether saved changes are on the public site yet; a live region, so changes are announced. */
export function PublishingStatus() {
  const { t } = useI18n();
  const { status, available, changed, publishNow } = usePublishing();
  const handleError = useErrorHandler();
  const [starting, setStarting] = useState(false);

  const start = async () => {
    setStarting(true);
    try {
      await publishNow();
    } catch (error) {
      handleError(error, { title: t('publishing.startFailed') });
    } finally {
      setStarting(false);
    }
  };

  let text: string | null = null;
  let tone: Tone = 'neutral';
  let action: string | null = null;
  if (!status || available === false) {
    if (changed) [text, tone] = [t('publishing.saved'), 'success'];
  } else if (status.state === 'queued' || status.state === 'building') {
    [text, tone] = [t(status.state === 'queued' ? 'publishing.queued' : 'publishing.building'), 'busy'];
  } else if (status.state === 'failed') {
    [text, tone, action] = [t('publishing.failed'), 'danger', t('common.retry')];
  } else if (!status.webhookConfigured) {
    if (changed) [text, tone] = [t('publishing.notConfigured'), 'success'];
  } else if (status.pendingChanges > 0) {
    [text, action] = [t('publishing.pending', { count: status.pendingChanges }), t('publishing.publishNow')];
  } else if (changed && status.lastPublish?.pagesUpdated != null && status.lastPublish.liveAfterSaveMs != null) {
    const seconds = (status.lastPublish.liveAfterSaveMs / 1000).toFixed(1);
    [text, tone] = [t('publishing.liveDetail', { pages: status.lastPublish.pagesUpdated, seconds }), 'success'];
  } else {
    [text, tone] = [t(changed ? 'publishing.live' : 'publishing.upToDate'), 'success'];
  }

  return (
    <div className="ao-publishing" data-tone={tone}>
      <p role="status" className="ao-publishing-text">
        {text && (
          <>
            <span className="ao-publishing-dot" aria-hidden="true" />
            <span className="ao-sr-only">{t('publishing.label')}: </span>
            {text}
          </>
        )}
      </p>
      {action && (
        <button type="button" className="ao-button ao-button-secondary ao-button-small" disabled={starting} onClick={() => void start()}>
          {action}
        </button>
      )}
      {(status?.deploy?.state === 'retrying' || status?.deploy?.state === 'failed') && (
        <div className="ao-publishing-deploy">
          <p>{t(status.deploy.state === 'retrying' ? 'publishing.deployRetrying' : 'publishing.deployFailed')}</p>
          {status.deploy.lastError && (
            <details className="ao-publishing-details">
              <summary>{t('publishing.details')}</summary>
              <pre dir="ltr">{status.deploy.lastError}</pre>
            </details>
          )}
        </div>
      )}
      {status?.state === 'failed' && status.lastError && (
        <details className="ao-publishing-details">
          <summary>{t('publishing.details')}</summary>
          <pre dir="ltr">{status.lastError}</pre>
        </details>
      )}
    </div>
  );
}
