// End to end on the embedded default: infra/start.mjs runs the built API and the builder; a book
// edited through the API shows up in the HTML the API serves. The site build is a small stand-in
// that reads the API like the real site does (fixtures/api-site-build.mjs), so this test does not
// depend on the Astro site. Needs the built API (`npm run build`, or API_ENTRY=<built main.js>).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

import { MALLOC_ENV, NODE_FLAGS } from '../node-flags.mjs';
import { childProcesses, isAlive, startProduct } from './support/product.mjs';
import { freePort, until } from './support/wait.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const API_ENTRY = path.resolve(ROOT, process.env.API_ENTRY ?? 'admin-api/dist/src/main.js');
const SITE_BUILD = `"${process.execPath}" "${path.join(ROOT, 'infra/test/fixtures/api-site-build.mjs')}"`;
const PASSWORD = 'e2e-password-123';

const START_ARGS = ['node', ...NODE_FLAGS.api, API_ENTRY];
/** What every run here sets, over the test's own environment and under each test's `env`. */
const startEnv = (env) => ({ ADMIN_PASSWORD: PASSWORD, SEED_DEMO: 'false', BUILD_COMMAND: SITE_BUILD, PUBLISH_QUIET_MS: '200', ...env });

/** `node infra/start.mjs node <flags> <API_ENTRY>`, resolved once it prints "ready". */
const start = (varDir, port, env = {}) => startProduct({ varDir, port, args: START_ARGS, env: startEnv(env), readyTimeoutMs: 30_000 });

const temp = [];
after(async () => {
  for (const dir of temp) await rm(dir, { recursive: true, force: true });
});

