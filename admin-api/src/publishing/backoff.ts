/**
 * Delay before the next try after `failures` failed attempts in a row: exponential from `baseMs`,
 * capped at `maxMs`, with "equal jitter" (half fixed, half random) so that several API replicas
 * retrying against the same builder do not knock in step.
 */
export function retryDelayMs(failures: number, baseMs: number, maxMs: number, random: () => number = Math.random): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** Math.max(0, failures - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}
