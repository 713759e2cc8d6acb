#!/usr/bin/env node
// Benchmark of the image variants the API makes when an upload arrives (issue 34, item 1): for a
// 24-megapixel photo, the time from the upload's answer to every variant stored (GET
// /api/image-variants says done, polled every 20 ms); then for a batch of typical photos (1-3 MP),
// the encode throughput in variants per second: over the batch's wall time (first upload sent →
// last job done, uploads and encodes overlapping as in an import) and the maker's own (the sum of
// its "Made N variants … in T ms" log lines). Also the API's peak RSS. SQLite, the built API as a
// child process with the flags of `npm start`; it builds nothing (the root `npm run bench` builds
// admin-api first).
//
// Environment:
//   BENCH_LARGE_RUNS      24 MP uploads measured one after another (default 3)
//   BENCH_BATCH           typical photos in the batch (default 200)
//   BENCH_API_LOG         a file that gets the API's output
//
// Exit code is 0 even when a figure is poor (a benchmark, not a test).

import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

import { API_DIR, startApi } from './api-process.mjs';

// sharp as the API has it (a dependency of admin-api, not of infra).
const sharp = createRequire(path.join(API_DIR, 'package.json'))('sharp');
const num = (name, fallback) => (process.env[name] ? Number(process.env[name]) : fallback);
const LARGE_RUNS = num('BENCH_LARGE_RUNS', 3);
const BATCH = num('BENCH_BATCH', 200);

/** A photo-like JPEG: random pixels smoothed up (noise enough that it does not compress to nothing). */
function photo(width, height) {
  const w = Math.ceil(width / 3);
  const h = Math.ceil(height / 3);
  return sharp(randomBytes(w * h * 3), { raw: { width: w, height: h, channels: 3 } })
    .resize(width, height, { kernel: 'cubic' })
    .jpeg({ quality: 85 })
    .toBuffer();
}

const made = [];
const api = await startApi({
  name: 'variants',
  onOutput: (chunk) => {
    for (const m of chunk.matchAll(/Made (\d+) variants of \S+ in (\d+) ms/g)) made.push({ variants: Number(m[1]), ms: Number(m[2]) });
  },
});
const { base, request, token } = api;

try {
  const upload = async (bytes) => {
    const form = new FormData();
    form.append('file', new Blob([bytes], { type: 'image/jpeg' }), 'photo.jpg');
    form.append('contentType', 'essays');
    return (await request('POST', '/api/upload', { token, raw: form })).url;
  };
  const done = async (url) => {
    for (;;) {
      const res = await fetch(`${base}/api/image-variants?path=${encodeURIComponent(url)}`);
      const state = res.status === 200 ? (await res.json()).state : 'none';
      if (state === 'done') return;
      if (state === 'failed') throw new Error(`the variants of ${url} failed`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  const peakRss = () => Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${api.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

  console.log(
    `image variants, ${os.cpus().length} cores, load ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  for (let run = 1; run <= LARGE_RUNS; run++) {
    const bytes = await photo(6000, 4000);
    const sent = performance.now();
    const url = await upload(bytes);
    const answered = performance.now();
    await done(url);
    const stored = performance.now();
    console.log(
      `24 MP photo (${(bytes.length / 1e6).toFixed(1)} MB JPEG), run ${run}: upload answered in ${((answered - sent) / 1000).toFixed(2)} s, ` +
        `all ${made.at(-1)?.variants ?? '?'} variants stored ${((stored - answered) / 1000).toFixed(2)} s after (maker: ${made.at(-1)?.ms ?? '?'} ms)`,
    );
  }

  // Typical photos: 1.2, 2 and 3 MP, twenty different ones uploaded in turn.
  const sizes = [
    [1280, 960],
    [1800, 1200],
    [2000, 1500],
  ];
  const distinct = await Promise.all(Array.from({ length: Math.min(20, BATCH) }, (_, i) => photo(...sizes[i % sizes.length])));
  const before = made.length;
  const started = performance.now();
  const urls = [];
  for (let i = 0; i < BATCH; i++) urls.push(await upload(distinct[i % distinct.length]));
  const uploaded = performance.now();
  for (const url of urls) await done(url);
  const finished = performance.now();
  // The last jobs' log lines may arrive just after their GET said done.
  await new Promise((resolve) => setTimeout(resolve, 200));
  const batch = made.slice(before);
  const variants = batch.reduce((n, m) => n + m.variants, 0);
  const makerMs = batch.reduce((n, m) => n + m.ms, 0);
  console.log(
    `${BATCH} photos of 1.2-3 MP: uploads ${((uploaded - started) / 1000).toFixed(1)} s, all variants ${((finished - started) / 1000).toFixed(1)} s after the first upload ` +
      `(${((finished - uploaded) / 1000).toFixed(1)} s after the last): ${variants} variants, ${(variants / ((finished - started) / 1000)).toFixed(1)} variants/s over the batch, ` +
      `${(variants / (makerMs / 1000)).toFixed(1)} variants/s of the maker's own time (${(makerMs / batch.length).toFixed(0)} ms per photo)`,
  );
  console.log(
    `API peak RSS ${peakRss().toFixed(0)} MB; load ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
} finally {
  await api.stop();
}
