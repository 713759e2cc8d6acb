#!/usr/bin/env node
// Benchmark of publishing on the embedded default: how long an edit takes to be on the site.
//
// For each item count it starts the product as `npm start` does (infra/start.mjs: the built API
// plus the builder running the real site build) on a free port with a fresh VAR_DIR, creates the
// books through the API, waits until publishing has settled, then measures:
//   - publish latency: from a PATCH answered by the API to the changed HTML being served
//     (the book's page, polled every 50 ms);
//   - coalescing: 20 saves within 10 s; how many builds they caused, and whether the final page
//     shows the last save;
//   - each build's own duration and its peak memory (the build process tree, sampled by the
//     builder, from the builds' records in $VAR_DIR/site/builds/*.json).
// It builds nothing itself: the root `npm run bench` compiles the API first.
//
// Environment:
//   BENCH_PUBLISH_ITEMS   item counts to run (default "100,4000")
//   BENCH_PUBLISH_RUNS    latency measurements per count (default 3)
//   BENCH_PAGE            page that shows a book, {id} replaced (default "/books/{id}")
//   BUILD_COMMAND         site build command (default: the builder's, `npm run build -w site`)
//   PUBLISH_QUIET_MS …    any other variable is passed on to the API and builder as usual
//   API_ENTRY             built API entry (default admin-api/dist/src/main.js)
//
// Exit code is 0 even when a target is missed (a benchmark, not a test); non-zero only when the
// benchmark itself could not run.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const API_ENTRY = path.resolve(process.env.INIT_CWD || process.cwd(), process.env.API_ENTRY || path.join(ROOT, 'admin-api/dist/src/main.js'));
// Start the API exactly as `npm start` does: same Node flags as the root start script.
const START_FLAGS = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts.start.match(/node ((?:--\S+ )*)admin-api/)?.[1] ?? '')
  .trim()
  .split(/\s+/)
  .filter(Boolean);
const ITEMS = (process.env.BENCH_PUBLISH_ITEMS || '100,4000').split(',').map((n) => Number(n.trim()));
const RUNS = Number(process.env.BENCH_PUBLISH_RUNS || 3);
const PAGE = process.env.BENCH_PAGE || '/books/{id}';
const TARGETS = { 100: 5000, 4000: 15000 };
const ADMIN = { username: 'bench-admin', password: `bench-${process.pid}-${Date.now()}` };

const children = new Set();
const tempDirs = new Set();
async function cleanup() {
  for (const child of children) {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
  }
  children.clear();
  for (const dir of tempDirs) await rm(dir, { recursive: true, force: true });
  tempDirs.clear();
}
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    process.stderr.write(`\n${signal}: stopping the stack and removing temp dirs…\n`);
    cleanup().finally(() => process.exit(130));
  });
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

async function until(what, check, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
    await delay(50);
  }
}

