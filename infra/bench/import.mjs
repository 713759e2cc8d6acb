#!/usr/bin/env node
// Benchmark of importing another blog's export (issue 26), on the embedded default (`npm start`).
//
// Builds a Markdown export (a zip) of BENCH_IMPORT_POSTS posts (default 2,000), each with its own
// cover image on a local HTTP server, starts the product as `npm start` does on a fresh VAR_DIR, and
// measures:
//   - the dry run: POST /api/imports answered (upload, read, planned);
//   - the apply: POST /api/imports/:id/apply until the job is done (every item saved with its
//     revision, every image fetched, cleaned and stored);
//   - the one publish at the end: the full publish the import asks for, from the job done to the new
//     version live (the builder's record), pictures shown as originals while the API makes their variants;
//   - from the job done until every picture's variants are made (the API's jobs, one encode at a time)
//     and live (the targeted publishes of the `image-variants` changes): the site as a full export shows it;
//   - the API process's peak resident memory (VmHWM) over the whole import, and the renderer's and
//     the builder's after the publish;
//   - the publish's slowest renders, and then `/essays` and `/ar/essays` (every post's image) rendered
//     alone by a renderer of the same code with an empty image cache: a list page fetching its variants.
// It builds nothing itself: the root `npm run bench` compiles the API first.
//
// Environment:
//   BENCH_IMPORT_POSTS  posts (and images) in the export (default 2000)
//
// Exit code is 0 whatever the figures (a benchmark, not a test); non-zero only when it could not run.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import sharp from 'sharp';

import { NODE_FLAGS } from '../node-flags.mjs';
import { freePort, until } from '../test/support/wait.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const POSTS = Number(process.env.BENCH_IMPORT_POSTS || 2000);
const ADMIN = { username: 'bench-admin', password: `bench-${process.pid}-${Date.now()}` };
const { zipChunks } = await import(pathToFileURL(path.join(ROOT, 'admin-api/dist/src/site-export/zip.js')).href);

const s = (ms) => `${(ms / 1000).toFixed(1)} s`;
const mb = (bytes) => `${Math.round(bytes / 2 ** 20)} MB`;

async function exportZip(imageBase) {
  const entries = [];
  for (let i = 0; i < POSTS; i++) {
    const date = new Date(Date.UTC(2015, 0, 1) + i * 86_400_000).toISOString();
    const body = `A post written for the import benchmark, number ${i}. `.repeat(12);
    entries.push({
      name: `blog/posts/post-${i}.md`,
      data: Buffer.from(
        `---\ntitle: "Bench post ${i}"\ndate: "${date}"\ncategories: ["${i % 10 === 0 ? 'News' : 'Essays'}"]\nimage: "${imageBase}/img/${i}.jpg"\n---\n\n${body}\n\n${body}\n`,
      ),
    });
  }
  const chunks = [];
  for await (const chunk of zipChunks(entries)) chunks.push(chunk);
  return Buffer.concat(chunks);
}

function builds(varDir) {
  const dir = path.join(varDir, 'site', 'builds');
  return readdirSync(dir)
    .filter((f) => /^[^.]+\.json$/.test(f))
    .flatMap((f) => {
      try {
        return [JSON.parse(readFileSync(path.join(dir, f), 'utf8'))];
      } catch {
        return [];
      }
    });
}

async function apiPid(rootPid) {
  for (const name of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    const stat = await readFile(`/proc/${name}/stat`, 'utf8').catch(() => '');
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (ppid !== rootPid) continue;
    const cmdline = await readFile(`/proc/${name}/cmdline`, 'utf8').catch(() => '');
    if (cmdline.includes('import-api-entry.mjs')) return Number(name);
  }
  return null;
}

