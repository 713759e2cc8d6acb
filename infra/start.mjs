#!/usr/bin/env node
// The embedded default in one command (`npm start`): the API and the site builder side by side.
//
//   node infra/start.mjs [API command…]     default: node --max-semi-space-size=4 admin-api/dist/src/main.js
//
// - Starts the builder on a free loopback port and the API with REBUILD_WEBHOOK_URL/STATUS_URL
//   pointing at it, both sharing a secret made for this run (or REBUILD_WEBHOOK_SECRET if set).
// - On the first start (no live site yet) the builder builds the site from the API; "ready" is
//   printed once that build is live, so the first page a person opens is complete.
// - With REBUILD_WEBHOOK_URL already set (a builder or hosted build hook elsewhere), only the API runs.
// - Ctrl-C / SIGTERM stops both; if either stops on its own, the other is stopped too.
import { fork, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { EnvReader } from '@portfolio/contract/env';
import { statusHeaders } from '@portfolio/contract/webhook';
import { withMallocEnv } from '@portfolio/site/render/malloc.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BUILDER_MAIN = path.join(ROOT, 'infra/builder/main.mjs');
const say = (line) => process.stdout.write(`[start] ${line}\n`);

const [apiCmd, ...apiArgs] = process.argv.length > 2 ? process.argv.slice(2) : ['node', '--max-semi-space-size=4', 'admin-api/dist/src/main.js'];
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

function watch(name, child) {
  children.set(name, child);
  child.once('exit', (code, signal) => {
    children.delete(name);
    if (stopping) return;
    say(`the ${name} stopped (${signal ?? `exit code ${code}`}); stopping everything`);
    stop(code || 1);
  });
}

async function stop(exitCode = 0) {
  if (stopping) return;
  stopping = true;
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

let builderUrl = null;
if (!external) {
  const builder = fork(BUILDER_MAIN, [], {
    cwd: ROOT,
    execPath: process.execPath,
    // As for the API: a small young generation keeps an idle Node process small.
    // V8 favouring size over speed: the builder's peak over targeted publishes of 4,000 books fell from ~102 to ~84 MB.
    execArgv: ['--max-semi-space-size=4', '--optimize-for-size'],
    env: {
      // glibc's allocator settings for the builder (site/render/malloc.mjs), unless the operator set them.
      ...withMallocEnv(childEnv),
      VAR_DIR: varDir,
      BUILDER_HOST: '127.0.0.1',
      BUILDER_PORT: reader.str('BUILDER_PORT') ?? '0',
      SITE_API_URL: apiUrl,
      // The site's canonical links and sitemap: the address people use.
      SITE_URL: reader.str('SITE_URL') ?? reader.str('PUBLIC_URL') ?? `http://localhost:${port}`,
      REBUILD_WEBHOOK_SECRET: secret,
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  watch('builder', builder);
  const message = await new Promise((resolve) => {
    builder.on('message', (m) => m?.type === 'listening' && resolve(m));
    builder.once('exit', () => resolve(null));
  });
  if (!message) await stop(1);
  builderUrl = `http://127.0.0.1:${message.port}`;
}

const api = spawn(apiCmd === 'node' ? process.execPath : apiCmd, apiArgs, {
  cwd: ROOT,
  env: {
    ...(builderUrl ? childEnv : env),
    VAR_DIR: varDir,
    ...(builderUrl ? { REBUILD_WEBHOOK_URL: `${builderUrl}/hooks/rebuild`, REBUILD_STATUS_URL: `${builderUrl}/status`, REBUILD_WEBHOOK_SECRET: secret } : {}),
  },
  stdio: 'inherit',
});
watch('API', api);

// Ready means: the API answers, and (with our builder) a complete site is live.
while (!stopping) {
  try {
    if ((await fetch(`${apiUrl}/api/health`, { signal: AbortSignal.timeout(2000) })).ok) break;
  } catch {
    // Still starting.
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
