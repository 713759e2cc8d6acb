#!/usr/bin/env node
// Benchmark of the admin API's public book list: GET /api/books with 100 books.
// With MySQL it also runs two API processes (replicas) on the one database and spreads the same
// load over both, as nginx does in front of `docker compose --profile replicas` (BENCH_REPLICAS=0
// leaves that run out).
//
// For each database (SQLite always; MySQL/MariaDB when BENCH_MYSQL_URL or TEST_MYSQL_URL is
// set) it starts the built API as a child process on a free port with a fresh VAR_DIR, creates
// 100 realistic books through the real API, warms up, then measures GET /api/books at a fixed
// concurrency. It builds nothing: the root `npm run bench` builds admin-api first.
//
// Environment:
//   API_ENTRY          built entry point (default: admin-api/dist/src/main.js); relative to where
//                      the command was typed
//   API_NODE           Node binary for the API (default: this process's own Node)
//   API_NODE_ARGS      Node flags for the API (default: the ones `npm start` uses, infra/node-flags.mjs), e.g. add "--cpu-prof --cpu-prof-dir=/tmp/prof"
//   BENCH_SECONDS      measured seconds per database (default 10)
//   BENCH_WARMUP       warm-up seconds (default 2)
//   BENCH_CONNECTIONS  concurrent connections (default 50)
//   BENCH_BOOKS        books to create (default 100)
//   BENCH_MYSQL_URL / TEST_MYSQL_URL  mysql://user:pass@host:port/db; ALL TABLES IN IT ARE DROPPED
//
// Exit code is 0 even when a target is missed (a benchmark, not a test); it is non-zero only
// when the benchmark itself could not run.

import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { NODE_FLAGS } from '../node-flags.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const API_DIR = path.join(ROOT, 'admin-api');
const API_ENTRY = process.env.API_ENTRY
  ? path.resolve(process.env.INIT_CWD || process.cwd(), process.env.API_ENTRY) // INIT_CWD: where `npm run` was typed
  : path.join(API_DIR, 'dist/src/main.js');
const API_NODE = process.env.API_NODE || process.execPath;
// Measure the API as `npm start` runs it: the same Node flags.
const API_NODE_ARGS =
  process.env.API_NODE_ARGS !== undefined ? process.env.API_NODE_ARGS.split(/\s+/).filter(Boolean) : [...NODE_FLAGS.api];

const num = (name, fallback, min = 0) => {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < min) throw new Error(`${name} must be a number ≥ ${min} (got "${raw}")`);
  return n;
};
const SECONDS = num('BENCH_SECONDS', 10, 0.5);
const WARMUP_SECONDS = num('BENCH_WARMUP', 2, 0);
const CONNECTIONS = Math.round(num('BENCH_CONNECTIONS', 50, 1));
const BOOKS = Math.round(num('BENCH_BOOKS', 100, 1));
const MYSQL_URL = process.env.BENCH_MYSQL_URL || process.env.TEST_MYSQL_URL || '';
const REPLICAS = Math.round(num('BENCH_REPLICAS', 2, 0));

const TARGETS = { rps: 1000, p95Ms: 50, memoryMb: 200 };
const ADMIN = { username: 'bench-admin', password: `bench-${process.pid}-${Date.now()}` };

// ---------------------------------------------------------------------------------------------
// Cleanup: every child process and temp dir is registered and removed on exit, error or signal.

const children = new Set();
const tempDirs = new Set();

async function stopChild(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}

async function cleanup() {
  await Promise.all([...children].map(stopChild));
  children.clear();
  await Promise.all([...tempDirs].map((dir) => rm(dir, { recursive: true, force: true })));
  tempDirs.clear();
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    process.stderr.write(`\n${signal}: stopping the API and removing temp dirs…\n`);
    cleanup().finally(() => process.exit(130));
  });
}

// ---------------------------------------------------------------------------------------------
// HTTP client: raw http.request over one keep-alive Agent, as lean as possible, because the load
// generator runs on the same machine and competes with the API for CPU.

function makeAgent() {
  return new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS, maxFreeSockets: CONNECTIONS });
}

