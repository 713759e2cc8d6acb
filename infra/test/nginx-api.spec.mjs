// The real API behind the real nginx config, set up as docker-compose.yml sets it up (the API's
// TRUST_PROXY is read from there): a script that makes up a new X-Forwarded-For for every contact
// message still meets the API's limit of 10 messages an hour per client, and another visitor
// is not affected. Needs the built API (`npm run build`, or API_ENTRY=<built main.js>) and nginx.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';

import { parse as parseYaml } from 'yaml';

import { NODE_FLAGS } from '../node-flags.mjs';
import { checkNginx, freePort, NO_NGINX, request, ROOT, startDns, startNginx, until, writeNginxConfig } from './support/nginx.mjs';

const API_ENTRY = path.resolve(ROOT, process.env.API_ENTRY ?? 'admin-api/dist/src/main.js');
const PASSWORD = 'nginx-api-test-password';
const compose = parseYaml(readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8'));
const TRUST_PROXY = String(compose.services['admin-api'].environment.TRUST_PROXY);

const skip = NO_NGINX || (!existsSync(API_ENTRY) && !process.env.CI && `no built API at ${API_ENTRY} (run npm run build)`);

describe('the API behind nginx, as docker-compose.yml runs it', { skip }, () => {
  let tmp;
  let api;
  let apiOutput = '';
  let apiPort;
  let dns;
  let nginx;
  let port;

  before(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'nginx-api-'));
    chmodSync(tmp, 0o755);
    apiPort = await freePort();
    api = spawn(process.execPath, [...NODE_FLAGS.api, API_ENTRY], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME ?? tmp,
        HOST: '127.0.0.1',
        PORT: String(apiPort),
        VAR_DIR: path.join(tmp, 'var'),
        ADMIN_PASSWORD: PASSWORD,
        SEED_DEMO: 'false',
        LOG_REQUESTS: 'false',
        TRUST_PROXY,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    api.stdout.on('data', (c) => (apiOutput += c));
    api.stderr.on('data', (c) => (apiOutput += c));
    const started = await until(
      'the API to answer /api/health',
      async () => (api.exitCode !== null ? 'stopped' : (await fetch(`http://127.0.0.1:${apiPort}/api/health`)).ok),
      30_000,
    );
    assert.notEqual(started, 'stopped', `the API stopped at start (TRUST_PROXY=${TRUST_PROXY} from docker-compose.yml):\n${apiOutput}`);

    dns = await startDns({ 'admin-api': ['127.0.0.1'] });
    port = await freePort();
    const conf = writeNginxConfig(tmp, { port, apiPort, siteLive: path.join(tmp, 'no-site'), dnsPort: dns.port });
    const check = checkNginx(tmp, conf);
    assert.ok(check.ok, `nginx -t failed:\n${check.output}`);
    nginx = await startNginx(tmp, conf, port);
  });

  after(async () => {
    await nginx?.stop();
    if (api && api.exitCode === null) {
      const exited = new Promise((resolve) => api.once('exit', resolve));
      api.kill('SIGTERM');
      await exited;
    }
    await dns?.close();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  const sendMessage = (headers = {}, localAddress) =>
    request(port, '/api/contacts', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ name: 'Demo', email: 'demo@example.invalid', subject: 'Demo', message: 'Demo message' }),
      localAddress,
    });

  it('limits contact messages per client even when every request forges a new X-Forwarded-For', async () => {
    const statuses = [];
    for (let i = 1; i <= 12; i++) {
      const res = await sendMessage({ 'x-forwarded-for': `198.51.100.${i}`, 'x-real-ip': `198.51.100.${i}` });
      statuses.push(res.status);
      if (i > 10) {
        assert.equal(JSON.parse(res.text).statusCode, 429);
        assert.ok(Number(res.headers['retry-after']) > 0, 'says when to try again');
      }
    }
    assert.deepEqual(statuses, [...Array(10).fill(201), 429, 429]);

    // Someone else (another address, as nginx sees it) can still write.
    assert.equal((await sendMessage({}, '127.0.0.2')).status, 201);

    const login = await request(port, '/api/admin/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: PASSWORD }),
    });
    assert.equal(login.status, 200);
    const inbox = await request(port, '/api/contacts', { headers: { authorization: `Bearer ${JSON.parse(login.text).sessionId}` } });
    assert.equal(JSON.parse(inbox.text).length, 11, 'the admin receives the 10 allowed messages and the other visitor’s');
  });
  it('lets an import up to IMPORT_MAX_MB through to the API, which refuses a larger one with its own message', async () => {
    const login = await request(apiPort, '/api/admin/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: PASSWORD }),
    });
    assert.equal(login.status, 200, login.text);
    const authorization = `Bearer ${JSON.parse(login.text).sessionId}`;
    const MB = 2 ** 20;
    // Declared lengths (a few bytes sent): each is refused before the body is read, by nginx or the API.
    const post = (address, length) =>
      request(port, address, {
        method: 'POST',
        headers: { authorization, 'content-type': 'multipart/form-data; boundary=x', 'content-length': String(length) },
        body: '--x',
      });
    // Past the API's limit (200 MB and the envelope) but within nginx's: the API's own answer.
    for (const address of ['/api/imports', '/api/imports/', '/api/Imports']) {
      const answer = await post(address, 200 * MB + 512 * 1024);
      assert.equal(answer.status, 413, `${address}: ${answer.text}`);
      assert.equal(JSON.parse(answer.text).message, 'This file is too large to import. The limit is 200 MB.');
    }
    // Past nginx's own limit for imports, and other API routes keep UPLOAD_MAX_MB's 26 MB.
    assert.equal((await post('/api/imports', 202 * MB)).status, 413);
    const upload = await post('/api/uploads', 27 * MB);
    assert.equal(upload.status, 413);
    assert.ok(!upload.headers['content-type']?.startsWith('application/json'), 'nginx answers a 27 MB upload itself');
  });

  it('limits sign-in, its code step and password reset at nginx by every address that reaches them in the API', async () => {
    const post = (address, localAddress, target = port) =>
      request(target, address, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}', localAddress });
    const routes = ['login', 'login/totp', 'forgot-password', 'reset-password'];
    const spellings = (route) => [
      ...new Set([
        `/api/admin/${route}`,
        `/api/admin/${route}/`,
        `/api/Admin/${route}`,
        `/API/ADMIN/${route.toUpperCase()}`,
        `/api/admin/${route.toUpperCase()}/`,
        `/api/admin//${route}`,
        `/api/admin/${route}//`,
        `/api/admin/${route.replace('/', '%2F')}`,
        `/api/admin/${route}.json`,
      ]),
    ];
    // Which spellings the API itself routes to the handler (anything but its 404), asked directly.
    const reaching = [];
    for (const route of routes) {
      for (const address of spellings(route)) if ((await post(address, '127.0.0.1', apiPort)).status !== 404) reaching.push(address);
    }
    for (const route of routes) {
      assert.ok(
        reaching.includes(`/api/admin/${route}/`) && reaching.includes(`/api/Admin/${route}`),
        `Express matches ${route} with any case and a trailing slash`,
      );
    }
    // Each spelling from an address of its own, with a fresh allowance of 11 (burst 10): at most 11 of
    // 14 tries reach the API (its answers are JSON), then nginx answers 429 itself. (/API/… is the
    // site's, not the API's, behind nginx: none reaches it.)
    let client = 10;
    for (const address of reaching) {
      const from = `127.0.0.${client++}`;
      const answers = [];
      for (let i = 0; i < 14; i++) answers.push(await post(address, from));
      const statuses = answers.map((a) => a.status).join(' ');
      const fromApi = answers.filter((a) => a.headers['content-type']?.startsWith('application/json'));
      assert.ok(fromApi.length <= 11, `${address}: ${fromApi.length} of 14 reached the API (statuses: ${statuses})`);
      if (fromApi.length) assert.equal(answers.at(-1).status, 429, `${address}: nginx says 429 (statuses: ${statuses})`);
    }
    // Other admin routes are not in the sign-in allowance.
    const from = `127.0.0.${client}`;
    for (let i = 0; i < 14; i++) assert.equal((await request(port, '/api/admin/me', { localAddress: from })).status, 401);
  });
});
