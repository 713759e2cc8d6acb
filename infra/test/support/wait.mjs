// Waiting for things that happen by themselves (a port, a process, a publish), shared by the infra
// tests, browser tests and benchmarks: poll a condition until it holds, never a fixed sleep.
import net from 'node:net';
import { after } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';

/**
 * What a test file started and has not stopped (the product, API, builders, nginx, S3, browsers):
 * stopped after the file's last test, so a test that fails before its own stop leaves nothing
 * running. Only under the test runner; a benchmark stops what it starts itself. (Registered when this
 * module is first loaded, so a test file imports it, or a helper that does, statically: loaded
 * first from inside a hook, the hook would belong to that suite. s3.mjs, which the API's tests
 * import inside a hook, therefore keeps its own stop.)
 */
const leftRunning = new Set();
if (process.env.NODE_TEST_CONTEXT) after(() => Promise.allSettled([...leftRunning].map((stop) => stop())));

/**
 * `stop` made safe to call more than once (the first call's promise answers every call), and called
 * with `leftOverArgs` after the file's tests unless it was called before.
 * @template {unknown[]} A
 * @template T
 * @param {(...args: A) => Promise<T>} stop
 * @param {A} leftOverArgs
 * @returns {(...args: A) => Promise<T>}
 */
export function stopOnce(stop, ...leftOverArgs) {
  let stopped;
  const once = (...args) => {
    leftRunning.delete(leftOver);
    return (stopped ??= Promise.resolve().then(() => stop(...args)));
  };
  const leftOver = () => once(...leftOverArgs);
  leftRunning.add(leftOver);
  return once;
}

/** A TCP port free on `host` right now. */
export async function freePort(host = '127.0.0.1') {
  const server = net.createServer();
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve(undefined));
  });
  const { port } = /** @type {net.AddressInfo} */ (server.address());
  await new Promise((resolve) => server.close(() => resolve(undefined)));
  return port;
}

/**
 * Resolves to `check()`'s first truthy value, asking every `everyMs`. A check that throws ends the
 * wait with its error (a process that exited will not become ready); past `timeoutMs` it fails
 * naming `what`.
 * @template T
 * @param {string} what
 * @param {() => T | Promise<T>} check
 */
export async function until(what, check, timeoutMs = 30_000, everyMs = 25) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
    await delay(everyMs);
  }
}
