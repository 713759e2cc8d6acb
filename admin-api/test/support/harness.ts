import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after } from 'node:test';
import { fileURLToPath } from 'node:url';

import type { INestApplication, LoggerService } from '@nestjs/common';
import { type ContentKind, KINDS } from '@portfolio/contract/kinds';
import { createConnection } from 'mysql2/promise';
import { DataSource } from 'typeorm';

import { createApp } from '../../src/app.js';
import { type AppConfig, loadConfig } from '../../src/config/config.js';

/**
 * What this file's tests started and have not stopped (APIs, API processes, SMTP servers): stopped
 * after the file's last test, so a test that fails before its own close leaves nothing running (the
 * file's process would otherwise wait for it for minutes).
 */
const leftRunning = new Set<() => Promise<unknown>>();
after(() => Promise.allSettled([...leftRunning].map((stop) => stop())));

/**
 * `stop` made safe to call more than once (the first call's promise answers every call), and called
 * with `leftOverArgs` after the file's tests unless it was called before.
 */
export function stopOnce<A extends unknown[], T>(stop: (...args: A) => Promise<T>, ...leftOverArgs: A) {
  let stopped: Promise<T> | undefined;
  const once = (...args: A): Promise<T> => {
    leftRunning.delete(leftOver);
    return (stopped ??= stop(...args));
  };
  const leftOver = () => once(...leftOverArgs);
  leftRunning.add(leftOver);
  return once;
}

export const ADMIN = { username: 'admin', password: 'correct-horse-battery', email: 'admin@example.test' };

/** Which database this run of the suite uses: SQLite, or MySQL/MariaDB when TEST_DB=mysql. */
export const TEST_DB = process.env.TEST_DB === 'mysql' ? 'mysql' : 'sqlite';

export interface Api {
  url: string;
  config: AppConfig;
  app: INestApplication;
  dataSource: DataSource;
  request(method: string, path: string, options?: RequestOptions): Promise<ApiResponse>;
  login(username?: string, password?: string): Promise<string>;
  /** Stops the API; keeps its state when asked, for a restart. */
  close(options?: { keepData?: boolean }): Promise<void>;
}

export interface RequestOptions {
  token?: string;
  body?: unknown;
  /** Sent as-is (for malformed JSON, multipart, oversized bodies). */
  rawBody?: RequestInit['body'];
  headers?: Record<string, string>;
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

/** Empties the MySQL test database so each suite starts from the migrations. */
async function resetMysql(url: string) {
  const conn = await createConnection({ uri: url.replace(/^mariadb:/, 'mysql:'), multipleStatements: true });
  try {
    const [rows] = await conn.query('SELECT table_name AS name FROM information_schema.tables WHERE table_schema = DATABASE()');
    const names = (rows as { name: string }[]).map((r) => `\`${r.name}\``);
    if (names.length) await conn.query(`SET FOREIGN_KEY_CHECKS = 0; DROP TABLE ${names.join(', ')}; SET FOREIGN_KEY_CHECKS = 1;`);
  } finally {
    await conn.end();
  }
}

/**
 * Starts the real API on a free port over a fresh database (a new SQLite file, or an emptied
 * MySQL database), with the first admin created. Requests go over real HTTP.
 */
export interface StartOptions {
  logger?: LoggerService;
  /** Connect through another address (e.g. a proxy) to the MySQL test database. */
  databaseUrl?: string;
  /** Reuse the state of an earlier start (a restart) instead of a fresh database. */
  varDir?: string;
  keepData?: boolean;
}

export async function startApi(env: Record<string, string> = {}, options: StartOptions = {}): Promise<Api> {
  const varDir = options.varDir ?? (await mkdtemp(path.join(os.tmpdir(), 'portfolio-test-')));
  let databaseUrl: string | undefined;
  if (TEST_DB === 'mysql') {
    const url = process.env.TEST_MYSQL_URL;
    if (!url) throw new Error('TEST_DB=mysql needs TEST_MYSQL_URL');
    if (!options.keepData) await resetMysql(url);
    databaseUrl = options.databaseUrl ?? url;
  }
  const config = loadConfig({
    PORT: '0',
    VAR_DIR: varDir,
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
    ADMIN_EMAIL: ADMIN.email,
    SEED_DEMO: 'false',
    LOG_REQUESTS: 'false',
    // An empty databaseUrl option means: the test gives the database by other variables.
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...env,
  });
  const app = await createApp(config, options.logger ?? false);
  const close = stopOnce(
    async (closeOptions: { keepData?: boolean } = {}) => {
      await app.close();
      if (!closeOptions.keepData) await rm(varDir, { recursive: true, force: true });
    },
    { keepData: options.keepData },
  );
  try {
    await app.listen(0, '127.0.0.1');
  } catch (error) {
    await close({ keepData: options.keepData });
    throw error;
  }
  const { port } = app.getHttpServer().address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;

  const { request, login } = requester(url);

  return {
    url,
    config,
    app,
    dataSource: app.get(DataSource),
    request,
    login,
    close,
  };
}

/** Requests over real HTTP to an API at `url`, and its admin login. */
export function requester(url: string): Pick<Api, 'request' | 'login'> {
  const request: Api['request'] = async (method, urlPath, opts = {}) => {
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    let body: RequestInit['body'] | undefined = opts.rawBody;
    if (opts.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(opts.body);
    }
    const res = await fetch(url + urlPath, { method, headers, body });
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: res.status, headers: res.headers, text, body: parsed };
  };
  const login: Api['login'] = async (username = ADMIN.username, password = ADMIN.password) => {
    const res = await request('POST', '/api/admin/login', { body: { username, password } });
    if (res.status !== 200) throw new Error(`login as ${username} failed: ${res.status} ${res.text}`);
    return res.body.sessionId as string;
  };
  return { request, login };
}