/** One request; resolves with status and body (parsed as JSON when possible). */
function request(agent, port, method, urlPath, { body, token, timeoutMs = 30_000 } = {}) {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const headers = {};
    if (payload) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = payload.length;
    }
    if (token) headers.authorization = `Bearer ${token}`;
    const req = http.request({ host: '127.0.0.1', port, method, path: urlPath, agent, headers }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json;
        try {
          json = text ? JSON.parse(text) : undefined;
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode, text, json, bytes: Buffer.byteLength(text) });
      });
      res.on('error', reject);
    });
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`${method} ${urlPath} timed out after ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(payload);
  });
}

/**
 * Keeps `CONNECTIONS` requests in flight until `durationMs` has passed. Records each latency
 * (ms) and counts errors: network errors, non-200 answers, and bodies whose length differs from
 * the verified one (the body is not parsed per request, to keep the client cheap).
 */
function load(agent, port, urlPath, durationMs, expectedBytes) {
  // Several ports (replicas): requests take turns, as a round-robin load balancer sends them.
  const ports = [].concat(port);
  let turn = 0;
  return new Promise((resolve) => {
    let latencies = new Float64Array(1 << 16);
    let count = 0;
    let errors = 0;
    const errorKinds = new Map();
    const noteError = (kind) => {
      errors++;
      errorKinds.set(kind, (errorKinds.get(kind) ?? 0) + 1);
    };
    const started = performance.now();
    const deadline = started + durationMs;
    let active = CONNECTIONS;
    let ended = 0;

    const finish = () => {
      if (--active > 0) return;
      ended = performance.now();
      resolve({ latencies: latencies.subarray(0, count), errors, errorKinds, elapsedMs: ended - started });
    };

    const fire = () => {
      if (performance.now() >= deadline) return finish();
      const t0 = performance.now();
      const req = http.request({ host: '127.0.0.1', port: ports[turn++ % ports.length], method: 'GET', path: urlPath, agent }, (res) => {
        let bytes = 0;
        res.on('data', (c) => {
          bytes += c.length;
        });
        res.on('end', () => {
          const ms = performance.now() - t0;
          if (count === latencies.length) {
            const bigger = new Float64Array(latencies.length * 2);
            bigger.set(latencies);
            latencies = bigger;
          }
          latencies[count++] = ms;
          if (res.statusCode !== 200) noteError(`HTTP ${res.statusCode}`);
          else if (expectedBytes !== undefined && bytes !== expectedBytes) noteError('body length differs');
          fire();
        });
        res.on('error', (e) => {
          noteError(e.code ?? e.message);
          fire();
        });
      });
      req.setTimeout(30_000, () => req.destroy(new Error('timeout')));
      req.on('error', (e) => {
        noteError(e.code ?? e.message);
        setImmediate(fire);
      });
      req.end();
    };

    for (let i = 0; i < CONNECTIONS; i++) fire();
  });
}

function percentile(sorted, p) {
  if (!sorted.length) return NaN;
  const rank = Math.ceil((p / 100) * sorted.length) - 1; // nearest-rank
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank))];
}

// ---------------------------------------------------------------------------------------------
// The API child process.

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Last lines of the child's output, shown when something goes wrong. */
function tail(stream, lines) {
  let partial = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk) => {
    const parts = (partial + chunk).split('\n');
    partial = parts.pop();
    for (const line of parts) {
      lines.push(line);
      if (lines.length > 60) lines.shift();
    }
  });
}

async function startApi(db) {
  const varDir = await mkdtemp(path.join(os.tmpdir(), `bench-api-${db.name.toLowerCase()}-`));
  tempDirs.add(varDir);
  const port = await freePort();
  const env = {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    VAR_DIR: varDir,
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
    SEED_DEMO: 'false',
    LOG_REQUESTS: 'false',
  };
  delete env.DATABASE_URL;
  delete env.NODE_OPTIONS;
  if (db.url) env.DATABASE_URL = db.url;
  const child = spawn(API_NODE, [...API_NODE_ARGS, API_ENTRY], { cwd: API_DIR, env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  const output = [];
  tail(child.stdout, output);
  tail(child.stderr, output);
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  return { child, port, varDir, output, exited };
}

/** The error names the last line the API printed (usually the reason); stderr shows the rest. */
function startupError(what, output) {
  const last = output
    .filter((l) => l.trim())
    .at(-1)
    ?.trim();
  const error = new Error(last ? `${what}: ${last}` : what);
  error.details = output.join('\n');
  return error;
}

async function waitForHealth(api, agent, timeoutMs = 60_000) {
  const started = performance.now();
  let exit = null;
  api.exited.then((e) => {
    exit = e;
  });
  for (;;) {
    if (exit) throw startupError(`API exited during start-up (code ${exit.code}, signal ${exit.signal})`, api.output);
    try {
      const res = await request(agent, api.port, 'GET', '/api/health', { timeoutMs: 2000 });
      if (res.status === 200 && res.json?.status === 'ok') return performance.now() - started;
    } catch {
      // not listening yet
    }
    if (performance.now() - started > timeoutMs) {
      throw startupError(`API not healthy after ${timeoutMs / 1000} s`, api.output);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

function procStatus(pid) {
  const text = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field) => {
    const m = text.match(new RegExp(`^${field}:\\s+(\\d+)\\s+kB`, 'm'));
    return m ? Number(m[1]) / 1024 : NaN;
  };
  return { rssMb: kb('VmRSS'), hwmMb: kb('VmHWM') };
}

/** CPU seconds (user + system) used so far by a process, from /proc/<pid>/stat. */
function procCpuSeconds(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15)
  return ticks / 100; // USER_HZ is 100 on Linux
}

// ---------------------------------------------------------------------------------------------
// Realistic books: Arabic and English titles, descriptions of a few hundred characters, awards.

const AR_TITLES = [
  'رائحة البرتقال في الشجاعية',
  'دفتر الحصار',
  'البحر لا يعرف الحدود',
  'مفاتيح البيوت القديمة',
  'أطفال الرصيف الأزرق',
  'نوافذ على الشاطئ',
  'حكايات جدتي من يافا',
  'الطريق إلى رفح',
  'ظلال الزيتون',
  'قمر فوق المخيم',
];
const EN_TITLES = [
  'The Orange Groves of Shujaiya',
  'Notebook of the Siege',
  'The Sea Knows No Borders',
  'Keys to the Old Houses',
  'Children of the Blue Pavement',
  'Windows on the Shore',
  "My Grandmother's Tales from Jaffa",
  'The Road to Rafah',
  'Shadows of the Olive Trees',
  'A Moon over the Camp',
];
const AR_SENTENCES = [
  'تروي هذه الرواية حكاية عائلة فلسطينية تعيش على شاطئ غزة بين الحصار والأمل.',
  'تتنقل الكاتبة بين ذاكرة الطفولة وأصوات المدينة، فتكتب عن البحر والبيوت والناس الذين بقوا.',
  'نصوص قصيرة عن الحياة اليومية في المخيم، عن الخبز والكهرباء المقطوعة وأحلام المدرسة.',
  'يمزج الكتاب بين الشعر والنثر، ويستعيد أسماء القرى التي لم تعد على الخريطة.',
  'رسوم الكاتبة ترافق النص، فتصبح كل صفحة نافذة على مدينة تحاول أن تتنفس.',
];
const EN_SENTENCES = [
  'A family saga set on the Gaza coast, following three generations through war, exile and return.',
  'The author moves between childhood memory and the sounds of the city, writing about the sea, the houses and the people who stayed.',
  'Short prose pieces about daily life in the camp: bread queues, power cuts and school dreams.',
  'Translated into English with an afterword by the translator on the rhythms of Gazan Arabic.',
  "Illustrated with the author's own drawings, each page opens a window onto a city trying to breathe.",
];
const PUBLISHERS = ['دار الشروق', 'المؤسسة العربية للدراسات والنشر', 'Interlink Books', 'Dar Al Adab', 'Comma Press'];
const GENRES = ['Novel', 'Short stories', 'Poetry', 'Children', 'Memoir', 'Drama'];
const AWARDS = [
  'جائزة فلسطين للآداب',
  'Palestine Book Award (shortlist)',
  'جائزة الشيخ زايد للكتاب — القائمة الطويلة',
  'PEN Translates Award',
  'جائزة كتارا للرواية العربية',
  'Arab Children’s Book Prize',
];

function makeBook(i) {
  const arabic = i % 2 === 0;
  const titles = arabic ? AR_TITLES : EN_TITLES;
  const sentences = arabic ? AR_SENTENCES : EN_SENTENCES;
  let description = '';
  for (let k = 0; description.length < 250 + ((i * 37) % 300); k++) {
    description += (description ? ' ' : '') + sentences[(i + k) % sentences.length];
  }
  const awards = [];
  for (let k = 0; k < i % 4; k++) awards.push(AWARDS[(i + k * 2) % AWARDS.length]);
  return {
    title: `${titles[i % titles.length]}${i >= titles.length ? ` (${Math.floor(i / titles.length) + 1})` : ''}`,
    description,
    year: 1995 + (i % 31),
    publisher: PUBLISHERS[i % PUBLISHERS.length],
    genre: GENRES[i % GENRES.length],
    language: arabic ? 'Arabic' : 'English',
    isbn: `978-9950-${String(1000 + i).padStart(4, '0')}-${i % 10}`,
    pages: 80 + ((i * 53) % 400),
    coverImage: `/uploads/covers/book-${i + 1}.webp`,
    awards,
    purchaseUrl: i % 3 === 0 ? `https://books.example.com/item/${i + 1}` : undefined,
    reviews: i % 5 === 0 ? ['“A luminous, unbearable book.” — The Reader', 'كتاب يضيء الذاكرة'] : [],
  };
}

