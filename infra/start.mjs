#!/usr/bin/env node
// The embedded default in one command (`npm start`): the API and the site builder side by side.
//
//   node infra/start.mjs [API command…]     default: node <NODE_FLAGS.api> admin-api/dist/src/main.js
//
// - Starts the builder on a free loopback port and the API with REBUILD_WEBHOOK_URL/STATUS_URL
//   pointing at it, both sharing a secret made for this run (or REBUILD_WEBHOOK_SECRET if set).
// - On the first start (no live site yet) the builder builds the site from the API; "ready" is
//   printed once that build is live, so the first page a person opens is complete.
// - With REBUILD_WEBHOOK_URL already set (a builder or hosted build hook elsewhere), only the API runs.
// - A builder or API that crashes after it has served is started again (after 1 s, then 2, 4, 8 s)
//   while the other keeps running; on a crash loop (5 crashes of one, each within a minute of its
//   start) everything stops, saying why. One that stops before it ever served stops everything.
// - Ctrl-C / SIGTERM stops both.
import { fork, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

import { EnvReader } from '@portfolio/contract/env';
import { statusHeaders } from '@portfolio/contract/webhook';

import { MALLOC_ENV, NODE_FLAGS } from './node-flags.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BUILDER_MAIN = path.join(ROOT, 'infra/builder/main.mjs');
const say = (line) => process.stdout.write(`[start] ${line}\n`);

const [apiCmd, ...apiArgs] = process.argv.length > 2 ? process.argv.slice(2) : ['node', ...NODE_FLAGS.api, 'admin-api/dist/src/main.js'];
const env = process.env;
// Read as the API and the builder read them (blank means unset; REBUILD_WEBHOOK_SECRET also from a file).
// An unreadable file or both forms set are reported by the configuration check below.
const reader = new EnvReader(env, { fileVariables: ['REBUILD_WEBHOOK_SECRET'] });
const port = reader.str('PORT') ?? '3000';
if (port === '0') {
  process.stderr.write('PORT=0 is not supported by infra/start.mjs: the builder must know where the API listens.\n');
  process.exit(1);
}
const host = reader.str('HOST') ?? '127.0.0.1';
const reachable = ['0.0.0.0', '::'].includes(host) ? '127.0.0.1' : host;
const apiUrl = `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}`;
const varDir = path.resolve(reader.str('VAR_DIR') ?? './var');
const external = reader.str('REBUILD_WEBHOOK_URL') !== undefined;
// A fresh secret per run: both ends learn it from here, nobody else ever needs it. A secret given
// (directly or in a file) is passed on as a value, so the children never see both forms.
const secret = reader.str('REBUILD_WEBHOOK_SECRET') ?? randomBytes(32).toString('hex');
const childEnv = { ...env };
delete childEnv.REBUILD_WEBHOOK_SECRET_FILE;

// A bad setting is said once, plainly, before anything starts (the API would say the same and stop,
// and the builder, already waiting for it, would add a misleading failed build).
try {
  const { loadConfig, ConfigError } = await import('../admin-api/dist/src/config/config.js');
  try {
    loadConfig({ ...env, VAR_DIR: varDir });
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\nFix these environment variables and start again.\n`);
    process.exit(1);
  }
} catch (error) {
  // Without the built API (a custom API command), the API checks its own settings.
  if (error?.code !== 'ERR_MODULE_NOT_FOUND') throw error;
}

const children = new Map();
let stopping = false;
const restartTimers = new Set();

/** `onExit` (if given) decides what an exit means; without it, everything stops. */
function watch(name, child, onExit = null) {
  children.set(name, child);
  child.once('exit', (code, signal) => {
    children.delete(name);
    if (stopping) return;
    const how = signal ?? `exit code ${code}`;
    if (onExit?.(how)) return;
    say(`the ${name} stopped (${how}); stopping everything`);
    stop(code || 1);
  });
}

async function stop(exitCode = 0) {
  if (stopping) return;
  stopping = true;
  for (const timer of restartTimers) clearTimeout(timer);
  const waits = [...children.values()].map(
    (child) =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', resolve);
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
      }),
  );
  await Promise.all(waits);
  process.exit(exitCode);
}

for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => stop(0));

/** Crashes in a row of one process, each within this long of its start, that stop everything. */
const CRASH_LOOP = { crashes: 5, withinMs: 60_000 };
const quickCrashes = new Map();

/**
 * A process that had served stopped on its own: `start` runs it again after a pause that doubles,
 * and on a crash loop everything stops, in one line. Returns true (the exit is handled).
 */
function restartLater(name, ranMs, how, start, meanwhile) {
  const crashes = ranMs < CRASH_LOOP.withinMs ? (quickCrashes.get(name) ?? 0) + 1 : 1;
  quickCrashes.set(name, crashes);
  if (crashes >= CRASH_LOOP.crashes) {
    say(
      `the ${name} crashed ${crashes} times in a row, each within ${CRASH_LOOP.withinMs / 1000} s of its start (last: ${how}); stopping everything`,
    );
    stop(1);
    return true;
  }
  const delayMs = 1000 * 2 ** (crashes - 1);
  say(`the ${name} stopped (${how}); starting it again in ${delayMs / 1000} s (${meanwhile})`);
  const timer = setTimeout(() => {
    restartTimers.delete(timer);
    if (!stopping) start();
  }, delayMs);
  restartTimers.add(timer);
  return true;
}

/** Where the builder listens: BUILDER_PORT (0: a free port, then the one it got, so a restart keeps the address the API was given). */
let builderPort = reader.str('BUILDER_PORT') ?? '0';
let builderServed = false;

/** The builder process; resolves to the port it listens on, or null when it stopped before. */
function startBuilder() {
  const builder = fork(BUILDER_MAIN, [], {
    cwd: ROOT,
    execPath: process.execPath,
    execArgv: [...NODE_FLAGS.builder],
    env: {
      ...MALLOC_ENV,
      ...childEnv,
      VAR_DIR: varDir,
      BUILDER_HOST: '127.0.0.1',
      BUILDER_PORT: String(builderPort),
      SITE_API_URL: apiUrl,
      // The site's canonical links and sitemap: the address people use.
      SITE_URL: reader.str('SITE_URL') ?? reader.str('PUBLIC_URL') ?? `http://localhost:${port}`,
      REBUILD_WEBHOOK_SECRET: secret,
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const startedAt = Date.now();
  // A builder that never started (a bad setting, a port in use) stops everything at once; one that has served is started again.
  watch(
    'builder',
    builder,
    (how) => builderServed && restartLater('builder', Date.now() - startedAt, how, startBuilder, 'the API keeps serving the site'),
  );
  return new Promise((resolve) => {
    builder.on('message', (m) => {
      if (m?.type !== 'listening') return;
      builderServed = true;
      builderPort = m.port;
      resolve(m.port);
    });
    builder.once('exit', () => resolve(null));
  });
}

let builderUrl = null;
if (!external) {
  // Stopped before it listened: watch() is already stopping everything.
  if ((await startBuilder()) === null) await new Promise(() => {});
  builderUrl = `http://127.0.0.1:${builderPort}`;
}

let apiServed = false;
/** The API process; one that had answered is started again when it stops on its own (and said so when it answers again). */
function startApi() {
  const api = spawn(apiCmd === 'node' ? process.execPath : apiCmd, apiArgs, {
    cwd: ROOT,
    env: {
      ...(builderUrl ? childEnv : env),
      VAR_DIR: varDir,
      ...(builderUrl
        ? { REBUILD_WEBHOOK_URL: `${builderUrl}/hooks/rebuild`, REBUILD_STATUS_URL: `${builderUrl}/status`, REBUILD_WEBHOOK_SECRET: secret }
        : {}),
    },
    stdio: 'inherit',
  });
  const startedAt = Date.now();
  watch(
    'API',
    api,
    (how) => apiServed && restartLater('API', Date.now() - startedAt, how, restartApi, 'the site and /api answer again once it is up'),
  );
  return api;
}
async function restartApi() {
  const api = startApi();
  while (!stopping && api.exitCode === null && api.signalCode === null) {
    if (await apiAnswers()) return say(`the API answers again on ${apiUrl}/`);
    await delay(200);
  }
}
async function apiAnswers() {
  try {
    return (await fetch(`${apiUrl}/api/health`, { signal: AbortSignal.timeout(2000) })).ok;
  } catch {
    return false; // Still starting.
  }
}
startApi();

// Ready means: the API answers, and (with our builder) a complete site is live.
while (!stopping) {
  if (await apiAnswers()) {
    apiServed = true;
    break;
  }
  await delay(200);
}
let site = 'served by the external builder';
if (builderUrl) {
  let announced = false;
  for (;;) {
    let status = null;
    try {
      status = await (await fetch(`${builderUrl}/status`, { headers: statusHeaders(secret), signal: AbortSignal.timeout(2000) })).json();
    } catch {
      // The builder may be busy starting the build; ask again.
    }
    if (stopping) break;
    if (status?.live) {
      // A first build can be live before the first look (a small site publishes in well under a second).
      const builtNow = announced || status.startedWithoutSite;
      if (builtNow && !announced) say('building the site for the first time…');
      site = builtNow ? `site built in ${(status.live.durationMs / 1000).toFixed(1)} s` : `site ${status.live.id}`;
      break;
    }
    if (status && !status.building && !status.queued && status.lastBuild && !status.lastBuild.ok) {
      site = 'NO SITE YET: the first build failed (see above); the API runs, and the next content change or "Publish now" builds again';
      break;
    }
    if (status?.building && !announced) {
      announced = true;
      say('building the site for the first time…');
    }
    await delay(200);
  }
}
if (!stopping) say(`ready on ${apiUrl}/ (${site}); API at ${apiUrl}/api, docs at ${apiUrl}/api/docs`);
