#!/usr/bin/env node
// Benchmark of publishing on the embedded default: how long an edit takes to be on the site.
//
// For each item count it starts the product as `npm start` does (infra/start.mjs: the built API
// plus the builder, in renderer mode unless BUILD_COMMAND says otherwise) on a free port with a
// fresh VAR_DIR, creates the content through the API (the books by 8 clients at once: how long after
// the last one's save its page is served), waits until publishing has settled, then measures:
//   - publish latency: from a PATCH answered by the API to the changed HTML being served (the
//     book's page, polled every 20 ms), p50 and p95 over the runs;
//   - those publishes' own duration (targeted: only the routes the edit touches; from the records in
//     $VAR_DIR/site/builds/*.json) and the peak memory of the builder and its renderer (sampled from
//     /proc by this benchmark: memory.mjs);
//   - a settings change (the author's English name, which every page shows), PATCHed as the overlay
//     does: from the API's answer until sampled pages (home, a book's page, a list, their `/ar/`
//     addresses) are served with it; seconds, pages re-rendered and peak memory;
//   - a full publish ('Publish now'; over the live version, as the builder made it): its duration,
//     pages per second and peak memory (the first publishes of the seeding are into an empty folder);
//   - coalescing: 20 saves within 10 s; how many publishes they caused, and whether the final page
//     shows the last save.
// Then (renderer mode) the publishing invariant test with more rounds than the suite runs:
// random edits, each published by a targeted publish, and the live tree compared byte for byte with
// a full export (infra/test/publish.spec.mjs).
// It builds nothing itself: the root `npm run bench` compiles the API first.
//
// Environment:
//   BENCH_PUBLISH_ITEMS   book counts to run (default "100,4000"); from 20,000 books on, 1,000 each
//                         of essays, artworks and news are added (e.g. "100,4000,20000")
//   BENCH_PUBLISH_RUNS    latency measurements per count (default 10)
//   BENCH_INVARIANT_ROUNDS  rounds of the invariant test (default 200; 0 skips it)
//   BENCH_PAGE            page that shows a book, {id} replaced (default "/books/{id}")
//   BUILD_COMMAND         command mode: this command builds the whole site on every publish
//   PUBLISH_QUIET_MS …    passed on to the API and builder as usual (PUBLISH_QUIET_MS default 300 here)
//   API_ENTRY             built API entry (default admin-api/dist/src/main.js)
//
// Exit code is 0 even when a target is missed (a benchmark, not a test); non-zero only when the
// benchmark itself could not run.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

import sharp from 'sharp';

import { NODE_FLAGS } from '../node-flags.mjs';
import { freePort, until } from '../test/support/wait.mjs';
import { sampleBuilderMemory } from './memory.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const API_ENTRY = path.resolve(
  process.env.INIT_CWD || process.cwd(),
  process.env.API_ENTRY || path.join(ROOT, 'admin-api/dist/src/main.js'),
);
const ITEMS = (process.env.BENCH_PUBLISH_ITEMS || '100,4000').split(',').map((n) => Number(n.trim()));
const RUNS = Number(process.env.BENCH_PUBLISH_RUNS || 10);
const INVARIANT_ROUNDS = Number(process.env.BENCH_INVARIANT_ROUNDS ?? 200);
const PAGE = process.env.BENCH_PAGE || '/books/{id}';
/** The budgets: latency p50 ≤ 1 s and p95 ≤ 2 s at every size; builder + renderers at most 700 MB (issue 34: two renderer processes). */
const TARGETS = { p50: 1000, p95: 2000 };
const memoryBudget = () => 700 * 2 ** 20;
/** From this many books on, 1,000 each of essays, artworks and news are added. */
const LARGE = 20_000;
const EXTRAS = 1000;
const QUIET_MS = process.env.PUBLISH_QUIET_MS || '300';
const ADMIN = { username: 'bench-admin', password: `bench-${process.pid}-${Date.now()}` };
const RECORD = /^[^.]+\.json$/;

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

