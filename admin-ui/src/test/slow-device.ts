import { vi } from 'vitest';

/**
 * Makes every task look long to React's scheduler (its clock jumps 6 ms per reading, past its 5 ms
 * frame), so React yields between a commit and that commit's passive effects (useEffect), as it
 * does on a slow device or a busy test machine. A test that passes only when effects run in the
 * same task as the commit fails every time under this, not once in a while.
 */
export function slowDevice() {
  const now = performance.now.bind(performance);
  let skew = 0;
  vi.spyOn(performance, 'now').mockImplementation(() => now() + (skew += 6));
}