/** A process under `rootPid` whose command line contains `text` (the builder, its renderer). */
async function descendant(rootPid, text) {
  const parents = new Map();
  for (const name of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    const stat = await readFile(`/proc/${name}/stat`, 'utf8').catch(() => '');
    if (stat) parents.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
  }
  for (const pid of parents.keys()) {
    let up = pid;
    while (up > 1 && up !== rootPid) up = parents.get(up) ?? 0;
    if (up !== rootPid || pid === rootPid) continue;
    if ((await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')).includes(text)) return pid;
  }
  return null;
}

const peakRss = async (pid) => {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const kb = /VmHWM:\s+(\d+) kB/.exec(status)?.[1];
  return kb ? Number(kb) * 1024 : null;
};

/** `/essays` then `/ar/essays` by a new renderer of the published code with an empty image cache (the first fetches the variants). */
async function renderListsAlone(varDir, apiUrl) {
  const { startRenderer } = await import(pathToFileURL(path.join(ROOT, 'site/render/renderer.mjs')).href);
  const folders = path.join(varDir, 'site', 'renderers');
  const dir = readdirSync(folders).find((f) => readdirSync(path.join(folders, f)).includes('server'));
  if (!dir) return 'n/a (no renderer)';
  const cacheDir = path.join(varDir, 'bench-list-cache');
  const renderer = await startRenderer({ rendererDir: path.join(folders, dir), apiUrl, cacheDir, timeoutMs: 1_800_000, log: () => {} });
  try {
    const publishId = randomUUID();
    const timed = [];
    for (const route of ['/essays', '/ar/essays']) {
      const started = Date.now();
      const page = await renderer.render(route, publishId);
      timed.push(`${route} ${s(Date.now() - started)} (${page.status}, ${page.files.length} variants)`);
    }
    return timed.join(', ');
  } finally {
    await renderer.stop();
  }
}

let stack = null;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    process.stderr.write(`\n${signal}: stopping the stack…\n`);
    if (stack?.exitCode === null) stack.once('exit', () => process.exit(130)).kill('SIGTERM');
    else process.exit(130);
  });
}

