#!/usr/bin/env node
// Preview and scheduled publishing on the product as `npm start` runs it (API + builder in renderer
// mode), with 100 and then 4,000 books: how long a preview of a book takes (its 6 pages: detail,
// list, home in English and Arabic; median and worst of BENCH_PREVIEW_RUNS), how big the request to
// the builder and the answer are, and how long after its publishAt a scheduled book is served.
// Prints figures, no pass/fail. Needs the built API (`npm run build`).
//
//   BENCH_PREVIEW_ITEMS  book counts (default "100,4000")
//   BENCH_PREVIEW_RUNS   previews per size (default 10)
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { NODE_FLAGS } from '../node-flags.mjs';
import { freePort, until } from '../test/support/wait.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const API_ENTRY = path.join(ROOT, 'admin-api/dist/src/main.js');
const ITEMS = (process.env.BENCH_PREVIEW_ITEMS || '100,4000').split(',').map((n) => Number(n.trim()));
const RUNS = Number(process.env.BENCH_PREVIEW_RUNS || 10);
const ADMIN = { username: 'bench-admin', password: `bench-${process.pid}-${Date.now()}` };

async function startStack() {
  const varDir = await mkdtemp(path.join(os.tmpdir(), 'portfolio-bench-preview-'));
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
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
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
    100,
  );
  const base = `http://127.0.0.1:${port}`;
  const call = async (method, route, { token, body } = {}) => {
    const res = await fetch(base + route, {
      method,
      headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    return { status: res.status, bytes: Buffer.byteLength(text), body: text ? JSON.parse(text) : undefined };
  };
  const stop = async () => {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
    await rm(varDir, { recursive: true, force: true });
  };
  return { base, call, stop };
}

const book = (i) => ({
  title: `Bench book ${i} — كتاب ${i}`,
  description: `A book written for the preview benchmark, number ${i}. `.repeat(4),
  year: 1990 + (i % 35),
  publisher: `Publisher ${i % 17}`,
});

async function createMany(stack, token, count) {
  const ids = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < count) {
        const res = await stack.call('POST', '/api/books', { token, body: book(next++) });
        if (res.status !== 201) throw new Error(`creating a book: ${res.status}`);
        ids.push(res.body.id);
      }
    }),
  );
  return ids.sort((a, b) => a - b);
}

const settled = (stack, token) =>
  until(
    'publishing to settle',
    async () => {
      const s = (await stack.call('GET', '/api/admin/publishing', { token })).body;
      if (s.state === 'failed') throw new Error(`publishing failed:\n${s.lastError}`);
      return s.state === 'live' && s.pendingChanges === 0;
    },
    600_000,
    100,
  );

const ms = (v) => `${Math.round(v)} ms`;
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

for (const n of ITEMS) {
  const stack = await startStack();
  try {
    const token = (await stack.call('POST', '/api/admin/login', { body: ADMIN })).body.sessionId;
    const ids = await createMany(stack, token, n);
    await settled(stack, token);
    const id = ids[Math.floor(ids.length / 2)];
    const listBytes = Buffer.byteLength(JSON.stringify((await stack.call('GET', '/api/books')).body));
    const times = [];
    let answerBytes = 0;
    for (let run = 1; run <= RUNS; run++) {
      const started = performance.now();
      const res = await stack.call('POST', '/api/admin/preview', {
        token,
        body: { kind: 'books', id, item: { ...book(id), title: `Previewed ${run}` } },
      });
      times.push(performance.now() - started);
      if (res.status !== 200 || !res.body.pages[0].html.includes(`Previewed ${run}`)) throw new Error(`preview answered ${res.status}`);
      answerBytes = res.bytes;
    }
    const created = await stack.call('POST', '/api/books', { token, body: { ...book(n + 2), title: 'Published bench book' } });
    const savedAt = Date.now();
    const createdServedAt = await until(
      'the new page',
      async () => (await fetch(`${stack.base}/books/${created.body.id}`)).status === 200 && Date.now(),
      120_000,
    );
    await settled(stack, token);
    const due = Date.now() + 3000;
    const scheduled = await stack.call('POST', '/api/books', {
      token,
      body: { ...book(n + 1), title: 'Scheduled bench book', publishAt: new Date(due).toISOString() },
    });
    const page = `${stack.base}/books/${scheduled.body.id}`;
    const servedAt = await until('the scheduled page', async () => (await fetch(page)).status === 200 && Date.now(), 120_000);
    console.log(
      `books: ${n}  preview (6 pages): median ${ms(median(times))}, worst ${ms(Math.max(...times))}  ` +
        `request to the builder ≈ ${(listBytes / 1024).toFixed(0)} KB (the books list), answer ${(answerBytes / 1024).toFixed(0)} KB  ` +
        `scheduled book served ${ms(servedAt - due)} after its publishAt (a new published book: ${ms(createdServedAt - savedAt)} after its save)`,
    );
  } finally {
    await stack.stop();
  }
}