async function startStack() {
  const varDir = await mkdtemp(path.join(os.tmpdir(), 'portfolio-bench-publish-'));
  tempDirs.add(varDir);
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(ROOT, 'infra/start.mjs'), 'node', ...NODE_FLAGS.api, API_ENTRY], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      VAR_DIR: varDir,
      SEED_DEMO: 'false',
      LOG_REQUESTS: 'false',
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
      PUBLISH_QUIET_MS: QUIET_MS,
      // The default (5), as an operator runs it: the next publish's folder is then the oldest kept
      // version brought up to date. The records are read after every publish, before any is pruned.
      ...(process.env.KEEP_BUILDS ? { KEEP_BUILDS: process.env.KEEP_BUILDS } : {}),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let output = '';
  child.stdout.on('data', (c) => (output += c));
  child.stderr.on('data', (c) => (output += c));
  await until(
    '"ready" from infra/start.mjs',
    () => {
      if (child.exitCode !== null) throw new Error(`the stack stopped while starting:\n${output.slice(-4000)}`);
      return /\[start\] ready on /.test(output);
    },
    300_000,
  );
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
  return { base, varDir, call, stop, output: () => output, pid: child.pid };
}

/** The publishes the builder recorded so far, oldest first (not its site maps and path lists). */
function builds(varDir) {
  const dir = path.join(varDir, 'site', 'builds');
  return readdirSync(dir)
    .filter((f) => RECORD.test(f))
    .sort()
    .flatMap((f) => {
      // The oldest kept version is recycled (its record removed) right after a publish: gone is fine.
      try {
        return [JSON.parse(readFileSync(path.join(dir, f), 'utf8'))];
      } catch (error) {
        if (error.code === 'ENOENT') return [];
        throw error;
      }
    });
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
  return until(`${url} to show "${text}"`, async () => (await (await fetch(url)).text()).includes(text), timeoutMs, 20);
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

async function uploadImage(stack, token) {
  const png = await sharp({ create: { width: 1200, height: 800, channels: 3, background: { r: 120, g: 80, b: 40 } } })
    .png()
    .toBuffer();
  const form = new FormData();
  form.append('file', new Blob([png], { type: 'image/png' }), 'bench.png');
  form.append('contentType', 'artworks');
  const res = await fetch(`${stack.base}/api/upload`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  if (res.status !== 201) throw new Error(`upload answered ${res.status}`);
  return (await res.json()).url;
}

/**
 * Creates `count` items through the API, `clients` requests at a time; returns their ids and the
 * last one answered (its index for `make` and its id) with the moment of that answer.
 */
async function createMany(stack, token, kind, count, make, clients = 4) {
  const ids = [];
  let last = null;
  let next = 0;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (next < count) {
        const i = next++;
        const res = await stack.call('POST', `/api/${kind}`, { token, body: make(i) });
        if (res.status !== 201) throw new Error(`creating ${kind} ${i}: ${res.status} ${JSON.stringify(res.body)}`);
        ids.push(res.body.id);
        last = { index: i, id: res.body.id, savedAt: performance.now() };
      }
    }),
  );
  return { ids, last };
}

