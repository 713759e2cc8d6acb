// The builder process stopped (SIGTERM) during a publish: the publish is abandoned without touching
// the live site, and the next start publishes everything again, so no change the API handed over
// stays unpublished.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

import { sign, statusHeaders } from '@portfolio/contract/webhook';

import { until } from './support/wait.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const FAKE_BUILD = `"${process.execPath}" "${path.join(HERE, 'fixtures/fake-site-build.mjs')}"`;
const SECRET = 'builder-test-secret-0123456789';

describe('builder process stopped during a publish', () => {
  const children = [];
  let varDir;
  after(async () => {
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
    if (varDir) await rm(varDir, { recursive: true, force: true });
  });

  const start = async () => {
    const child = spawn(process.execPath, [path.join(HERE, '../builder/main.mjs')], {
      env: {
        ...process.env,
        REBUILD_WEBHOOK_SECRET: SECRET,
        VAR_DIR: varDir,
        BUILDER_PORT: '0',
        BUILD_COMMAND: FAKE_BUILD,
        BUILD_API_WAIT_MS: '0',
        FAKE_SITE_CONTROL: path.join(varDir, 'control'),
      },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    children.push(child);
    let output = '';
    child.stdout.on('data', (c) => (output += c));
    child.stderr.on('data', (c) => (output += c));
    const { port } = await new Promise((resolve) => child.on('message', resolve));
    const status = async () => (await fetch(`http://127.0.0.1:${port}/status`, { headers: statusHeaders(SECRET) })).json();
    return { child, port, status, output: () => output, exited: new Promise((resolve) => child.on('exit', resolve)) };
  };
  const liveHtml = () => readFileSync(path.join(varDir, 'site/live/index.html'), 'utf8');

  it('abandons the running publish on SIGTERM (live untouched, exit 0) and publishes in full at the next start', async () => {
    varDir = await mkdtemp(path.join(os.tmpdir(), 'builder-stop-'));
    const control = path.join(varDir, 'control');
    await mkdir(control, { recursive: true });
    await writeFile(path.join(control, 'content'), 'version one');
    const first = await start();
    const firstLive = await until('the first publish', async () => (await first.status()).live);
    assert.match(liveHtml(), /version one/);

    // A change handed over by the API; its publish is still running when the stop comes.
    await writeFile(path.join(control, 'hold'), '');
    await writeFile(path.join(control, 'content'), 'version two');
    const raw = JSON.stringify({
      idempotencyKey: 'outbox-1-1-1',
      reason: 'content-changed',
      sentAt: new Date().toISOString(),
      upToEventId: 1,
      changeCount: 1,
      changes: [{ kind: 'book', entityId: 1, action: 'update' }],
    });
    const res = await fetch(`http://127.0.0.1:${first.port}/hooks/rebuild`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-signature-256': sign(SECRET, raw) },
      body: raw,
    });
    assert.equal(res.status, 202);
    await until('the publish to run', async () => (await first.status()).building);
    first.child.kill('SIGTERM');
    assert.equal(await first.exited, 0);
    assert.match(liveHtml(), /version one/, 'the abandoned publish never went live');
    assert.ok(existsSync(path.join(varDir, 'site/builds/.publish-interrupted')));

    await rm(path.join(control, 'hold'));
    const second = await start();
    // The status names the new version a moment after `live` points at it, so wait on the status.
    const live = await until('the publish after the restart', async () => {
      const s = await second.status();
      return s.live && s.live.id !== firstLive.id ? s.live : null;
    });
    assert.match(liveHtml(), /version two/);
    assert.deepEqual(live.reasons, ['start']);
    assert.equal(live.mode, 'full');
    assert.match(second.output(), /stopped during a publish: publishing everything again/);
    assert.equal(existsSync(path.join(varDir, 'site/builds/.publish-interrupted')), false);
    second.child.kill('SIGTERM');
    assert.equal(await second.exited, 0);
  });
});