async function main() {
  const photo = await sharp({ create: { width: 1200, height: 800, channels: 3, background: { r: 120, g: 80, b: 40 } } })
    .withExif({ IFD0: { Make: 'BenchCam' } })
    .jpeg()
    .toBuffer();
  let imageRequests = 0;
  const images = http.createServer((req, res) => {
    imageRequests++;
    res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': photo.length }).end(photo);
  });
  await new Promise((resolve) => images.listen(0, '127.0.0.1', resolve));
  const imagePort = images.address().port;
  const zip = await exportZip(`http://127.0.0.1:${imagePort}`);

  const varDir = await mkdtemp(path.join(os.tmpdir(), 'portfolio-bench-import-'));
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [path.join(ROOT, 'infra/start.mjs'), 'node', ...NODE_FLAGS.api, path.join(ROOT, 'infra/bench/import-api-entry.mjs')],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        PORT: String(port),
        VAR_DIR: varDir,
        SEED_DEMO: 'false',
        LOG_REQUESTS: 'false',
        BACKUP_EVERY: 'off',
        ADMIN_USERNAME: ADMIN.username,
        ADMIN_PASSWORD: ADMIN.password,
        BENCH_IMAGE_SERVER: `127.0.0.1:${imagePort}`,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  stack = child;
  let output = '';
  child.stdout.on('data', (c) => (output += c));
  child.stderr.on('data', (c) => (output += c));
  const base = `http://127.0.0.1:${port}`;
  try {
    await until(
      '"ready" from infra/start.mjs',
      () => {
        if (child.exitCode !== null) throw new Error(`the stack stopped while starting:\n${output.slice(-4000)}`);
        return /\[start\] ready on /.test(output);
      },
      300_000,
    );
    const call = async (method, route, { token, body, form } = {}) => {
      const res = await fetch(base + route, {
        method,
        headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: form ?? (body ? JSON.stringify(body) : undefined),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined };
    };
    const token = (await call('POST', '/api/admin/login', { body: ADMIN })).body.sessionId;
    const settled = () =>
      until(
        'publishing to settle',
        async () => {
          const state = (await call('GET', '/api/admin/publishing', { token })).body;
          return state.state === 'live' && state.pendingChanges === 0;
        },
        1_800_000,
      );
    await settled();
    const before = new Set(builds(varDir).map((b) => b.id));
    const pid = await apiPid(child.pid);

    const form = new FormData();
    form.append('file', new Blob([zip]), 'bench-export.zip');
    let started = Date.now();
    const created = await call('POST', '/api/imports', { token, form });
    if (created.status !== 201) throw new Error(`POST /api/imports answered ${created.status}: ${JSON.stringify(created.body)}`);
    const dryRunMs = Date.now() - started;
    await call('PUT', `/api/imports/${created.body.id}/mapping`, { token, body: { newsCategories: ['News'], newsTags: [] } });

    started = Date.now();
    const applied = await call('POST', `/api/imports/${created.body.id}/apply`, { token });
    if (applied.status !== 202) throw new Error(`apply answered ${applied.status}: ${JSON.stringify(applied.body)}`);
    const job = await until(
      'the import to finish',
      async () => {
        const now = (await call('GET', `/api/imports/${created.body.id}`, { token })).body;
        if (now.state === 'failed') throw new Error(`the import failed: ${now.error}`);
        return now.state === 'done' && now;
      },
      3_600_000,
      200,
    );
    const applyMs = Date.now() - started;
    const doneAt = Date.now();
    // The import's publish: the first one that contains its last change (pictures' variants made during
    // the apply are published before it). A failure is reported, not waited out through retries.
    const importVersion = (await call('GET', '/api/health')).body.contentVersion;
    const publish = await until(
      'the publish of the import',
      () => builds(varDir).find((b) => !before.has(b.id) && b.finishedAt && (b.upToEventId >= importVersion || !b.ok)),
      1_800_000,
      200,
    );
    const endMs = Date.parse(publish.finishedAt) - doneAt;
    // Every picture's variants made by the API, then live.
    const pictures = new Set();
    for (const kind of ['essays', 'news'])
      for (const item of (await call('GET', `/api/${kind}`)).body) if (item.imageUrl?.startsWith('/uploads/')) pictures.add(item.imageUrl);
    const pictureCount = pictures.size;
    await until(
      `the variants of ${pictureCount} pictures`,
      async () => {
        for (const picture of pictures) {
          const state = (await call('GET', `/api/image-variants?path=${encodeURIComponent(picture)}`)).body;
          if (state?.state === 'pending') return false;
          pictures.delete(picture);
        }
        return true;
      },
      3_600_000,
      500,
    );
    const madeMs = Date.now() - doneAt;
    await settled();
    const allLiveMs = Date.now() - doneAt;
    const essaysPage = await (await fetch(`${base}/essays`)).text();
    const withVariants = (essaysPage.match(/<picture><source /g) ?? []).length;
    const shown = (essaysPage.match(/<picture>/g) ?? []).length;
    const publishes = builds(varDir).filter((b) => !before.has(b.id));
    const peak = pid ? await peakRss(pid) : null;
    const rendererPid = await descendant(child.pid, 'render/worker.mjs');
    const builderPid = await descendant(child.pid, 'builder/main.mjs');
    const rendererPeak = rendererPid ? await peakRss(rendererPid) : null;
    const builderPeak = builderPid ? await peakRss(builderPid) : null;

    console.log(
      `Import of ${POSTS} posts with ${POSTS} images (zip ${mb(zip.length)}), ${os.cpus().length} CPUs, load ${os.loadavg()[0].toFixed(1)}`,
    );
    console.log(`  dry run (upload, read, plan): ${s(dryRunMs)}; counts ${JSON.stringify(created.body.report.counts)}`);
    console.log(
      `  apply: ${s(applyMs)} (${job.progress.items.done} items, ${job.progress.images.done} images, ${job.applyWarnings.length} warnings; ${imageRequests} image requests)`,
    );
    const outcome = publish.ok ? 'live' : `FAILED: ${publish.error}`;
    console.log(
      `  the publish at the end: ${publish.mode ?? 'full'} (${publish.fullReason ?? publish.reasons?.join(', ')}), ${s(publish.durationMs)}, ${outcome}; import done → publish ended ${s(endMs)}`,
    );
    const modes = publishes.reduce((n, b) => ({ ...n, [b.mode ?? 'full']: (n[b.mode ?? 'full'] ?? 0) + 1 }), {});
    console.log(
      `  every picture's variants: made ${s(madeMs)} after the import was done, live ${s(allLiveMs)} after (${publishes.length} publishes since the import: ${JSON.stringify(modes)}); /essays shows ${withVariants} of ${shown} pictures with variants`,
    );
    const listRenders = await renderListsAlone(varDir, base);
    const slowest = (publish.slowest ?? []).map((r) => `${r.path} ${s(r.ms)}`).join(', ');
    console.log(`  slowest renders of that publish: ${slowest || 'n/a (not recorded for a failed publish)'}`);
    console.log(`  alone, empty image cache: ${listRenders}`);
    console.log(
      `  peak RSS: API ${peak ? mb(peak) : 'n/a'} over the run; renderer ${rendererPeak ? mb(rendererPeak) : 'n/a (stopped after a failure)'}, builder ${builderPeak ? mb(builderPeak) : 'n/a'}`,
    );
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
    images.closeAllConnections();
    images.close();
    await rm(varDir, { recursive: true, force: true });
  }
}

await main();