// ---------------------------------------------------------------------------------------------
// One database run.

async function resetMysql(url) {
  let mysql;
  try {
    mysql = await import('mysql2/promise');
  } catch (e) {
    throw new Error(`mysql2 is needed for the MySQL run but could not be imported: ${e.message}`, { cause: e });
  }
  const conn = await mysql.createConnection({ uri: url.replace(/^mariadb:/, 'mysql:'), multipleStatements: true });
  try {
    const [rows] = await conn.query(
      "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = DATABASE() AND table_type = 'BASE TABLE'",
    );
    const names = rows.map((r) => `\`${String(r.name).replace(/`/g, '``')}\``);
    if (names.length) await conn.query(`SET FOREIGN_KEY_CHECKS = 0; DROP TABLE ${names.join(', ')}; SET FOREIGN_KEY_CHECKS = 1;`);
    return names.length;
  } finally {
    await conn.end();
  }
}

async function runDatabase(db) {
  const log = (msg) => process.stdout.write(`[${db.name}] ${msg}\n`);
  if (db.url) {
    const dropped = await resetMysql(db.url);
    log(`emptied the MySQL database (${dropped} table${dropped === 1 ? '' : 's'} dropped)`);
  }
  const agent = makeAgent();
  const api = await startApi(db);
  const more = [];
  try {
    const startupMs = await waitForHealth(api, agent);
    log(`API pid ${api.child.pid} healthy on port ${api.port} after ${(startupMs / 1000).toFixed(2)} s`);
    // Further replicas start once the first made the tables (as admin-api-2 waits in docker-compose.yml).
    for (let i = 1; i < (db.replicas ?? 1); i++) {
      const replica = await startApi(db);
      more.push(replica);
      await waitForHealth(replica, agent);
      log(`replica ${i + 1}: API pid ${replica.child.pid} healthy on port ${replica.port}`);
    }
    const all = [api, ...more];
    const ports = all.map((a) => a.port);

    const login = await request(agent, api.port, 'POST', '/api/admin/login', { body: ADMIN });
    if (login.status !== 200 || !login.json?.sessionId) throw new Error(`login failed: HTTP ${login.status} ${login.text.slice(0, 300)}`);
    const token = login.json.sessionId;

    const seedStarted = performance.now();
    for (let i = 0; i < BOOKS; i++) {
      const res = await request(agent, api.port, 'POST', '/api/books', { body: makeBook(i), token });
      if (res.status !== 201) throw new Error(`creating book ${i + 1} failed: HTTP ${res.status} ${res.text.slice(0, 500)}`);
    }
    const seedMs = performance.now() - seedStarted;
    log(`created ${BOOKS} books in ${(seedMs / 1000).toFixed(2)} s (${(seedMs / BOOKS).toFixed(1)} ms each)`);

    // Verify what the benchmark will hammer: anonymous GET /api/books, as the public site calls it.
    const check = await request(agent, api.port, 'GET', '/api/books');
    const list = Array.isArray(check.json) ? check.json : check.json?.items;
    if (check.status !== 200 || !Array.isArray(list)) throw new Error(`GET /api/books: HTTP ${check.status} ${check.text.slice(0, 300)}`);
    if (list.length !== BOOKS) throw new Error(`GET /api/books returned ${list.length} books, expected ${BOOKS}`);
    if (!list.some((b) => /[\u0600-\u06FF]/.test(b.title)) || !list.some((b) => Array.isArray(b.awards) && b.awards.length)) {
      throw new Error('GET /api/books lost the Arabic titles or the awards lists');
    }
    const expectedBytes = check.bytes;
    log(`GET /api/books verified: ${list.length} books, ${(expectedBytes / 1024).toFixed(1)} KiB per response`);
    const memBefore = procStatus(api.child.pid);

    if (WARMUP_SECONDS > 0) {
      log(`warming up ${WARMUP_SECONDS} s…`);
      await load(agent, ports, '/api/books', WARMUP_SECONDS * 1000, expectedBytes);
    }
    log(`measuring ${SECONDS} s at ${CONNECTIONS} connections…`);
    const cpuOfAll = () => all.reduce((sum, a) => sum + procCpuSeconds(a.child.pid), 0);
    const apiCpu0 = cpuOfAll();
    const clientCpu0 = process.cpuUsage();
    const result = await load(agent, ports, '/api/books', SECONDS * 1000, expectedBytes);
    const clientCpu = process.cpuUsage(clientCpu0);
    const apiCpu = cpuOfAll() - apiCpu0;
    const mem = procStatus(api.child.pid);

    // A last full check after the load: the answer is still the complete list.
    const after = await request(agent, api.port, 'GET', '/api/books');
    const afterCount = Array.isArray(after.json) ? after.json.length : -1;

    const sorted = Float64Array.from(result.latencies).sort();
    const elapsedS = result.elapsedMs / 1000;
    return {
      name: db.name,
      requests: sorted.length,
      rps: sorted.length / elapsedS,
      p50: percentile(sorted, 50),
      p95: percentile(sorted, 95),
      p99: percentile(sorted, 99),
      max: sorted[sorted.length - 1],
      errors: result.errors,
      errorKinds: result.errorKinds,
      booksOk: list.length === BOOKS && afterCount === BOOKS,
      booksCount: afterCount,
      kib: expectedBytes / 1024,
      mbPerS: (expectedBytes * sorted.length) / elapsedS / 1024 / 1024,
      rssBeforeMb: memBefore.rssMb,
      rssMb: mem.rssMb,
      hwmMb: mem.hwmMb,
      apiCpuPct: (apiCpu / elapsedS) * 100,
      clientCpuPct: ((clientCpu.user + clientCpu.system) / 1e6 / elapsedS) * 100,
      startupS: startupMs / 1000,
      seedMsPerBook: seedMs / BOOKS,
    };
  } finally {
    agent.destroy();
    for (const replica of more) {
      await stopChild(replica.child);
      children.delete(replica.child);
      await rm(replica.varDir, { recursive: true, force: true });
      tempDirs.delete(replica.varDir);
    }
    await stopChild(api.child);
    children.delete(api.child);
    await rm(api.varDir, { recursive: true, force: true });
    tempDirs.delete(api.varDir);
  }
}