async function runCount(n) {
  const stack = await startStack();
  const memory = sampleBuilderMemory(stack.pid);
  try {
    const token = (await stack.call('POST', '/api/admin/login', { body: ADMIN })).body.sessionId;
    const seedStarted = Date.now();
    // Issue 34: the books added by 8 clients at once, and how long after the last save its page is served.
    // The publishes made meanwhile, read before the builder prunes their records.
    const catchUpBuilds = new Map();
    const watchBuilds = setInterval(() => {
      for (const b of builds(stack.varDir)) catchUpBuilds.set(b.id, b);
    }, 1000);
    let ids;
    let catchUpMs;
    try {
      const made = await createMany(stack, token, 'books', n, makeBook, 8);
      ids = made.ids;
      await pageShows(stack, made.last.id, `Bench book ${made.last.index} `, 1_800_000);
      catchUpMs = performance.now() - made.last.savedAt;
    } finally {
      clearInterval(watchBuilds);
    }
    for (const b of builds(stack.varDir)) catchUpBuilds.set(b.id, b);
    const extras = n >= LARGE ? EXTRAS : 0;
    if (extras) {
      const image = await uploadImage(stack, token);
      const text = (kind, i) => `A ${kind} item written for the publishing benchmark, number ${i}. `.repeat(3);
      await createMany(stack, token, 'essays', extras, (i) => ({
        title: `Bench essay ${i}`,
        excerpt: text('essay', i),
        content: text('essay', i).repeat(4),
        published: true,
      }));
      await createMany(stack, token, 'artworks', extras, (i) => ({
        title: `Bench artwork ${i}`,
        medium: 'Oil on canvas',
        year: 2000 + (i % 25),
        image,
      }));
      await createMany(stack, token, 'news', extras, (i) => ({
        title: `Bench news ${i}`,
        excerpt: text('news', i),
        content: text('news', i),
        category: 'other',
        published: true,
      }));
    }
    // At 20,000 books on a loaded machine one full publish of the seeded site alone can take over 600 s.
    await settled(stack, token, 1_800_000);
    const seedMs = Date.now() - seedStarted;
    const id = ids.sort((a, b) => a - b)[Math.floor(ids.length / 2)];
    const seen = new Map();
    const collect = () => {
      for (const b of builds(stack.varDir)) seen.set(b.id, b);
    };
    collect();
    const seeded = new Set(seen.keys());

    const latencies = [];
    const measured = [];
    const editPeaks = [];
    for (let run = 1; run <= RUNS; run++) {
      const title = `Edited for run ${run} ${Date.now().toString(36)}`;
      memory.reset();
      const res = await stack.call('PATCH', `/api/books/${id}`, { token, body: { title } });
      if (res.status !== 200) throw new Error(`PATCH answered ${res.status}`);
      const answered = performance.now();
      await pageShows(stack, id, title, 300_000);
      latencies.push(performance.now() - answered);
      await settled(stack, token);
      editPeaks.push(await memory.peak());
      collect();
      measured.push(...[...seen.values()].filter((b) => !seeded.has(b.id) && !measured.some((m) => m.id === b.id)));
    }
    const routes = measured.at(-1)?.routes ?? null;
    // What every publish pays to list the routes: the API's answer for the whole book collection.
    const apiStarted = performance.now();
    await (await fetch(`${stack.base}/api/books`)).arrayBuffer();
    const booksApiMs = performance.now() - apiStarted;

    // A settings change every page shows: the author's English name, PATCHed as the overlay saves it.
    const beforeSettings = new Set(seen.keys());
    memory.reset();
    const author = `Bench Author ${Date.now().toString(36)}`;
    const settingsRes = await stack.call('PATCH', '/api/admin/settings', { token, body: { authorNameEn: author } });
    if (settingsRes.status !== 200) throw new Error(`PATCH /api/admin/settings answered ${settingsRes.status}`);
    const settingsAnswered = performance.now();
    const sampled = ['/', '/books', `/books/${id}`, '/ar/', `/ar/books/${id}`, `/ar/books/${ids[0]}`];
    await until(
      `the sampled pages to show "${author}"`,
      async () => {
        for (const page of sampled) if (!(await (await fetch(stack.base + page)).text()).includes(author)) return false;
        return true;
      },
      900_000,
      50,
    );
    const settingsMs = performance.now() - settingsAnswered;
    await settled(stack, token);
    const settingsPeak = await memory.peak();
    collect();
    const settingsBuilds = [...seen.values()].filter((b) => !beforeSettings.has(b.id));

    // A full publish of the same content: 'Publish now'.
    const beforeFull = new Set(seen.keys());
    memory.reset();
    const publishNow = await stack.call('POST', '/api/admin/publishing', { token });
    if (publishNow.status !== 202) throw new Error(`Publish now answered ${publishNow.status}`);
    await until(
      'the full publish',
      () => {
        collect();
        return [...seen.values()].find((b) => !beforeFull.has(b.id) && b.reasons.includes('publish-now'));
      },
      900_000,
    );
    await settled(stack, token);
    const fullPeak = await memory.peak();
    collect();
    const full = [...seen.values()].filter((b) => !beforeFull.has(b.id) && b.reasons.includes('publish-now'));

    // Coalescing: 20 saves, one every 500 ms (20 saves within 10 s).
    const before = new Set(seen.keys());
    memory.reset();
    let last = '';
    for (let i = 1; i <= 20; i++) {
      last = `Burst save ${i} ${Date.now().toString(36)}`;
      const res = await stack.call('PATCH', `/api/books/${id}`, { token, body: { title: last } });
      if (res.status !== 200) throw new Error(`PATCH answered ${res.status}`);
      collect();
      if (i < 20) await delay(500);
    }
    await settled(stack, token);
    const burstPeak = await memory.peak();
    collect();
    const burstBuilds = [...seen.values()].filter((b) => !before.has(b.id));
    const finalShowsLast = (await (await fetch(stack.base + PAGE.replace('{id}', String(id)))).text()).includes(last);

    return {
      n,
      extras,
      seedMs,
      catchUpMs,
      catchUpBuilds: [...catchUpBuilds.values()].sort((a, b) => a.startedAt.localeCompare(b.startedAt)),
      routes,
      booksApiMs,
      latencies,
      measured,
      editPeaks,
      settingsMs,
      settingsBuilds,
      settingsPeak,
      full,
      fullPeak,
      burstBuilds,
      burstPeak,
      finalShowsLast,
    };
  } catch (error) {
    error.message += `\n  the stack's last output:\n${stack
      .output()
      .split('\n')
      .slice(-25)
      .map((l) => `    ${l}`)
      .join('\n')}`;
    throw error;
  } finally {
    memory.stop();
    await stack.stop();
  }
}

