// Runs the shipped nginx config (infra/nginx) with the real nginx binary, changing only what is
// specific to the machine: the config folder, the site root, the listen address, the API's port,
// the DNS server nginx asks for `admin-api`, and where nginx keeps its pid, logs and temp files.
// A small DNS server stands in for Docker's embedded one, so a test decides what `admin-api`
// resolves to (or that it does not exist), as a container being started, stopped or recreated would.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import dgram from 'node:dgram';
import { existsSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

import { stopOnce } from './wait.mjs';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const CONF_DIR = path.join(ROOT, 'infra/nginx');
export const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx', '/usr/local/sbin/nginx'].find((p) => existsSync(p));
export const HAS_BROTLI =
  existsSync('/etc/nginx/modules-enabled') && readdirSync('/etc/nginx/modules-enabled').some((f) => f.includes('brotli-filter'));
/** The skip reason for a describe() that needs nginx (never skipped on CI, which installs it). */
export const NO_NGINX =
  !NGINX && !process.env.CI && 'nginx is not installed (Debian: apt-get install nginx-light libnginx-mod-http-brotli-filter)';

export async function freePort(host = '127.0.0.1') {
  const server = net.createServer();
  await new Promise((resolve) => server.listen(0, host, resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export async function until(what, check, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  let last;
  for (;;) {
    try {
      const value = await check();
      if (value) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last ? `: ${last.message}` : ''}`);
    await delay(25);
  }
}

/** A raw request (no automatic decompression, no connection reuse), so headers can be checked as sent. */
export function request(port, urlPath, { method = 'GET', headers = {}, body, localAddress } = {}) {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: urlPath, method, headers, localAddress, agent: false }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const raw = Buffer.concat(chunks);
        resolve({ status: res.statusCode, headers: res.headers, rawHeaders: res.rawHeaders, raw, text: raw.toString('utf8') });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * A DNS server answering A queries from `records` (name → IPv4 addresses); any other name is
 * NXDOMAIN, as Docker's DNS answers for a service with no running container.
 */
export async function startDns(records = {}) {
  const table = new Map(Object.entries(records));
  const socket = dgram.createSocket('udp4');
  const queries = [];
  socket.on('message', (msg, peer) => {
    if (msg.length < 12) return;
    let offset = 12;
    const labels = [];
    while (offset < msg.length && msg[offset] !== 0) {
      labels.push(msg.subarray(offset + 1, offset + 1 + msg[offset]).toString('ascii'));
      offset += msg[offset] + 1;
    }
    const questionEnd = offset + 5; // the zero byte, QTYPE, QCLASS
    const name = labels.join('.').toLowerCase();
    const qtype = msg.readUInt16BE(offset + 1);
    queries.push(name);
    const addresses = qtype === 1 ? (table.get(name) ?? null) : [];
    const answers = (addresses ?? []).map((ip) => {
      const rr = Buffer.alloc(16);
      rr.writeUInt16BE(0xc00c, 0); // the name: a pointer to the question's
      rr.writeUInt16BE(1, 2); // A
      rr.writeUInt16BE(1, 4); // IN
      rr.writeUInt32BE(1, 6); // TTL (nginx's `valid` overrides it)
      rr.writeUInt16BE(4, 10);
      ip.split('.').forEach((part, i) => rr.writeUInt8(Number(part), 12 + i));
      return rr;
    });
    const header = Buffer.alloc(12);
    msg.copy(header, 0, 0, 2); // id
    const flags = 0x8000 | (msg.readUInt16BE(2) & 0x7900) | 0x0400 | 0x0080 | (addresses === null ? 3 : 0);
    header.writeUInt16BE(flags, 2);
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(answers.length, 6);
    socket.send(Buffer.concat([header, msg.subarray(12, questionEnd), ...answers]), peer.port, peer.address);
  });
  await new Promise((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return {
    port: socket.address().port,
    queries,
    set(name, addresses) {
      if (addresses) table.set(name, addresses);
      else table.delete(name);
    },
    close: stopOnce(() => new Promise((resolve) => socket.close(resolve))),
  };
}

/** The shipped config files, each with the machine-specific parts replaced; returns the main file. */
export function writeNginxConfig(prefix, { port, apiPort, siteLive, dnsPort }) {
  const portfolio = path.join(prefix, 'portfolio');
  const replacements = [
    ['/etc/nginx/portfolio', portfolio],
    ['root /srv/site/live;', `root ${siteLive};`],
    ['listen 8080 default_server;', `listen 127.0.0.1:${port} default_server;`],
    ['http://admin-api:3000;', `http://admin-api:${apiPort};`],
    // Asked often and forgotten fast, so a test sees a changed answer within a second.
    ['resolver 127.0.0.11 valid=10s ipv6=off;', `resolver 127.0.0.1:${dnsPort} valid=1s ipv6=off;`],
    ['pid /run/nginx.pid;', `pid ${prefix}/nginx.pid;`],
    ['error_log /dev/stderr warn;', `error_log ${prefix}/error.log warn;`],
    [
      'access_log /dev/stdout;',
      ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']
        .map((t) => `${t === 'body' ? 'client_body' : t}_temp_path ${prefix}/${t};`)
        .join('\n    ') + '\n    access_log off;',
    ],
  ];
  const files = readdirSync(CONF_DIR).filter((f) => f.endsWith('.conf') || f.endsWith('.html'));
  const texts = Object.fromEntries(files.map((f) => [f, readFileSync(path.join(CONF_DIR, f), 'utf8')]));
  for (const [from] of replacements) {
    // The config changed under the test: say so rather than testing something else.
    if (!Object.values(texts).some((t) => t.includes(from)))
      throw new Error(`infra/nginx no longer contains "${from}": update infra/test/support/nginx.mjs`);
  }
  const fix = (text) =>
    replacements
      .reduce((t, [from, to]) => t.replaceAll(from, to), text)
      .split('\n')
      .filter((line) => HAS_BROTLI || !/^\s*brotli/.test(line))
      .join('\n');
  execFileSync('mkdir', ['-p', portfolio]);
  for (const f of files) if (f !== 'nginx.conf') writeFileSync(path.join(portfolio, f), fix(texts[f]));
  // Debian's module snippets name `modules/…` relative to the prefix.
  if (existsSync('/usr/lib/nginx/modules') && !existsSync(path.join(prefix, 'modules')))
    symlinkSync('/usr/lib/nginx/modules', path.join(prefix, 'modules'));
  const main = path.join(prefix, 'nginx.conf');
  writeFileSync(main, fix(texts['nginx.conf']));
  return main;
}

/** `nginx -t` on a written config: { ok, output }. */
export function checkNginx(prefix, conf) {
  const check = spawnSync(NGINX, ['-t', '-c', conf, '-p', `${prefix}/`], { encoding: 'utf8' });
  return { ok: check.status === 0, output: check.stderr };
}

/** Starts nginx in the foreground and resolves once it accepts connections on `port`. */
export async function startNginx(prefix, conf, port) {
  const child = spawn(NGINX, ['-c', conf, '-p', `${prefix}/`, '-g', 'daemon off;'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (c) => (stderr += c));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const log = () => stderr + (existsSync(path.join(prefix, 'error.log')) ? readFileSync(path.join(prefix, 'error.log'), 'utf8') : '');
  // SIGQUIT: a graceful stop; left running by a failed test, SIGTERM (fast; SIGKILL would leave its workers).
  const stop = stopOnce(async (signal = 'SIGQUIT') => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill(signal);
    await exited;
  }, 'SIGTERM');
  const deadline = Date.now() + 10_000;
  for (;;) {
    const connected = await new Promise((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (connected) break;
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop('SIGTERM');
      throw new Error(`nginx did not start (exit ${child.exitCode}):\n${log()}`);
    }
    await delay(20);
  }
  return {
    child,
    log,
    stop: () => stop(),
  };
}
