// The builder killed (SIGKILL, as an OOM kill or a power cut does) under `npm start`
// (infra/start.mjs with the built API): no edit it had accepted is lost, and the API keeps serving
// while start.mjs starts the builder again. The site build is the small stand-in that reads the
// API (fixtures/api-site-build.mjs), held in the middle of a publish through SITE_BUILD_HOLD.
// Needs the built API (`npm run build`).
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

import { childProcesses, isAlive, startProduct } from './support/product.mjs';
import { freePort, until } from './support/wait.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const API_ENTRY = path.join(ROOT, 'admin-api/dist/src/main.js');
const SITE_BUILD = `"${process.execPath}" "${path.join(ROOT, 'infra/test/fixtures/api-site-build.mjs')}"`;
const PASSWORD = 'crash-password-123';

const temp = [];
const running = [];
after(async () => {
  for (const run of running) await run.stop();
  for (const dir of temp) await rm(dir, { recursive: true, force: true });
});

/** `npm start` on `varDir` and `port`, resolved at "ready"; its site build waits while `hold` exists. */
async function start(varDir, port, hold) {
  const run = await startProduct({
    varDir,
    port,
    args: ['node', API_ENTRY],
    env: {
      ADMIN_PASSWORD: PASSWORD,
      SEED_DEMO: 'false',
      BUILD_COMMAND: SITE_BUILD,
      SITE_BUILD_HOLD: hold,
      PUBLISH_QUIET_MS: '100',
      PUBLISH_RETRY_BASE_MS: '100',
    },
    readyTimeoutMs: 60_000,
  });
  running.push(run);
  const base = run.url;
  const login = await (
    await fetch(`${base}/api/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: PASSWORD }),
    })
  ).json();
  const headers = { authorization: `Bearer ${login.sessionId}`, 'content-type': 'application/json' };
  const call = async (method, route, body) => {
    const res = await fetch(`${base}${route}`, { method, headers, body: body ? JSON.stringify(body) : undefined });
    assert.ok(res.ok, `${method} ${route} answered ${res.status}`);
    return res.json();
  };
  return { ...run, call, publishing: () => call('GET', '/api/admin/publishing') };
}

const descendantsOf = (pid) => childProcesses(pid).flatMap((c) => [c, ...descendantsOf(c.pid)]);
/** The builder process start.mjs runs now (from the process tree), or undefined. */
const builderOf = (run) => childProcesses(run.child.pid).find((c) => c.cmdline.includes('infra/builder/main.mjs'))?.pid;

/** Saved changes the API has not handed to the builder yet (read from its database). */
function undelivered(varDir) {
  const db = new DatabaseSync(path.join(varDir, 'data/portfolio.sqlite'), { readOnly: true });
  try {
    return db.prepare('SELECT COUNT(*) AS n FROM outbox_events WHERE processedAt IS NULL').get().n;
  } finally {
    db.close();
  }
}

/** Edits while a publish is held, waits until the builder has accepted every one (202), then cuts the power to the whole product. */
async function editThenPowerCut(run, varDir, hold, books, round) {
  await writeFile(hold, '');
  const titles = new Map();
  for (let i = 0; i < 100; i++) {
    const id = books[i % books.length];
    titles.set(id, `Round ${round} edit ${i} of book ${id}`);
    await run.call('PATCH', `/api/books/${id}`, { title: titles.get(id) });
  }
  await until(
    'every edit handed to the builder during a held publish',
    async () => undelivered(varDir) === 0 && (await run.publishing()).state === 'building',
    60_000,
  );
  const tree = descendantsOf(run.child.pid);
  const builder = builderOf(run);
  assert.ok(builder, 'the builder runs');
  process.kill(builder, 'SIGKILL');
  for (const p of [run.child.pid, ...tree.map((t) => t.pid)]) {
    try {
      process.kill(p, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  await run.stop();
  await until('every process of the product to be gone', () => ![run.child.pid, ...tree.map((t) => t.pid)].some(isAlive));
  await rm(hold);
  return titles;
}

describe(
  'a builder killed during a publish',
  { skip: !existsSync(API_ENTRY) && !process.env.CI && `no built API at ${API_ENTRY} (run npm run build)` },
  () => {
    it(
      'loses no edit it had accepted: the next start publishes what the live site lacks, also when the power cut took its note on disk',
      { timeout: 300_000 },
      async () => {
        const varDir = await mkdtemp(path.join(os.tmpdir(), 'builder-crash-'));
        temp.push(varDir);
        const hold = path.join(varDir, 'hold');
        const port = await freePort();
        let run = await start(varDir, port, hold);
        const books = [];
        for (let i = 1; i <= 20; i++)
          books.push((await run.call('POST', '/api/books', { title: `Book ${i}`, description: 'd', year: 2020, publisher: 'p' })).id);
        await until('the 20 books live', async () => {
          const s = await run.publishing();
          return s.state === 'live' && s.pendingChanges === 0;
        });

        for (const round of [1, 2]) {
          const titles = await editThenPowerCut(run, varDir, hold, books, round);
          // Round 2: as if the power cut came before the builder's note of the accepted request reached
          // the disk; the API's content version still tells what the live site lacks.
          const marker = path.join(varDir, 'site/builds/.publish-interrupted');
          if (round === 2) await rm(marker, { force: true });

          run = await start(varDir, port, hold);
          await until(
            `the 100 edits of round ${round} live after the restart`,
            async () => {
              const home = await (await fetch(`${run.url}/`)).text();
              return [...titles.values()].every((t) => home.includes(t));
            },
            120_000,
          );
          for (const [id, title] of titles) assert.match(await (await fetch(`${run.url}/books/${id}`)).text(), new RegExp(title));
          const status = await until('publishing to settle', async () => {
            const s = await run.publishing();
            return s.state === 'live' && s.pendingChanges === 0 && s;
          });
          assert.equal(status.builderReachable, true);
          assert.match(run.output(), round === 1 ? /stopped during a publish: publishing everything again/ : /publishing what is missing/);
          assert.equal(existsSync(marker), false, 'the note goes once everything is live');
        }
        assert.equal(await run.stop(), 0, run.output());
      },
    );
  },
);

describe(
  'npm start when its builder crashes',
  { skip: !existsSync(API_ENTRY) && !process.env.CI && `no built API at ${API_ENTRY} (run npm run build)` },
  () => {
    it('starts the builder again while the API and the site keep serving; edits after it are published', { timeout: 120_000 }, async () => {
      const varDir = await mkdtemp(path.join(os.tmpdir(), 'builder-restart-'));
      temp.push(varDir);
      const run = await start(varDir, await freePort(), path.join(varDir, 'no-hold'));
      const book = await run.call('POST', '/api/books', { title: 'Before the crash', description: 'd', year: 2020, publisher: 'p' });
      await until('the book live', async () => (await fetch(`${run.url}/books/${book.id}`)).status === 200);

      const first = builderOf(run);
      process.kill(first, 'SIGKILL');
      await until('the builder to be gone', () => !isAlive(first));
      // Answered while there is no builder.
      assert.equal((await fetch(`${run.url}/api/health`)).status, 200);
      assert.match(await (await fetch(`${run.url}/books/${book.id}`)).text(), /Before the crash/);
      await run.call('PATCH', `/api/books/${book.id}`, { title: 'Saved while the builder was down' });

      const second = await until('a new builder', () => {
        const pid = builderOf(run);
        return pid && pid !== first && pid;
      });
      assert.match(run.output(), /\[start\] the builder stopped \(SIGKILL\); starting it again in 1 s/);
      await until(
        'the edit saved while the builder was down, live',
        async () => (await (await fetch(`${run.url}/books/${book.id}`)).text()).includes('Saved while the builder was down'),
        60_000,
      );
      await run.call('PATCH', `/api/books/${book.id}`, { title: 'Saved after the restart' });
      await until('an edit after the restart, live', async () =>
        (await (await fetch(`${run.url}/books/${book.id}`)).text()).includes('Saved after the restart'),
      );
      assert.equal(builderOf(run), second);
      assert.equal(await run.stop(), 0, run.output());
    });

    it('stops everything on a crash loop, with one line saying why', { timeout: 120_000 }, async () => {
      const varDir = await mkdtemp(path.join(os.tmpdir(), 'builder-loop-'));
      temp.push(varDir);
      const run = await start(varDir, await freePort(), path.join(varDir, 'no-hold'));
      let last = null;
      for (let crash = 1; crash <= 5; crash++) {
        const pid = await until(
          `builder ${crash}`,
          () => {
            const p = builderOf(run);
            return p && p !== last && p;
          },
          60_000,
        );
        process.kill(pid, 'SIGKILL');
        last = pid;
      }
      await until('start.mjs to stop by itself', () => run.child.exitCode !== null, 30_000);
      assert.equal(run.child.exitCode, 1, run.output());
      const lines = run
        .output()
        .split('\n')
        .filter((l) => l.startsWith('[start] the builder crashed'));
      assert.deepEqual(lines, [
        '[start] the builder crashed 5 times in a row, each within 60 s of its start (last: SIGKILL); stopping everything',
      ]);
      assert.equal(run.output().match(/starting it again in/g)?.length, 4, run.output());
      await assert.rejects(fetch(`${run.url}/api/health`), 'the API stopped too');
    });
  },
);
