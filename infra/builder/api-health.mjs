import { setTimeout as delay } from 'node:timers/promises';

/** The site reads the API while it builds: wait for it (e.g. still starting) rather than fail at once. */
export async function waitForApi(apiUrl, timeoutMs, cancelled) {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (!cancelled()) {
    try {
      const res = await fetch(`${apiUrl}/api/health`, { signal: AbortSignal.timeout(5000) });
      if (res.ok) {
        const version = (await res.json().catch(() => null))?.contentVersion;
        return { problem: null, contentVersion: Number.isInteger(version) ? version : null };
      }
      last = `HTTP ${res.status}`;
    } catch (error) {
      last = error?.cause?.code ?? error?.message ?? String(error);
    }
    if (Date.now() > deadline) break;
    await delay(500);
  }
  return {
    problem: `The API at ${apiUrl} did not answer /api/health (${last || 'stopping'}); the build was not started.`,
    contentVersion: null,
  };
}
