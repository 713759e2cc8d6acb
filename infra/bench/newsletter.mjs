#!/usr/bin/env node
// Benchmark of the newsletter's sender (issue 25): one campaign to 10,000 confirmed subscribers
// through an SMTP server on loopback (smtp-server, accepting every message at once). Prints the
// mails per second, the API's peak RSS while sending (VmHWM reset when the campaign starts, so the
// import of the subscribers before it is reported apart), its CPU time per mail (what the rate
// would be on an otherwise idle core: other work on the machine lowers mails/s, not CPU per mail),
// and the latency of an overlay save (PATCH of an essay) while idle and while the campaign sends. SQLite, the built API as a child process with the flags
// of `npm start`; it builds nothing (the root `npm run bench` builds admin-api first).
//
// Environment:
//   BENCH_SUBSCRIBERS     subscribers (default 10000)
//   BENCH_RATE            NEWSLETTER_RATE_PER_MINUTE (default 600000: the sender's own speed)
//   BENCH_CONCURRENCY     NEWSLETTER_CONCURRENCY (default 8)
//   BENCH_SAVES           overlay saves measured idle (default 30); while sending, one every BENCH_SAVE_GAP_MS
//   API_NODE_ARGS         Node flags for the API (default: the ones `npm start` uses, infra/node-flags.mjs), e.g. add "--trace-gc"
//   BENCH_API_LOG         a file that gets the API's output (its log, and what such flags print)
//   BENCH_SAVE_GAP_MS     pause between two saves (default 500: a brisk editor; 0 = back to back, a save storm)
//
// Exit code is 0 even when a figure is poor (a benchmark, not a test).

import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';

import { SMTPServer } from 'smtp-server';

import { NODE_FLAGS } from '../node-flags.mjs';
import { startApi } from './api-process.mjs';

const num = (name, fallback) => (process.env[name] ? Number(process.env[name]) : fallback);
const SUBSCRIBERS = num('BENCH_SUBSCRIBERS', 10_000);
const RATE = num('BENCH_RATE', 600_000);
const CONCURRENCY = num('BENCH_CONCURRENCY', 8);
const SAVES = num('BENCH_SAVES', 30);
const SAVE_GAP_MS = num('BENCH_SAVE_GAP_MS', 500);
const API_NODE_ARGS =
  process.env.API_NODE_ARGS !== undefined ? process.env.API_NODE_ARGS.split(/\s+/).filter(Boolean) : [...NODE_FLAGS.api];

let accepted = 0;
const smtp = new SMTPServer({
  disabledCommands: ['AUTH', 'STARTTLS'],
  disableReverseLookup: true,
  logger: false,
  onData(stream, _session, callback) {
    stream.on('data', () => undefined);
    stream.on('end', () => {
      accepted++;
      callback(null, 'Queued');
    });
  },
});
smtp.on('error', () => undefined);
await new Promise((resolve) => smtp.listen(0, '127.0.0.1', resolve));
const smtpPort = smtp.server.address().port;

const api = await startApi({
  name: 'newsletter',
  nodeArgs: API_NODE_ARGS,
  env: {
    SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
    SITE_URL: 'https://site.example',
    NEWSLETTER_RATE_PER_MINUTE: String(RATE),
    NEWSLETTER_CONCURRENCY: String(CONCURRENCY),
  },
  onStop: () => new Promise((resolve) => smtp.close(resolve)),
});
const { request, token } = api;