/** An API replica as its own process (node dist/src/main.js), as production runs it. */
export interface ApiProcess extends Pick<Api, 'request' | 'login'> {
  url: string;
  varDir: string;
  /** SIGTERM, then waits for the exit; removes the VAR_DIR it made (never one it was given). */
  stop(): Promise<void>;
  /** SIGKILL (a crash: no shutdown work at all), then waits for the exit; keeps the VAR_DIR. */
  kill(): Promise<void>;
}

// dist/test/support → the package folder.
const API_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/**
 * Starts the real entry point on a free port, on the suite's database (on MySQL the same database as
 * startApi; on SQLite the file in `varDir`, so a process given another API's VAR_DIR shares its
 * database). Ready once it answers.
 */
export async function startApiProcess(env: Record<string, string> = {}, options: { varDir?: string } = {}): Promise<ApiProcess> {
  const varDir = options.varDir ?? (await mkdtemp(path.join(os.tmpdir(), 'replica-')));
  // PORT=0: the process binds a free port itself and names it in its ready line (a port probed here
  // and freed could be taken by another suite's process before this one binds it).
  const child = spawn(process.execPath, [path.join(API_ROOT, 'dist/src/main.js')], {
    cwd: API_ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      VAR_DIR: varDir,
      PORT: '0',
      HOST: '127.0.0.1',
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
      ADMIN_EMAIL: ADMIN.email,
      SEED_DEMO: 'false',
      LOG_REQUESTS: 'false',
      BACKUP_EVERY: 'off',
      ...(TEST_DB === 'mysql' ? { DATABASE_URL: process.env.TEST_MYSQL_URL! } : {}),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = once(child, 'exit');
  const ended = () => child.exitCode !== null || child.signalCode !== null;
  // Left running by a failed test: SIGKILL, no shutdown work to wait for.
  const stop = stopOnce(async (signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM') => {
    if (!ended()) child.kill(signal);
    await exited;
    if (!options.varDir) await rm(varDir, { recursive: true, force: true });
  }, 'SIGKILL');
  const url = await new Promise<string>((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk;
      const ready = /API ready on (http:\/\/127\.0\.0\.1:\d+)\/api/.exec(output);
      if (ready) resolve(ready[1]!);
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('exit', () => reject(new Error(`the API process stopped: ${output}`)));
  });
  return {
    url,
    varDir,
    ...requester(url),
    stop,
    async kill() {
      if (child.exitCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}

type Body = Record<string, unknown>;
export type Sample = (over?: Body) => Body;

/** A minimal valid body of each kind (a new kind fails to compile here until it has one). */
export const sampleOf: Record<ContentKind, Sample> = {
  books: (over = {}) => ({ title: 'A Book', description: 'About it', year: 2020, publisher: 'Pub', ...over }),
  essays: (over = {}) => ({ title: 'An Essay', excerpt: 'Short', content: 'Para one.\n\nPara two.', ...over }),
  artworks: (over = {}) => ({ title: 'A Painting', medium: 'Oil', year: 2021, image: '/uploads/artworks/a.jpg', ...over }),
  news: (over = {}) => ({ title: 'News', excerpt: 'Short', content: 'Line one\nLine two', category: 'award', ...over }),
  plays: (over = {}) => ({ title: 'A Play', ...over }),
};

/** A sample that its kind's publish rule shows to visitors (a play is a draft unless told otherwise). */
export function publicSampleOf(kind: ContentKind, over: Body = {}): Body {
  const rule = KINDS[kind].publish;
  return sampleOf[kind](rule ? { [rule.field]: rule.values[0], ...over } : over);
}

/** The 404 of each kind for an item that is not there or not visible, as the specification words it. */
export const notFoundOf: Record<ContentKind, { statusCode: 404; message: string; messageKey: string }> = {
  books: { statusCode: 404, message: 'Book Not Found', messageKey: 'error.bookNotFound' },
  essays: { statusCode: 404, message: 'Essay not found', messageKey: 'error.essayNotFound' },
  artworks: { statusCode: 404, message: 'Artwork not found', messageKey: 'error.artworkNotFound' },
  news: { statusCode: 404, message: 'News item not found', messageKey: 'error.newsNotFound' },
  plays: { statusCode: 404, message: 'Play not found', messageKey: 'error.playNotFound' },
};
