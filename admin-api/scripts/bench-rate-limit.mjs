#!/usr/bin/env node
// How long one rate-limit check takes now that the counters live in the database (table
// rate_limits): RateLimiter.consume() — one atomic upsert and a read in one transaction — timed on
// SQLite and, with BENCH_MYSQL_URL or TEST_MYSQL_URL (ALL TABLES IN IT ARE DROPPED), on MySQL,
// one at a time and 20 at once. Needs the build (npm run build -w admin-api).
//   node admin-api/scripts/bench-rate-limit.mjs
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { createConnection } from 'mysql2/promise';

const { createApp } = await import('../dist/src/app.js');
const { loadConfig } = await import('../dist/src/config/config.js');
const { RateLimiter } = await import('../dist/src/auth/rate-limiter.js');

const CHECKS = Number(process.env.BENCH_CHECKS ?? 2000);
const MYSQL_URL = process.env.BENCH_MYSQL_URL || process.env.TEST_MYSQL_URL || '';

async function resetMysql(url) {
  const conn = await createConnection({ uri: url, multipleStatements: true });
  const [rows] = await conn.query(
    "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = DATABASE() AND table_type = 'BASE TABLE'",
  );
  if (rows.length)
    await conn.query(`SET FOREIGN_KEY_CHECKS = 0; DROP TABLE ${rows.map((r) => `\`${r.name}\``).join(', ')}; SET FOREIGN_KEY_CHECKS = 1;`);
  await conn.end();
}

const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

async function run(name, url) {
  const varDir = await mkdtemp(path.join(os.tmpdir(), 'bench-limit-'));
  if (url) await resetMysql(url);
  const config = loadConfig({
    PORT: '0',
    VAR_DIR: varDir,
    ADMIN_USERNAME: 'bench',
    ADMIN_PASSWORD: 'bench-password',
    SEED_DEMO: 'false',
    LOG_REQUESTS: 'false',
    ...(url ? { DATABASE_URL: url } : {}),
  });
  const app = await createApp(config, false);
  await app.init();
  const limiter = app.get(RateLimiter);
  try {
    for (let i = 0; i < 200; i++) await limiter.consume(`warm:${i % 20}`, 1e9, 60_000);
    const one = [];
    for (let i = 0; i < CHECKS; i++) {
      const t0 = performance.now();
      await limiter.consume(`bench:ip:10.0.${i % 50}.1`, 1e9, 60_000);
      one.push(performance.now() - t0);
    }
    one.sort((a, b) => a - b);
    const started = performance.now();
    const parallel = [];
    for (let i = 0; i < CHECKS; i += 20) {
      await Promise.all(
        Array.from({ length: 20 }, async (_, k) => {
          const t0 = performance.now();
          await limiter.consume(`bench:ip:10.1.${(i + k) % 50}.1`, 1e9, 60_000);
          parallel.push(performance.now() - t0);
        }),
      );
    }
    const perSecond = (parallel.length / (performance.now() - started)) * 1000;
    parallel.sort((a, b) => a - b);
    const f = (n) => n.toFixed(2);
    console.log(
      `${name.padEnd(7)} one at a time: p50 ${f(pct(one, 50))} ms, p95 ${f(pct(one, 95))} ms | 20 at once: p50 ${f(pct(parallel, 50))} ms, p95 ${f(pct(parallel, 95))} ms, ${Math.round(perSecond)} checks/s`,
    );
  } finally {
    await app.close();
    await rm(varDir, { recursive: true, force: true });
  }
}

console.log(`RateLimiter.consume(): ${CHECKS} checks per run (Node ${process.version}, ${os.availableParallelism()} cores)`);
await run('SQLite', null);
if (MYSQL_URL) await run('MySQL', MYSQL_URL);
else console.log('MySQL skipped: set BENCH_MYSQL_URL (or TEST_MYSQL_URL).');
