import type { PublishingStatus } from '@portfolio/contract/types';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';

import { publishingApi } from '../api/publishing';

export const PUBLISHING_POLL_MS = 2000;
/** Stop asking after this long; a build that takes longer is shown as it was last seen. */
const PUBLISHING_POLL_LIMIT_MS = 15 * 60_000;

export interface Publishing {
  /** null until known, and while the API has no publishing endpoint. */
  status: PublishingStatus | null;
  /** false when the API answered 404 for the publishing endpoint. */
  available: boolean | null;
  /** A change was saved while the overlay was open. */
  changed: boolean;
  notifyChange: () => void;
  publishNow: () => Promise<void>;
}

function keepPolling(status: PublishingStatus) {
  if (status.state === 'queued' || status.state === 'building') return true;
  // A failed rebuild request is retried by the API on its own; a failed build waits for Retry.
  if (status.state === 'failed') return Boolean(status.nextAttemptAt);
  return status.webhookConfigured && status.pendingChanges > 0;
}

const PublishingContext = createContext<Publishing | null>(null);

/** Shows whether saved changes reached the public site (the rebuild after each change). */
export function PublishingProvider({ children }: { children: ReactNode }) {
  const [status, setStatus] = useState<PublishingStatus | null>(null);
  const [available, setAvailable] = useState<boolean | null>(null);
  const [changed, setChanged] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const pollingSince = useRef(0);
  const mounted = useRef(true);

  const poll = useCallback(async () => {
    clearTimeout(timer.current);
    let next: PublishingStatus | null;
    try {
      next = await publishingApi.status();
    } catch {
      return; // The status is a convenience; a failed check must not disturb the work.
    }
    if (!mounted.current) return;
    setAvailable(next !== null);
    setStatus(next);
    if (next && keepPolling(next) && Date.now() - pollingSince.current < PUBLISHING_POLL_LIMIT_MS) {
      timer.current = setTimeout(() => void poll(), PUBLISHING_POLL_MS);
    }
  }, []);

  const startPolling = useCallback(() => {
    pollingSince.current = Date.now();
    void poll();
  }, [poll]);

  useEffect(() => {
    mounted.current = true;
    startPolling();
    return () => {
      mounted.current = false;
      clearTimeout(timer.current);
    };
  }, [startPolling]);

  const notifyChange = useCallback(() => {
    setChanged(true);
    startPolling();
  }, [startPolling]);

  const publishNow = useCallback(async () => {
    await publishingApi.publishNow();
    startPolling();
  }, [startPolling]);

  const value = useMemo(
    () => ({ status, available, changed, notifyChange, publishNow }),
    [status, available, changed, notifyChange, publishNow],
  );
  return <PublishingContext.Provider value={value}>{children}</PublishingContext.Provider>;
}

export function usePublishing(): Publishing {
  const value = useContext(PublishingContext);
  if (!value) throw new Error('usePublishing needs a PublishingProvider');
  return value;
}
