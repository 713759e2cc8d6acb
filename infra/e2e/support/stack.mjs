import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { CONTENT_KINDS } from '@portfolio/contract/kinds';

import { NODE_FLAGS } from '../../node-flags.mjs';
import { freePort, stopOnce, until } from '../../test/support/wait.mjs';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const NODE = process.execPath;
export const ADMIN = { username: 'admin', password: 'e2e-admin-password' };
/** Optimised images are kept between test runs, as the builder keeps them between builds. */
const IMAGE_CACHE = path.join(os.tmpdir(), 'portfolio-e2e-astro-cache');

export { freePort };

function run(command, args, options) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve(output) : reject(new Error(`${command} ${args.join(' ')} exited ${code}:\n${output.slice(-4000)}`)),
    );
  });
}

async function waitForHealth(url, child, log) {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`API exited early:\n${log()}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`API not healthy within 120 s:\n${log()}`);
}

/**
 * The real product on the embedded default: the built API on a free port over a fresh SQLite
 * database (demo content unless told otherwise), and the site built from it into the live folder.
 */
export async function startStack({ seedDemo = true, env = {}, port: chosenPort = null, varDir: givenVarDir = null } = {}) {
  // A given VAR_DIR (e.g. one a restore filled) is used as it is, and removed on stop like a fresh one.
  const varDir = givenVarDir ?? (await mkdtemp(path.join(os.tmpdir(), 'portfolio-e2e-')));
  const port = chosenPort ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  let output = '';
  const api = spawn(NODE, [...NODE_FLAGS.api, path.join(ROOT, 'admin-api/dist/src/main.js')], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      VAR_DIR: varDir,
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
      SEED_DEMO: String(seedDemo),
      LOG_REQUESTS: 'false',
      PUBLIC_URL: url,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  api.stdout.on('data', (d) => (output += d));
  api.stderr.on('data', (d) => (output += d));
  const stop = stopOnce(async () => {
    if (api.exitCode === null && api.signalCode === null) {
      const exited = new Promise((r) => api.once('exit', r));
      api.kill('SIGTERM');
      await exited;
    }
    await rm(varDir, { recursive: true, force: true });
  });
  try {
    await waitForHealth(url, api, () => output);
  } catch (error) {
    await stop();
    throw error;
  }

  /**
   * Resolves once the API has made the image variants of every upload the public content names (no
   * job pending; the API makes them when an upload arrives): a publish after it shows each picture
   * with its variants, not the original shown while they are being made.
   */
  const made = new Set();
  const variantsMade = async (timeoutMs = 120_000) => {
    const texts = await Promise.all(
      [...CONTENT_KINDS.map((kind) => `/api/${kind}`), '/api/settings'].map(async (route) => (await fetch(url + route)).text()),
    );
    const uploads = new Set(texts.flatMap((text) => [...text.matchAll(/\/uploads\/(?!_variants\/)[^"\s)\\]+/g)].map((m) => m[0])));
    for (const upload of uploads) if (made.has(upload)) uploads.delete(upload);
    await until(
      `the image variants of ${uploads.size} uploads`,
      async () => {
        for (const upload of uploads) {
          const res = await fetch(`${url}/api/image-variants?path=${encodeURIComponent(upload)}`);
          if (res.ok && (await res.json()).state === 'pending') return false;
          // Made (or never to be): its state does not change back.
          made.add(upload);
          uploads.delete(upload);
        }
        return true;
      },
      timeoutMs,
      100,
    );
  };

  let builds = 0;
  /** Builds the site from the API's current content (once its pictures' variants are made) and makes it live. */
  const buildSite = async () => {
    await variantsMade();
    const out = path.join(varDir, 'site', 'builds', String(++builds));
    await mkdir(path.dirname(out), { recursive: true });
    await run(NODE, [path.join(ROOT, 'node_modules/astro/bin/astro.mjs'), 'build'], {
      cwd: path.join(ROOT, 'site'),
      env: {
        ...process.env,
        ASTRO_TELEMETRY_DISABLED: '1',
        SITE_API_URL: url,
        SITE_URL: url,
        SITE_OUT_DIR: out,
        SITE_CACHE_DIR: IMAGE_CACHE,
      },
    });
    const live = path.join(varDir, 'site', 'live');
    const tmp = `${live}.${builds}.tmp`;
    await symlink(out, tmp);
    await import('node:fs/promises').then((fs) => fs.rename(tmp, live));
  };

  const login = async () => {
    const res = await fetch(`${url}/api/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ADMIN),
    });
    if (!res.ok) throw new Error(`login failed: ${res.status}`);
    return (await res.json()).sessionId;
  };

  /** A JSON call to the API, as an admin when a token is given. */
  const call = async (method, route, { token, body } = {}) => {
    const res = await fetch(url + route, {
      method,
      headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };

  return { url, varDir, buildSite, variantsMade, login, call, stop, log: () => output };
}
