// The built API as a child process for a benchmark (newsletter.mjs, variants.mjs): SQLite in a fresh
// VAR_DIR, no demo content, no request log, no backups, on a free port; it builds nothing (the root
// `npm run bench` builds admin-api first). BENCH_API_LOG names a file that gets the API's output.
import { spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { NODE_FLAGS } from '../node-flags.mjs';

export const API_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../admin-api');

/**
 * Starts the API and signs in; `stop()` stops it and removes its folder (also on Ctrl-C).
 *
 * @param {object} options
 * @param {string} options.name  Part of the temporary folder's name.
 * @param {Record<string, string>} [options.env]  More environment for the API.
 * @param {readonly string[]} [options.nodeArgs]  Node flags (default: those of `npm start`).
 * @param {(chunk: string) => void} [options.onOutput]  Each piece of the API's output.
 * @param {() => Promise<void>} [options.onStop]  Run by stop() after the API stopped.
 */
export async function startApi({ name, env = {}, nodeArgs = NODE_FLAGS.api, onOutput, onStop }) {
  const varDir = await mkdtemp(path.join(os.tmpdir(), `bench-${name}-`));
  const admin = { username: 'bench-admin', password: `bench-${process.pid}-${Date.now()}` };
  const child = spawn(process.execPath, [...nodeArgs, path.join(API_DIR, 'dist/src/main.js')], {
    cwd: API_DIR,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      VAR_DIR: varDir,
      PORT: '0',
      HOST: '127.0.0.1',
      ADMIN_USERNAME: admin.username,
      ADMIN_PASSWORD: admin.password,
      SEED_DEMO: 'false',
      LOG_REQUESTS: 'false',
      BACKUP_EVERY: 'off',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
    await onStop?.();
    await rm(varDir, { recursive: true, force: true });
  };
  process.on('SIGINT', () => stop().then(() => process.exit(130)));
  try {
    let output = '';
    const base = await new Promise((resolve, reject) => {
      const read = (chunk) => {
        if (process.env.BENCH_API_LOG) appendFileSync(process.env.BENCH_API_LOG, chunk);
        output += chunk;
        onOutput?.(String(chunk));
        const ready = /API ready on (http:\/\/127\.0\.0\.1:\d+)\/api/.exec(output);
        if (ready) resolve(ready[1]);
      };
      child.stdout.on('data', read);
      child.stderr.on('data', read);
      child.once('exit', () => reject(new Error(`the API stopped: ${output}`)));
    });
    /** A JSON call; a 4xx or 5xx answer throws. */
    const request = async (method, url, { token, body, raw } = {}) => {
      const headers = token ? { authorization: `Bearer ${token}` } : {};
      if (body !== undefined) headers['content-type'] = 'application/json';
      const res = await fetch(base + url, { method, headers, body: raw ?? (body === undefined ? undefined : JSON.stringify(body)) });
      const text = await res.text();
      if (res.status >= 400) throw new Error(`${method} ${url}: ${res.status} ${text}`);
      return text ? JSON.parse(text) : undefined;
    };
    const { sessionId: token } = await request('POST', '/api/admin/login', { body: admin });
    return { base, request, token, pid: child.pid, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