describe(
  'npm start (infra/start.mjs)',
  { skip: !existsSync(API_ENTRY) && !process.env.CI && `no built API at ${API_ENTRY} (run npm run build)` },
  () => {
    it('builds the site before it says ready, publishes an edited book by itself, and stops both processes', async () => {
      const varDir = await mkdtemp(path.join(os.tmpdir(), 'start-e2e-'));
      temp.push(varDir);
      const port = await freePort();
      const base = `http://127.0.0.1:${port}`;
      const run = await start(varDir, port);
      try {
        assert.match(run.output(), /building the site for the first time/);
        const home = await fetch(`${base}/`);
        assert.equal(home.status, 200, 'a complete site is live at "ready"');
        assert.match(await home.text(), /<title>Books<\/title>/);
        const missing = await fetch(`${base}/no-such-page`);
        assert.equal(missing.status, 404);
        assert.match(await missing.text(), /Page Not Found/);

        const login = await (
          await fetch(`${base}/api/admin/login`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ username: 'admin', password: PASSWORD }),
          })
        ).json();
        const auth = { authorization: `Bearer ${login.sessionId}`, 'content-type': 'application/json' };
        const created = await (
          await fetch(`${base}/api/books`, {
            method: 'POST',
            headers: auth,
            body: JSON.stringify({ title: 'The Original Title', description: 'd', year: 2020, publisher: 'p' }),
          })
        ).json();
        const page = `${base}/books/${created.id}`;
        await until('the new book page', async () => (await fetch(page)).status === 200);

        const patched = await fetch(`${base}/api/books/${created.id}`, {
          method: 'PATCH',
          headers: auth,
          body: JSON.stringify({ title: 'A Title Edited in the Overlay' }),
        });
        assert.equal(patched.status, 200);
        const answered = Date.now();
        await until('the edited title in the served HTML', async () =>
          (await (await fetch(page)).text()).includes('A Title Edited in the Overlay'),
        );
        const latency = Date.now() - answered;
        assert.ok(latency < 10_000, `published in ${latency} ms`);

        const status = await until('publishing to settle', async () => {
          const s = await (await fetch(`${base}/api/admin/publishing`, { headers: auth })).json();
          return s.state === 'live' && s.pendingChanges === 0 && s;
        });
        assert.equal(status.builderReachable, true);
        assert.equal(readlinkSync(path.join(varDir, 'site/live')), path.join('builds', status.liveBuildId));
        assert.ok(status.lastDurationMs > 0);
      } finally {
        assert.equal(await run.stop(), 0, run.output());
      }
      await assert.rejects(fetch(`${base}/api/health`), 'the API stopped with start.mjs');

      // A second start finds the live site and is ready without building first.
      const again = await start(varDir, port);
      try {
        assert.doesNotMatch(again.output(), /building the site for the first time/);
        await until('the builder to compare the live site with the API', () =>
          /the live site has every change the API has/.test(again.output()),
        );
        assert.doesNotMatch(again.output(), /\[builder\] build \S+ started/, 'nothing to publish');
        assert.match(await (await fetch(`${base}/books/1`)).text(), /A Title Edited in the Overlay/);
      } finally {
        assert.equal(await again.stop(), 0);
      }
    });

    it('builds the demo content once on the first start (its own changes do not start a second build), with the secret from a file', async () => {
      const varDir = await mkdtemp(path.join(os.tmpdir(), 'start-demo-'));
      temp.push(varDir);
      const port = await freePort();
      const base = `http://127.0.0.1:${port}`;
      // A Docker-style secret file: start.mjs reads it and hands both children the value.
      const secretFile = path.join(varDir, 'webhook-secret');
      await writeFile(secretFile, 'a-secret-kept-in-a-file-0123456789\n');
      const run = await start(varDir, port, { SEED_DEMO: 'true', REBUILD_WEBHOOK_SECRET_FILE: secretFile });
      try {
        const login = await (
          await fetch(`${base}/api/admin/login`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ username: 'admin', password: PASSWORD }),
          })
        ).json();
        const auth = { authorization: `Bearer ${login.sessionId}` };
        // The demo content's changes are delivered to the builder, which finds them already live.
        await until('the demo changes to be delivered', async () => {
          const s = await (await fetch(`${base}/api/admin/publishing`, { headers: auth })).json();
          return s.state === 'live' && s.pendingChanges === 0;
        });
        const output = run.output();
        const [, firstBuild] = /\[builder\] build (\S+) started \(first-start\)/.exec(output) ?? [];
        assert.ok(firstBuild, output);
        assert.match(output, new RegExp(`changes up to #\\d+ are already in build ${firstBuild}`));
        // Later publishes bring the demo pictures' variants as the API makes them (at most one per picture), no content change.
        const later = output.match(/\[builder\] build \S+ started \(content-changed/g)?.length ?? 0;
        const pictures = output.match(/\[ImageVariants\][^\n]*?Made \d+ variants of/g)?.length ?? 0;
        assert.equal(output.match(/\[builder\] build \S+ started/g)?.length, 1 + later, output);
        assert.ok(later <= pictures, `${later} publishes after the first for ${pictures} pictures made:\n${output}`);
        assert.match(await (await fetch(`${base}/`)).text(), /Demo/);
      } finally {
        assert.equal(await run.stop(), 0, run.output());
      }
    });

    it(
      'starts the builder with the Node flags and allocator settings of infra/node-flags.mjs, keeping an allocator setting the operator made',
      { skip: process.platform !== 'linux' && 'reads /proc' },
      async () => {
        const varDir = await mkdtemp(path.join(os.tmpdir(), 'start-flags-'));
        temp.push(varDir);
        const run = await start(varDir, await freePort(), { MALLOC_ARENA_MAX: '4' });
        try {
          const builder = readdirSync('/proc')
            .filter((name) => /^\d+$/.test(name))
            .map((pid) => {
              try {
                return {
                  pid,
                  stat: readFileSync(`/proc/${pid}/stat`, 'utf8'),
                  cmdline: readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0'),
                };
              } catch {
                return null; // ended meanwhile
              }
            })
            .find(
              (p) =>
                p &&
                Number(p.stat.slice(p.stat.lastIndexOf(')') + 2).split(' ')[1]) === run.child.pid &&
                p.cmdline.some((a) => a.endsWith(path.join('builder', 'main.mjs'))),
            );
          assert.ok(builder, 'the builder runs as a child of start.mjs');
          for (const flag of NODE_FLAGS.builder) assert.ok(builder.cmdline.includes(flag), `${flag} in ${builder.cmdline.join(' ')}`);
          const env = Object.fromEntries(
            readFileSync(`/proc/${builder.pid}/environ`, 'utf8')
              .split('\0')
              .filter(Boolean)
              .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
          );
          assert.deepEqual(
            [env.MALLOC_ARENA_MAX, env.MALLOC_MMAP_THRESHOLD_, env.MALLOC_TRIM_THRESHOLD_],
            ['4', MALLOC_ENV.MALLOC_MMAP_THRESHOLD_, MALLOC_ENV.MALLOC_TRIM_THRESHOLD_],
          );
        } finally {
          assert.equal(await run.stop(), 0, run.output());
        }
      },
    );

    it(
      'starts the API again when it is killed (the builder keeps running), serves /api and the site again, and stops everything on a crash loop with one line',
      { skip: process.platform !== 'linux' && 'reads /proc', timeout: 180_000 },
      async () => {
        const varDir = await mkdtemp(path.join(os.tmpdir(), 'start-api-crash-'));
        temp.push(varDir);
        const run = await start(varDir, await freePort());
        const processOf = (script) => childProcesses(run.child.pid).find((c) => c.cmdline.includes(script))?.pid;
        const apiOf = () => processOf(API_ENTRY);
        const builder = processOf(path.join('builder', 'main.mjs'));
        const killed = [];
        try {
          const first = apiOf();
          assert.ok(first && builder, 'the API and the builder run as children of start.mjs');
          process.kill(first, 'SIGKILL');
          killed.push(first);
          const second = await until('a new API process', () => {
            const pid = apiOf();
            return pid && pid !== first && pid;
          });
          await until('/api to answer again', async () => {
            try {
              return (await fetch(`${run.url}/api/health`)).ok;
            } catch {
              return false;
            }
          });
          assert.match(run.output(), /\[start\] the API stopped \(SIGKILL\); starting it again in 1 s/);
          await until('the comeback said', () => run.output().includes(`[start] the API answers again on ${run.url}/`));
          const home = await fetch(`${run.url}/`);
          assert.equal(home.status, 200);
          assert.match(await home.text(), /<title>Books<\/title>/);
          assert.equal((await fetch(`${run.url}/api/books`)).status, 200);
          assert.equal(processOf(path.join('builder', 'main.mjs')), builder, 'the builder kept running');
          assert.equal(run.child.exitCode, null, 'start.mjs kept running');

          // A crash loop: killed again each time it comes back, until start.mjs gives up.
          let last = second;
          while (run.child.exitCode === null && killed.length < 8) {
            process.kill(last, 'SIGKILL');
            killed.push(last);
            last = await until(
              'a new API process, or start.mjs to stop',
              () => {
                if (run.child.exitCode !== null) return -1;
                const pid = apiOf();
                return pid && !killed.includes(pid) && pid;
              },
              60_000,
            );
          }
          await until('start.mjs to stop by itself', () => run.child.exitCode !== null);
          assert.equal(run.child.exitCode, 1, run.output());
          const lines = run
            .output()
            .split('\n')
            .filter((l) => l.startsWith('[start] the API crashed'));
          assert.deepEqual(lines, [
            '[start] the API crashed 5 times in a row, each within 60 s of its start (last: SIGKILL); stopping everything',
          ]);
          await until('the builder to be gone too', () => !isAlive(builder));
        } finally {
          await run.stop();
          for (const pid of [...killed, apiOf(), builder]) if (pid && isAlive(pid)) process.kill(pid, 'SIGKILL');
        }
      },
    );

    it('says a bad setting once and plainly, without starting a build', async () => {
      const varDir = await mkdtemp(path.join(os.tmpdir(), 'start-bad-'));
      temp.push(varDir);
      const child = spawn(process.execPath, [path.join(ROOT, 'infra/start.mjs'), ...START_ARGS], {
        cwd: ROOT,
        env: { ...process.env, PORT: String(await freePort()), VAR_DIR: varDir, ...startEnv({ SESSION_TTL_HOURS: 'a week' }) },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (c) => (output += c));
      child.stderr.on('data', (c) => (output += c));
      const code = await new Promise((resolve) => child.once('exit', resolve));
      assert.equal(code, 1);
      assert.equal(
        output.trim(),
        'Invalid configuration:\n  - SESSION_TTL_HOURS must be a whole number from 1 to 2160 (got "a week")\nFix these environment variables and start again.',
      );
    });
  },
);