// ---------------------------------------------------------------------------------------------
// Report.

function printReport(results, failures) {
  const cores = os.availableParallelism?.() ?? os.cpus().length;
  const f = (n, d = 1) => (Number.isFinite(n) ? n.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d }) : '—');
  const rows = [
    ['requests / second', (r) => f(r.rps, 0)],
    ['requests measured', (r) => f(r.requests, 0)],
    ['latency p50 (ms)', (r) => f(r.p50, 2)],
    ['latency p95 (ms)', (r) => f(r.p95, 2)],
    ['latency p99 (ms)', (r) => f(r.p99, 2)],
    ['latency max (ms)', (r) => f(r.max, 2)],
    ['errors', (r) => `${r.errors}${r.errors ? ` (${[...r.errorKinds].map(([k, v]) => `${k}: ${v}`).join(', ')})` : ''}`],
    [`response has ${BOOKS} books`, (r) => (r.booksOk ? 'yes' : `NO (${r.booksCount})`)],
    ['response size (KiB)', (r) => f(r.kib, 1)],
    ['throughput (MiB/s)', (r) => f(r.mbPerS, 1)],
    ['API RSS before load (MB)', (r) => f(r.rssBeforeMb, 1)],
    ['API VmRSS after load (MB)', (r) => f(r.rssMb, 1)],
    ['API VmHWM peak (MB)', (r) => f(r.hwmMb, 1)],
    ['API CPU (% of one core, all replicas)', (r) => f(r.apiCpuPct, 0)],
    ['API CPU per request (ms)', (r) => f((r.apiCpuPct * 10) / r.rps, 2)],
    ['load client CPU (% of one core)', (r) => f(r.clientCpuPct, 0)],
    ['API start-up to healthy (s)', (r) => f(r.startupS, 2)],
    ['POST /api/books while seeding (ms)', (r) => f(r.seedMsPerBook, 1)],
  ];
  const labelWidth = Math.max(...rows.map(([l]) => l.length));
  const colWidth = Math.max(12, ...results.flatMap((r) => rows.map(([, get]) => get(r).length)));
  const line = (label, cells) => `  ${label.padEnd(labelWidth)}  ${cells.map((c) => c.padStart(colWidth)).join('  ')}`;

  const out = [];
  out.push('');
  out.push(`GET /api/books — ${BOOKS} books, ${CONNECTIONS} connections, ${SECONDS} s measured after ${WARMUP_SECONDS} s warm-up`);
  out.push(`Node ${process.version}, ${cores} CPU core${cores === 1 ? '' : 's'} (${os.cpus()[0]?.model?.trim() ?? 'unknown CPU'})`);
  if (API_NODE_ARGS.length) out.push(`API Node flags: ${API_NODE_ARGS.join(' ')}`);
  out.push(
    `Note: the load generator runs on the same machine and competes with the API for CPU (see the two CPU rows);` +
      ` figures are a lower bound for the API alone.`,
  );
  out.push('');
  if (results.length) {
    out.push(
      line(
        '',
        results.map((r) => r.name),
      ),
    );
    out.push(
      line(
        '-'.repeat(labelWidth),
        results.map(() => '-'.repeat(colWidth)),
      ),
    );
    for (const [label, get] of rows) out.push(line(label, results.map(get)));
  }
  for (const r of results) {
    if (r.clientCpuPct >= 80) {
      out.push(`  ${r.name}: the load client used ${f(r.clientCpuPct, 0)}% of a core — it may be the bottleneck; the API can do more.`);
    } else if (r.apiCpuPct >= 85) {
      out.push(
        `  ${r.name}: the API used ${f(r.apiCpuPct, 0)}% of a core (its JavaScript runs on one thread) — it is CPU-bound, not the client.`,
      );
    }
  }
  out.push('');

  const mark = (ok) => (ok ? 'met    ' : 'NOT met');
  out.push(`Targets (memory judged on VmHWM, the peak resident memory):`);
  for (const r of results) {
    const ref = r.name === 'SQLite' ? '' : '  (targets are set for SQLite; shown for reference)';
    out.push(`  [${mark(r.rps >= TARGETS.rps)}] ${r.name}: ≥ ${f(TARGETS.rps, 0)} req/s — got ${f(r.rps, 0)} req/s${ref}`);
    out.push(`  [${mark(r.p95 < TARGETS.p95Ms)}] ${r.name}: p95 < ${TARGETS.p95Ms} ms — got ${f(r.p95, 2)} ms${ref}`);
    out.push(
      `  [${mark(r.hwmMb < TARGETS.memoryMb)}] ${r.name}: memory < ${TARGETS.memoryMb} MB — got ${f(r.hwmMb, 1)} MB peak, ${f(r.rssMb, 1)} MB after load${ref}`,
    );
    if (r.errors || !r.booksOk)
      out.push(`  [NOT met] ${r.name}: no errors and a complete list — ${r.errors} errors, list ${r.booksOk ? 'complete' : 'INCOMPLETE'}`);
  }
  for (const { name, error } of failures) out.push(`  [NOT run] ${name}: ${error.message.split('\n')[0]}`);
  out.push('');
  process.stdout.write(out.join('\n') + '\n');
}