const fmtS = (ms) => `${(ms / 1000).toFixed(2)} s`;
/** Nearest-rank percentile. */
const percentile = (xs, p) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
};
const mb = (bytes) => (bytes ? `${Math.round(bytes / 2 ** 20)} MB` : 'n/a');
const modes = (list) =>
  Object.entries(list.reduce((acc, b) => ({ ...acc, [b.mode ?? 'full']: (acc[b.mode ?? 'full'] ?? 0) + 1 }), {}))
    .map(([m, c]) => `${c} ${m}`)
    .join(', ');

/** The invariant test (infra/test/publish.spec.mjs) with more rounds; resolves to its summary lines. */
function runInvariant(rounds) {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      ['--test', '--test-concurrency=1', '--test-name-pattern=invariant|first start', path.join(ROOT, 'infra/test/publish.spec.mjs')],
      {
        cwd: path.join(ROOT, 'infra'),
        env: {
          ...process.env,
          PUBLISH_TEST_ROUNDS: String(rounds),
          PUBLISH_TEST_SEED: process.env.PUBLISH_TEST_SEED || String(Date.now() % 100000),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    children.add(child);
    let output = '';
    child.stdout.on('data', (c) => (output += c));
    child.stderr.on('data', (c) => (output += c));
    child.once('exit', (code) => {
      children.delete(child);
      resolve({
        ok: code === 0,
        lines: output
          .split('\n')
          .filter((l) => /✔|✖|Only in|differ|AssertionError/.test(l))
          .slice(0, 20),
      });
    });
  });
}

