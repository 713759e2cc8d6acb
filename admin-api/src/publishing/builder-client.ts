import { type BuilderStatus, statusHeaders } from '@portfolio/contract/webhook';

export type { BuilderBuild, BuilderStatus } from '@portfolio/contract/webhook';

/** Reads the builder's status; null when it does not answer in time or answers nonsense. */
export async function fetchBuilderStatus(url: string, secret: string, timeoutMs: number): Promise<BuilderStatus | null> {
  try {
    const res = await fetch(url, {
      headers: { ...statusHeaders(secret), accept: 'application/json' },
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!res.ok) return null;
    const body = (await res.json()) as Partial<BuilderStatus>;
    if (typeof body !== 'object' || body === null || !('live' in body)) return null;
    return {
      building: body.building ?? null,
      queued: Boolean(body.queued),
      retryAt: body.retryAt ?? null,
      live: body.live ?? null,
      lastBuild: body.lastBuild ?? null,
      deploy: body.deploy ?? null,
    };
  } catch {
    return null;
  }
}