async function startStack() {
  const varDir = await mkdtemp(path.join(os.tmpdir(), 'portfolio-bench-publish-'));
  tempDirs.add(varDir);
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(ROOT, 'infra/start.mjs'), 'node', ...START_FLAGS, API_ENTRY], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), VAR_DIR: varDir, SEED_DEMO: 'false', LOG_REQUESTS: 'false', ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let output = '';
  child.stdout.on('data', (c) => (output += c));
  child.stderr.on('data', (c) => (output += c));
  await until('"ready" from infra/start.mjs', () => {
    if (child.exitCode !== null) throw new Error(`the stack stopped while starting:\n${output.slice(-4000)}`);
    return /\[start\] ready on /.test(output);
  }, 300_000);
  const base = `http://127.0.0.1:${port}`;
  const call = async (method, route, { token, body } = {}) => {
    const res = await fetch(base + route, {
      method,
      headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  const stop = async () => {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
    children.delete(child);
    await rm(varDir, { recursive: true, force: true });
    tempDirs.delete(varDir);
  };
  return { base, varDir, call, stop, output: () => output };
}

/** The builds the builder recorded so far, oldest first. */
function builds(varDir) {
  const dir = path.join(varDir, 'site', 'builds');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => JSON.parse(readFileSync(path.join(dir, f), 'utf8')));
}

async function settled(stack, token, timeoutMs = 600_000) {
  return until(
    'publishing to settle',
    async () => {
      const s = (await stack.call('GET', '/api/admin/publishing', { token })).body;
      if (s.state === 'failed') throw new Error(`publishing failed:\n${s.lastError}`);
      return s.state === 'live' && s.pendingChanges === 0 && s;
    },
    timeoutMs,
  );
}

async function pageShows(stack, id, text, timeoutMs) {
  const url = stack.base + PAGE.replace('{id}', String(id));
  return until(`${url} to show "${text}"`, async () => (await (await fetch(url)).text()).includes(text), timeoutMs);
}

function makeBook(i) {
  return {
    title: `Bench book ${i} — كتاب ${i}`,
    description: `A book written for the publishing benchmark, number ${i}. `.repeat(4),
    year: 1990 + (i % 35),
    publisher: `Publisher ${i % 17}`,
    genre: ['Novel', 'Poetry', 'Essays'][i % 3],
    awards: i % 5 === 0 ? ['Prize'] : [],
  };
}

async function runCount(n) {
  const stack = await startStack();
  try {
    const token = (await stack.call('POST', '/api/admin/login', { body: ADMIN })).body.sessionId;
    const seedStarted = Date.now();
    const ids = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (next < n) {
          const i = next++;
          const res = await stack.call('POST', '/api/books', { token, body: makeBook(i) });
          if (res.status !== 201) throw new Error(`creating book ${i}: ${res.status} ${JSON.stringify(res.body)}`);
          ids.push(res.body.id);
        }
      }),
    );
    await settled(stack, token);
    const seedMs = Date.now() - seedStarted;
    const id = ids.sort((a, b) => a - b)[Math.floor(ids.length / 2)];

    const latencies = [];
    for (let run = 1; run <= RUNS; run++) {
      const title = `Edited for run ${run} ${Date.now().toString(36)}`;
      const res = await stack.call('PATCH', `/api/books/${id}`, { token, body: { title } });
      if (res.status !== 200) throw new Error(`PATCH answered ${res.status}`);
      const answered = performance.now();
      await pageShows(stack, id, title, 300_000);
      latencies.push(performance.now() - answered);
      await settled(stack, token);
    }
    const measuredBuilds = builds(stack.varDir).slice(-RUNS);

    // Coalescing: 20 saves, one every 500 ms (20 saves within 10 s).
    // By id: the builder keeps only the newest few records, so counting files would undercount.
    const before = new Set(builds(stack.varDir).map((b) => b.id));
    let last = '';
    for (let i = 1; i <= 20; i++) {
      last = `Burst save ${i} ${Date.now().toString(36)}`;
      const res = await stack.call('PATCH', `/api/books/${id}`, { token, body: { title: last } });
      if (res.status !== 200) throw new Error(`PATCH answered ${res.status}`);
      if (i < 20) await delay(500);
    }
    await settled(stack, token);
    const burstBuilds = builds(stack.varDir).filter((b) => !before.has(b.id));
    const finalShowsLast = (await (await fetch(stack.base + PAGE.replace('{id}', String(id)))).text()).includes(last);

    return { n, seedMs, latencies, measuredBuilds, burstBuilds, finalShowsLast };
  } finally {
    await stack.stop();
  }
}

const fmtS = (ms) => `${(ms / 1000).toFixed(2)} s`;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const mb = (bytes) => (bytes ? `${Math.round(bytes / 2 ** 20)} MB` : 'n/a');

async function main() {
  if (!existsSync(API_ENTRY)) throw new Error(`no built API at ${API_ENTRY}: run \`npm run build\` first (the root \`npm run bench\` does)`);
  const out = [];
  const say = (line = '') => {
    out.push(line);
    process.stdout.write(`${line}\n`);
  };
  say('');
  say('=== Publishing benchmark (embedded default: API + builder + site build) ===');
  say(`build command: ${process.env.BUILD_COMMAND || 'npm run build -w site'}; quiet period ${process.env.PUBLISH_QUIET_MS || 2000} ms; page ${PAGE}`);
  say(`machine: ${os.cpus().length} CPUs, ${Math.round(os.totalmem() / 2 ** 30)} GB, Node ${process.version}`);
  let failed = false;
  for (const n of ITEMS) {
    say('');
    say(`--- ${n} books ---`);
    try {
      const r = await runCount(n);
      const target = TARGETS[n];
      const med = median(r.latencies);
      say(`seeding ${n} books and first publish: ${fmtS(r.seedMs)}`);
      say(`publish latency (PATCH answered → new HTML served): ${r.latencies.map(fmtS).join(', ')}; median ${fmtS(med)}${target ? ` (target < ${fmtS(target)}: ${med < target ? 'met' : 'MISSED'})` : ''}`);
      say(`  build duration: ${r.measuredBuilds.map((b) => fmtS(b.durationMs)).join(', ')}; peak memory of the build: ${r.measuredBuilds.map((b) => mb(b.peakRssBytes)).join(', ')}`);
      const burstOk = r.burstBuilds.length <= 2 && r.finalShowsLast;
      say(`coalescing: 20 saves in 10 s → ${r.burstBuilds.length} build(s); final page shows the last save: ${r.finalShowsLast ? 'yes' : 'NO'} (target ≤ 2 builds: ${burstOk ? 'met' : 'MISSED'})`);
      say(`  those builds: ${r.burstBuilds.map((b) => `${fmtS(b.durationMs)} / ${mb(b.peakRssBytes)}${b.ok ? '' : ' FAILED'}`).join(', ')}`);
    } catch (error) {
      failed = true;
      say(`could not run with ${n} books: ${error.message}`);
    }
  }
  say('');
  await cleanup();
  process.exit(failed ? 1 : 0);
}

main().catch(async (error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  await cleanup();
  process.exit(1);
});