async function main() {
  if (!existsSync(API_ENTRY))
    throw new Error(`no built API at ${API_ENTRY}: run \`npm run build\` first (the root \`npm run bench\` does)`);
  const say = (line = '') => process.stdout.write(`${line}\n`);
  const mode = process.env.BUILD_COMMAND ? `command mode: ${process.env.BUILD_COMMAND}` : 'renderer mode (targeted publishes)';
  say('');
  say('=== Publishing benchmark (embedded default: API + builder) ===');
  say(`${mode}; quiet period ${QUIET_MS} ms; page ${PAGE}; ${RUNS} runs per size`);
  say(`machine: ${os.cpus().length} CPUs, ${Math.round(os.totalmem() / 2 ** 30)} GB, Node ${process.version}`);
  let failed = false;
  for (const n of ITEMS) {
    say('');
    say(`--- ${n} books${n >= LARGE ? `, ${EXTRAS} each of essays, artworks and news` : ''} ---`);
    try {
      const r = await runCount(n);
      const p50 = percentile(r.latencies, 50);
      const p95 = percentile(r.latencies, 95);
      say(
        `seeding through the API and first publishes: ${fmtS(r.seedMs)}${r.routes ? `; the site has ${r.routes} routes` : ''}; GET /api/books answers in ${fmtS(r.booksApiMs)}`,
      );
      say(
        `${n} books added by 8 clients: the last one's page served ${fmtS(r.catchUpMs)} after its save (target ≤ 120 s: ${r.catchUpMs <= 120_000 ? 'met' : 'MISSED'})`,
      );
      const cb = r.catchUpBuilds;
      const fulls = cb.filter((b) => b.mode !== 'targeted');
      say(
        `  meanwhile ${cb.length} publishes (${cb.length - fulls.length} targeted, ${fulls.length} full${fulls.length ? `: ${[...new Set(fulls.map((b) => b.fullReason ?? b.reasons.join(', ')))].join('; ')}` : ''}); the last four: ${cb
          .slice(-4)
          .map((b) => `${b.mode}${b.overLive ? ' over live' : ''} ${b.rendered ?? '?'} pages in ${fmtS(b.durationMs)}`)
          .join(', ')}`,
      );
      const met = p50 <= TARGETS.p50 && p95 <= TARGETS.p95;
      say(
        `publish latency (PATCH answered → new HTML served): p50 ${fmtS(p50)}, p95 ${fmtS(p95)}, max ${fmtS(Math.max(...r.latencies))} (target p50 ≤ 1.00 s, p95 ≤ 2.00 s: ${met ? 'met' : 'MISSED'})`,
      );
      say(`  each: ${r.latencies.map(fmtS).join(', ')}`);
      const m = r.measured;
      if (m.length) {
        say(
          `  their publishes (${modes(m)}): duration p50 ${fmtS(
            percentile(
              m.map((b) => b.durationMs),
              50,
            ),
          )}, max ${fmtS(Math.max(...m.map((b) => b.durationMs)))}; routes rendered ${[...new Set(m.map((b) => b.rendered ?? '?'))].join('/')} of ${r.routes ?? '?'}; files changed ${[...new Set(m.map((b) => b.changedCount ?? '?'))].join('/')}`,
        );
        const trees = Object.entries(m.reduce((acc, b) => ({ ...acc, [b.tree ?? 'n/a']: (acc[b.tree ?? 'n/a'] ?? 0) + 1 }), {}));
        say(`  their folders: ${trees.map(([how, count]) => `${count} ${how}`).join(', ')}`);
        const steps = (b) =>
          `${Object.entries(b.timings)
            .map(([k, v]) => `${k.replace(/Ms$/, '')} ${v}`)
            .join(', ')}; whole publish ${b.durationMs} ms`;
        const t = m.at(-1);
        if (t?.timings) say(`  last one's steps (ms from its start): ${steps(t)}`);
        const slowest = m.reduce((a, b) => (b.durationMs > a.durationMs ? b : a), m[0]);
        if (slowest?.timings && slowest !== t && slowest.durationMs > 2 * t.durationMs)
          say(`  slowest one's steps: ${steps(slowest)}; ${slowest.rendered} routes rendered; its folder ${slowest.tree ?? 'n/a'}`);
      }
      const e = r.editPeaks;
      const editPeak = Math.max(...e.map((p) => p.total ?? 0));
      say(
        `  builder / renderer peak per edit, first → last: ${mb(e[0]?.builder)} / ${mb(e[0]?.renderer)} → ${mb(e.at(-1)?.builder)} / ${mb(e.at(-1)?.renderer)}`,
      );
      say(`  peak memory over the edits, builder + renderer: ${mb(editPeak)}`);
      say(
        `settings change (author's English name → sampled pages, both languages, served with it): ${fmtS(r.settingsMs)}; ${r.settingsBuilds
          .map((b) => `${b.mode ?? 'full'} publish of ${b.rendered ?? '?'} pages in ${fmtS(b.durationMs)}`)
          .join(
            ', ',
          )}; peak memory ${mb(r.settingsPeak.total)} (target ≤ ${n <= 4000 ? '10' : '45'} s: ${r.settingsMs <= (n <= 4000 ? 10_000 : 45_000) ? 'met' : 'MISSED'})`,
      );
      for (const f of r.full)
        say(
          `full publish ('Publish now', ${f.overLive ? 'over the live version' : 'into an empty folder'}): ${fmtS(f.durationMs)}, ${f.routes ? Math.round(f.routes / (f.durationMs / 1000)) : '?'} pages/s (target ≥ 2000), peak memory ${mb(r.fullPeak.total)} (builder ${mb(r.fullPeak.builder)}, renderer ${mb(r.fullPeak.renderer)}); ${f.routes ?? '?'} routes; ${f.addedCount ?? '?'} added, ${f.changedCount ?? '?'} changed, ${f.removedCount ?? '?'} removed${f.ok ? '' : ' FAILED'}`,
        );
      const burstOk = r.burstBuilds.length <= 20 && r.finalShowsLast;
      say(
        `coalescing: 20 saves in 10 s → ${r.burstBuilds.length} publish(es) (${modes(r.burstBuilds)}); final page shows the last save: ${r.finalShowsLast ? 'yes' : 'NO'}${burstOk ? '' : ' (MISSED)'}`,
      );
      say(
        `  those publishes: ${r.burstBuilds.map((b) => `${fmtS(b.durationMs)}${b.ok ? '' : ' FAILED'}`).join(', ')}; peak memory ${mb(r.burstPeak.total)}`,
      );
      const peak = Math.max(editPeak, r.settingsPeak.total ?? 0, r.fullPeak.total ?? 0, r.burstPeak.total ?? 0);
      const budget = memoryBudget();
      say(
        `peak memory, builder + renderer, over everything above: ${mb(peak)} (budget ≤ ${mb(budget)}: ${peak && peak <= budget ? 'met' : 'MISSED'})`,
      );
      const f = r.full.at(-1);
      const ep = e.reduce((a, b) => ((b.total ?? 0) > (a.total ?? 0) ? b : a), {});
      say(
        `table row: | ${n} | ${r.routes ?? '?'} | ${fmtS(p50)} / ${fmtS(p95)} | ${
          m.length
            ? fmtS(
                percentile(
                  m.map((b) => b.durationMs),
                  50,
                ),
              )
            : 'n/a'
        } | ${mb(ep.total)} (${mb(ep.builder)} + ${mb(ep.renderer)}) | ${f ? fmtS(f.durationMs) : 'n/a'}, ${mb(r.fullPeak.total)} |`,
      );
    } catch (error) {
      failed = true;
      say(`could not run with ${n} books: ${error.message}`);
    }
  }
  if (INVARIANT_ROUNDS > 0 && !process.env.BUILD_COMMAND) {
    say('');
    say(`--- invariant: ${INVARIANT_ROUNDS} random edits, each published by a targeted publish, then live vs a full export (diff -r) ---`);
    const inv = await runInvariant(INVARIANT_ROUNDS);
    for (const line of inv.lines) say(`  ${line.trim()}`);
    if (!inv.ok) say('  the invariant test FAILED');
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