try {
  const lines = ['email,language,topics'];
  for (let i = 0; i < SUBSCRIBERS; i++) lines.push(`reader${i}@example.test,${i % 3 ? 'en' : 'ar'},essays`);
  const form = new FormData();
  form.append('file', new Blob([lines.join('\n')]), 'readers.csv');
  form.append('consent', 'true');
  const imported = await request('POST', '/api/subscribers/import', { token, raw: form });
  const essay = await request('POST', '/api/essays', {
    token,
    body: {
      title: 'Bench essay',
      excerpt: 'A short excerpt.\n\nIn two paragraphs.',
      content: 'Text',
      imageUrl: '/uploads/essays/x.jpg',
      published: true,
    },
  });
  const other = await request('POST', '/api/essays', { token, body: { title: 'Edited', excerpt: 'x', content: 'y', published: false } });

  const saveLatencies = async (until) => {
    const times = [];
    for (let i = 0; i < SAVES && !until?.(); i++) {
      const started = performance.now();
      await request('PATCH', `/api/essays/${other.id}`, { token, body: { excerpt: `edit ${i} ${Date.now()}` } });
      times.push(performance.now() - started);
      if (SAVE_GAP_MS) await new Promise((r) => setTimeout(r, SAVE_GAP_MS));
    }
    return times;
  };
  const pct = (list, p) => {
    const sorted = [...list].sort((a, b) => a - b);
    return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : NaN;
  };
  const idle = await saveLatencies();

  const status = () => readFileSync(`/proc/${api.pid}/status`, 'utf8');
  const mb = (field) => Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(status())?.[1] ?? NaN) / 1024;
  // CPU seconds of the API (user + system), from /proc/<pid>/stat (fields 14 and 15, in clock ticks of 1/100 s).
  const cpuSeconds = () => {
    const fields = readFileSync(`/proc/${api.pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  };
  const hwmBefore = mb('VmHWM');
  const rssBefore = mb('VmRSS');
  // Writing 5 to clear_refs resets VmHWM to the current RSS (Linux ≥ 4.0): the peak while sending alone.
  let hwmReset = true;
  try {
    writeFileSync(`/proc/${api.pid}/clear_refs`, '5');
  } catch {
    hwmReset = false;
  }
  const cpuBefore = cpuSeconds();
  const started = performance.now();
  const campaign = await request('POST', '/api/newsletter/campaigns', { token, body: { kind: 'essays', id: essay.id } });
  let state = campaign;
  const sending = [];
  const poller = (async () => {
    while (state.state !== 'done') {
      await new Promise((r) => setTimeout(r, 200));
      state = await request('GET', `/api/newsletter/campaigns/${campaign.id}`, { token });
    }
  })();
  // Saves while it sends, at the editor's pace, until it is done.
  while (state.state !== 'done') {
    sending.push(...(await saveLatencies(() => state.state === 'done')));
    await new Promise((r) => setTimeout(r, 100));
  }
  await poller;
  const seconds = (performance.now() - started) / 1000;
  const cpu = cpuSeconds() - cpuBefore;
  const hwm = mb('VmHWM');

  const f = (n) => n.toFixed(1);
  console.log(
    `\nNewsletter: ${imported.created} subscribers, concurrency ${CONCURRENCY}, rate limit ${RATE}/min, SQLite, loopback SMTP, a save every ${SAVE_GAP_MS} ms`,
  );
  console.log(
    `  campaign: ${state.sent} sent, ${state.failed} failed, ${state.skipped} skipped in ${f(seconds)} s → ${f(state.sent / seconds)} mails/s (SMTP accepted ${accepted})`,
  );
  console.log(
    hwmReset
      ? `  API peak RSS while sending: ${f(hwm)} MB (RSS ${f(rssBefore)} MB when the campaign started; peak before, import included: ${f(hwmBefore)} MB)`
      : `  API peak RSS (VmHWM, import included): ${f(Math.max(hwm, hwmBefore))} MB`,
  );
  console.log(
    `  API CPU while sending: ${f(cpu)} s, ${((1000 * cpu) / Math.max(1, state.sent)).toFixed(2)} ms per mail (≈ ${f(state.sent / cpu)} mails per CPU-second)`,
  );
  console.log(
    `  load average at the end: ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} (${os.cpus().length} CPUs)`,
  );
  console.log(
    `  overlay save (PATCH /api/essays/:id), idle: p50 ${f(pct(idle, 50))} ms, p95 ${f(pct(idle, 95))} ms (${idle.length} saves)`,
  );
  console.log(`  overlay save while sending: p50 ${f(pct(sending, 50))} ms, p95 ${f(pct(sending, 95))} ms (${sending.length} saves)`);
} finally {
  await api.stop();
}
