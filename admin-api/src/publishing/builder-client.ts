import { sign, SIGNATURE_HEADER, statusRequestPayload, TIMESTAMP_HEADER } from './signature.js';

/** One finished build as the builder (infra/builder) reports it. */
export interface BuilderBuild {
  id: string;
  ok: boolean;
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  /** Highest outbox row id the build is known to include (null for builds not caused by a webhook). */
  upToEventId: number | null;
  logTail?: string[];
}

/** GET <REBUILD_STATUS_URL>: the builder's own state. */
export interface BuilderStatus {
  building: { id: string; startedAt: string; upToEventId: number | null } | null;
  /** A follow-up build waits for the running one. */
  queued: boolean;
  /** When the builder tries a failed build again by itself (ISO), or null. */
  retryAt?: string | null;
  live: BuilderBuild | null;
  lastBuild: BuilderBuild | null;
}

/** Reads the builder's status; null when it does not answer in time or answers nonsense. */
export async function fetchBuilderStatus(url: string, secret: string, timeoutMs: number): Promise<BuilderStatus | null> {
  const timestamp = String(Date.now());
  try {
    const res = await fetch(url, {
      headers: { [TIMESTAMP_HEADER]: timestamp, [SIGNATURE_HEADER]: sign(secret, statusRequestPayload(timestamp)), accept: 'application/json' },
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!res.ok) return null;
    const body = (await res.json()) as Partial<BuilderStatus>;
    if (typeof body !== 'object' || body === null || !('live' in body)) return null;
    return { building: body.building ?? null, queued: Boolean(body.queued), retryAt: body.retryAt ?? null, live: body.live ?? null, lastBuild: body.lastBuild ?? null };
  } catch {
    return null;
  }
}
