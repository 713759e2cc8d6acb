// The product as `npm start` runs it (infra/start.mjs: the built API and the builder), for the tests
// and browser tests that need the whole thing: started on a free port with its own VAR_DIR, ready when
// it prints "ready", stopped with SIGTERM as an operator would.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { freePort, stopOnce, until } from './wait.mjs';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/**
 * `node infra/start.mjs [...args]` with `env` over the test's environment; resolves once it is ready
 * (rejects with its output when it exits first or takes longer than `readyTimeoutMs`).
 * @param {{ varDir: string, port?: number, env?: Record<string, string>, args?: string[], readyTimeoutMs?: number }} options
 */
export async function startProduct({ varDir, port, env = {}, args = [], readyTimeoutMs = 300_000 }) {
  port ??= await freePort();
  const child = spawn(process.execPath, [path.join(ROOT, 'infra/start.mjs'), ...args], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), VAR_DIR: varDir, LOG_REQUESTS: 'false', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (c) => (output += c));
  child.stderr.on('data', (c) => (output += c));
  const exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  // SIGTERM, as an operator stops it (start.mjs stops its API and builder, SIGKILL after 10 s).
  const stop = stopOnce(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    return exited;
  });
  try {
    await until(
      '"ready" from start.mjs',
      () => {
        if (child.exitCode !== null) throw new Error(`start.mjs exited early:\n${output.slice(-4000)}`);
        return /\[start\] ready on /.test(output);
      },
      readyTimeoutMs,
    );
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    child,
    output: () => output,
    /** SIGTERM, as an operator stops it; resolves to the exit code. */
    stop,
  };
}

/** The processes whose parent is `pid` (from /proc): [{ pid, cmdline }]. */
export function childProcesses(pid) {
  const out = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) !== pid) continue;
      out.push({ pid: Number(name), cmdline: readFileSync(`/proc/${name}/cmdline`, 'utf8').replaceAll('\0', ' ') });
    } catch {
      // Gone meanwhile.
    }
  }
  return out;
}

/** Whether a process runs (neither gone nor a zombie). */
export function isAlive(pid) {
  try {
    return !readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].startsWith('Z');
  } catch {
    return false;
  }
}