// ---------------------------------------------------------------------------------------------

async function main() {
  if (!existsSync(API_ENTRY)) {
    process.stderr.write(`API entry not found: ${API_ENTRY}\nBuild admin-api first (npm run build at the repo root), or set API_ENTRY.\n`);
    return 1;
  }
  const databases = [{ name: 'SQLite', url: null }];
  if (MYSQL_URL) databases.push({ name: 'MySQL', url: MYSQL_URL });
  if (MYSQL_URL && REPLICAS >= 2) databases.push({ name: `MySQL ×${REPLICAS} replicas`, url: MYSQL_URL, replicas: REPLICAS });
  else process.stdout.write('MySQL skipped: set BENCH_MYSQL_URL (or TEST_MYSQL_URL) to benchmark it too.\n');
  process.stdout.write(`API: ${API_NODE} ${[...API_NODE_ARGS, API_ENTRY].join(' ')}\n`);

  const results = [];
  const failures = [];
  for (const db of databases) {
    try {
      results.push(await runDatabase(db));
    } catch (error) {
      process.stderr.write(`[${db.name}] benchmark failed: ${error.stack ?? error}\n`);
      if (error.details) process.stderr.write(`[${db.name}] API output:\n${error.details}\n`);
      failures.push({ name: db.name, error });
    }
  }
  printReport(results, failures);
  return results.length ? 0 : 1;
}

let code = 1;
try {
  code = await main();
} catch (error) {
  process.stderr.write(`${error.stack ?? error}\n`);
} finally {
  await cleanup();
}
process.exitCode = code;
