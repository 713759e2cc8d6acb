#!/usr/bin/env node
// Deploy of the site to an S3-compatible bucket (infra/builder/deploy.mjs) with 100 and then 4,000
// books: the real API (SQLite) and an in-process builder in renderer mode deploying to a real S3
// server on loopback (s3rver) through the AWS SDK. Prints, per size: the first deploy (every object)
// and, for one-book edits, the objects uploaded, the deploy's own seconds, and from the save to the
// bucket holding the new page. Figures only, no pass/fail. Needs the built API (`npm run build`).
//
//   BENCH_DEPLOY_ITEMS  book counts (default "100,4000")
//   BENCH_DEPLOY_RUNS   one-book edits per size (default 5)
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { startPublishingStack } from '../test/support/publish-harness.mjs';
import { startS3Server } from '../test/support/s3.mjs';

const ITEMS = (process.env.BENCH_DEPLOY_ITEMS || '100,4000').split(',').map((n) => Number(n.trim()));
const RUNS = Number(process.env.BENCH_DEPLOY_RUNS || 5);
const say = (line) => process.stdout.write(`[bench:deploy] ${line}\n`);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const s = (ms) => `${(ms / 1000).toFixed(2)} s`;

function nextDeploy(deployer, buildId) {
  return new Promise((resolve, reject) => {
    const look = (e) => {
      if (e.buildId !== buildId) return;
      deployer.off('deploy-end', look);
      if (e.ok) resolve(e);
      else reject(new Error(`deploy of ${buildId} failed: ${e.error}`));
    };
    deployer.on('deploy-end', look);
    // Already done (the deploy finished before we listened).
    const last = deployer.status().lastDeployed;
    if (last?.buildId === buildId) {
      deployer.off('deploy-end', look);
      resolve({ ok: true, ...last });
    }
  });
}

async function run(n) {
  const work = await mkdtemp(path.join(os.tmpdir(), 'bench-deploy-'));
  const s3 = await startS3Server({ buckets: ['site'] });
  let p;
  try {
    p = await startPublishingStack({
      varDir: path.join(work, 'var'),
      seedDemo: false,
      builderEnv: {
        DEPLOY_S3_URL: `s3://site/www?endpoint=${encodeURIComponent(s3.endpoint)}`,
        AWS_ACCESS_KEY_ID: s3.accessKeyId,
        AWS_SECRET_ACCESS_KEY: s3.secretAccessKey,
        DEPLOY_RETRIES: '0',
      },
    });
    const ids = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (next < n) {
          const i = next++;
          const b = await p.call('POST', '/api/books', {
            title: `Bench book ${i}`,
            description: `A book written for the deploy benchmark, number ${i}. `.repeat(4),
            year: 1990 + (i % 35),
            publisher: `Publisher ${i % 17}`,
            genre: 'Novel',
            awards: [],
          });
          ids.push(b.id);
        }
      }),
    );
    // The seeding's full publishes take minutes on a busy machine.
    const live = await p.b.live(await p.contentVersion(), 900_000);
    const first = await nextDeploy(p.b.builder.deployer, live.id);
    say(
      `${n} books: the bucket holds ${first.uploaded + first.unchanged} objects after seeding (the last deploy of it uploaded ${first.uploaded}, ${(first.bytes / 2 ** 20).toFixed(1)} MB, in ${s(first.ms)})`,
    );
    const rows = [];
    for (let r = 0; r < RUNS; r++) {
      const id = ids[(r * 7919) % ids.length];
      const saved = performance.now();
      await p.call('PATCH', `/api/books/${id}`, { title: `Bench book ${id}, edited ${r}` });
      const v = await p.published();
      const d = await nextDeploy(p.b.builder.deployer, v.id);
      rows.push({
        uploaded: d.uploaded,
        deleted: d.deleted,
        unchanged: d.unchanged,
        ms: d.ms,
        saveToBucketMs: performance.now() - saved,
        publishMs: v.durationMs,
        purged: d.purged,
        timings: d.timings,
      });
    }
    const m = (k) => median(rows.map((x) => x[k]));
    say(
      `${n} books: one-book edit (median of ${RUNS}): ${m('uploaded')} objects uploaded of ${m('uploaded') + m('unchanged')}, ${m('deleted')} deleted, ${m('purged')} addresses purged; publish ${s(m('publishMs'))}, then deploy ${s(m('ms'))}; save → in the bucket ${s(m('saveToBucketMs'))} (worst ${s(Math.max(...rows.map((x) => x.saveToBucketMs)))})`,
    );
    const steps = Object.keys(rows[0].timings ?? {});
    if (steps.length)
      say(
        `${n} books: the deploy's steps, ms from its start (median): ${steps.map((k) => `${k} ${median(rows.map((x) => x.timings[k]))}`).join(', ')}`,
      );
  } finally {
    await p?.close();
    await s3.stop();
    await rm(work, { recursive: true, force: true });
  }
}

for (const n of ITEMS) await run(n);
