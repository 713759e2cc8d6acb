import { isIP } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { type Env, EnvReader } from '@portfolio/contract/env';
import { isEmailAddress } from '@portfolio/contract/rules';
import { SETTINGS_PLACEHOLDERS } from '@portfolio/contract/settings';
import type { PublicSiteSettings } from '@portfolio/contract/types';

import { readStorageConfig, STORAGE_FILE_VARIABLES, type StorageConfig } from './storage-config.js';

/** The repository root, seen from this file (src/config or dist/src/config). */
const REPO_ROOT = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  fileURLToPath(import.meta.url).includes(`${path.sep}dist${path.sep}`) ? '../../../..' : '../../..',
);

/**
 * The one place that reads the environment. Every variable is validated at boot and every
 * bad one is reported together, so an operator fixes them in one go.
 */
export interface AppConfig {
  port: number;
  host: string;
  varDir: string;
  /** The built public site currently served at / (a symlink switched atomically by the builder). */
  siteDir: string;
  /** The admin overlay bundle served at /admin-ui/. */
  adminUiDir: string;
  database:
    { kind: 'sqlite'; file: string } | { kind: 'mysql'; host: string; port: number; user: string; password: string; database: string };
  admin: { username: string; password: string | null; email: string };
  seedDemo: boolean;
  sessionTtlHours: number;
  publicUrl: string;
  /** timeoutMs: how long one SMTP step (connecting, the greeting, each answer) may take (MAIL_TIMEOUT_MS). */
  /** fromIsDefault: MAIL_FROM is unset (`from` is then no-reply@ the host of PUBLIC_URL; the newsletter names the author). */
  mail: { smtpUrl: string | null; from: string; fromIsDefault: boolean; timeoutMs: number };
  /**
   * The newsletter's sender: mails per minute across all replicas (NEWSLETTER_RATE_PER_MINUTE) and
   * mails in flight per process (NEWSLETTER_CONCURRENCY).
   */
  newsletter: { ratePerMinute: number; concurrency: number };
  uploadMaxMb: number;
  /** Where uploads live: local disk ($VAR_DIR/uploads) or an S3-compatible bucket (STORAGE_URL). */
  storage: StorageConfig;
  /** How long a start waits for MySQL to accept connections before giving up (seconds). */
  databaseWaitSeconds: number;
  /** Where rebuild requests go, the shared signing secret, and where the builder reports its state. */
  rebuildWebhook: { url: string | null; secret: string | null; statusUrl: string | null };
  /** Timing of the rebuild sender (milliseconds). */
  publishing: {
    /**
     * Send only after this long without a new change, so a burst of edits becomes one publish.
     * 300 ms by default: a targeted publish costs well under a second, so waiting longer only
     * delays the author's fix, while the saves of one action (an upload, then the form's save;
     * a bulk restore) come within a few hundred milliseconds of each other.
     */
    quietMs: number;
    /** But never hold a change back longer than this, so steady editing still publishes. */
    maxWaitMs: number;
    retryBaseMs: number;
    retryMaxMs: number;
    requestTimeoutMs: number;
    /** How often to look for changes saved by other API processes (replicas, or before a restart). */
    pollMs: number;
  };
  /**
   * Which proxies in front of the API may say who the client is (X-Forwarded-For): none (false),
   * a number of hops, or their addresses/CIDR ranges. Trusting more than what is deployed lets any
   * client pick its own address and walk past the rate limits.
   */
  trustProxy: false | number | string[];
  logRequests: boolean;
  /** LOG_FORMAT: 'text' (Nest's coloured lines) or 'json' (one object per line, for log collectors). */
  logFormat: 'text' | 'json';
  /**
   * Image variants (image-variants/image-variant-jobs.ts): how long a process's claim on a job lasts
   * before another may take it over (IMAGE_VARIANT_CLAIM_MS), i.e. how soon the job of a process
   * that died mid-encode is made again.
   */
  imageVariants: { claimMs: number };
  /** SIGTERM: how long running requests (and a rebuild request out) may take to finish (ms). */
  shutdownTimeoutMs: number;
  /** METRICS_PORT: Prometheus metrics on their own port (unset: off), on METRICS_HOST (loopback by default). */
  metrics: { port: number | null; host: string };
  /**
   * What encrypts the admins' TOTP secrets: TWO_FACTOR_KEY (32+ characters) when set, otherwise a
   * random key made once in `keyFile` ($VAR_DIR/secrets/two-factor.key).
   */
  twoFactor: { key: string | null; keyFile: string };
  /**
   * Scheduled backups (npm run backup makes one by hand): where archives go, how often one is
   * made (null: never by itself) and how many of the newest are kept.
   */
  backup: { dir: string; every: string | null; everyMs: number | null; keep: number };
  /** Saved versions of content items: how many each item keeps (0: all of them). */
  revisions: { keep: number };
  /**
   * What the site settings (the author's details) hold when first made: SITE_* variables over the
   * placeholders. Read once, when the settings row does not exist yet; after that the overlay's
   * Settings tab edits them and these variables no longer matter.
   */
  siteDefaults: Omit<PublicSiteSettings, 'updatedAt'>;
  /**
   * Imports of other blogs' exports: where uploaded export files wait ($VAR_DIR/imports) and the
   * limits that refuse a hostile or runaway file (bytes, unpacked bytes, zip entries, posts, the
   * unpacked bytes of each text file read whole) and bound each image (bytes, time).
   */
  imports: {
    dir: string;
    maxFileBytes: number;
    maxUncompressedBytes: number;
    maxEntries: number;
    maxItems: number;
    maxTextBytes: number;
    maxImageBytes: number;
    imageTimeoutMs: number;
  };
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/**
 * The configuration for a command or the server's start: on a bad setting, every problem is said on
 * stderr with what to do, and the process ends (exit code 1 unless given).
 */
export function loadConfigOrExit({
  exitCode = 1,
  then = 'try again',
}: { exitCode?: number; then?: 'try again' | 'start again' } = {}): AppConfig {
  try {
    return loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\nFix these environment variables and ${then}.\n`);
    process.exit(exitCode);
  }
}

/** Secrets may come from a file (Docker/Kubernetes secrets): NAME_FILE names the file holding NAME. */
const FILE_VARIABLES = [
  'ADMIN_PASSWORD',
  'DATABASE_URL',
  'DATABASE_PASSWORD',
  'REBUILD_WEBHOOK_SECRET',
  'SMTP_URL',
  'TWO_FACTOR_KEY',
  ...STORAGE_FILE_VARIABLES,
];

export function loadConfig(env: Env = process.env, cwd = process.cwd()): AppConfig {
  const reader = new EnvReader(env, { cwd, fileVariables: FILE_VARIABLES });
  const { problems } = reader;
  const str = (name: string) => reader.str(name);
  const int = (name: string, fallback: number, min: number, max: number) => reader.int(name, fallback, min, max);
  const bool = (name: string, fallback: boolean) => reader.bool(name, fallback);
  const url = (name: string, protocols: string[]) => reader.url(name, protocols);

  const port = int('PORT', 3000, 0, 65535);
  const host = str('HOST') ?? '127.0.0.1';
  const varDir = path.resolve(cwd, str('VAR_DIR') ?? './var');

  const database = readDatabase(reader, varDir);
  const admin = readAdmin(reader);

  const publicUrl = url('PUBLIC_URL', ['http:', 'https:']) ?? `http://localhost:${port}`;
  const smtpUrl = url('SMTP_URL', ['smtp:', 'smtps:']);
  const webhookUrl = url('REBUILD_WEBHOOK_URL', ['http:', 'https:']);
  const webhookSecret = str('REBUILD_WEBHOOK_SECRET') ?? null;
  if (webhookUrl && (!webhookSecret || webhookSecret.length < 16)) {
    problems.push('REBUILD_WEBHOOK_SECRET must be set (16 characters or more) when REBUILD_WEBHOOK_URL is set');
  }
  const statusUrl = url('REBUILD_STATUS_URL', ['http:', 'https:']);
  if (statusUrl && !webhookUrl) problems.push('REBUILD_STATUS_URL needs REBUILD_WEBHOOK_URL (and its secret) as well');
  const quietMs = int('PUBLISH_QUIET_MS', 300, 0, 3_600_000);
  const maxWaitMs = int('PUBLISH_MAX_WAIT_MS', 15_000, 0, 3_600_000);
  if (maxWaitMs < quietMs) problems.push(`PUBLISH_MAX_WAIT_MS must not be shorter than PUBLISH_QUIET_MS (${quietMs})`);
  const retryBaseMs = int('PUBLISH_RETRY_BASE_MS', 1000, 1, 3_600_000);
  const retryMaxMs = int('PUBLISH_RETRY_MAX_MS', 300_000, 1, 86_400_000);
  if (retryMaxMs < retryBaseMs) problems.push(`PUBLISH_RETRY_MAX_MS must not be shorter than PUBLISH_RETRY_BASE_MS (${retryBaseMs})`);

  const twoFactorKey = str('TWO_FACTOR_KEY') ?? null;
  if (twoFactorKey !== null && twoFactorKey.length < 32)
    problems.push('TWO_FACTOR_KEY must be at least 32 characters (e.g. openssl rand -hex 32)');

  const siteDefaults = readSiteDefaults(reader, publicUrl);

  const config: AppConfig = {
    port,
    host,
    varDir,
    siteDir: path.join(varDir, 'site', 'live'),
    adminUiDir: path.resolve(cwd, str('ADMIN_UI_DIR') ?? path.join(REPO_ROOT, 'admin-ui', 'dist')),
    database,
    admin,
    seedDemo: bool('SEED_DEMO', true),
    sessionTtlHours: int('SESSION_TTL_HOURS', 24 * 7, 1, 24 * 90),
    publicUrl: publicUrl.replace(/\/+$/, ''),
    mail: {
      smtpUrl,
      from: str('MAIL_FROM') ?? `Portfolio <no-reply@${new URL(publicUrl).hostname}>`,
      fromIsDefault: str('MAIL_FROM') === undefined,
      timeoutMs: int('MAIL_TIMEOUT_MS', 20_000, 100, 600_000),
    },
    newsletter: {
      ratePerMinute: int('NEWSLETTER_RATE_PER_MINUTE', 120, 1, 600_000),
      concurrency: int('NEWSLETTER_CONCURRENCY', 4, 1, 100),
    },
    uploadMaxMb: int('UPLOAD_MAX_MB', 25, 1, 200),
    storage: readStorageConfig(reader, varDir),
    databaseWaitSeconds: int('DATABASE_WAIT_SECONDS', 60, 0, 3600),
    rebuildWebhook: { url: webhookUrl, secret: webhookSecret, statusUrl },
    publishing: {
      quietMs,
      maxWaitMs,
      retryBaseMs,
      retryMaxMs,
      requestTimeoutMs: int('PUBLISH_TIMEOUT_MS', 10_000, 100, 600_000),
      pollMs: int('PUBLISH_POLL_MS', 10_000, 100, 3_600_000),
    },
    trustProxy: trustedProxies(str('TRUST_PROXY'), problems),
    logRequests: bool('LOG_REQUESTS', true),
    logFormat: reader.oneOf('LOG_FORMAT', 'text', ['text', 'json'] as const),
    imageVariants: { claimMs: int('IMAGE_VARIANT_CLAIM_MS', 120_000, 1000, 3_600_000) },
    shutdownTimeoutMs: int('SHUTDOWN_TIMEOUT_MS', 10_000, 0, 600_000),
    metrics: {
      port: str('METRICS_PORT') === undefined ? null : int('METRICS_PORT', 9464, 0, 65_535),
      host: str('METRICS_HOST') ?? '127.0.0.1',
    },
    twoFactor: { key: twoFactorKey, keyFile: path.join(varDir, 'secrets', 'two-factor.key') },
    backup: {
      dir: path.resolve(cwd, str('BACKUP_DIR') ?? path.join(varDir, 'backups')),
      ...backupEvery(str('BACKUP_EVERY'), problems),
      keep: int('BACKUP_KEEP', 7, 1, 10_000),
    },
    revisions: { keep: int('REVISIONS_KEEP', 0, 0, 1_000_000) },
    siteDefaults,
    imports: readImports(reader, varDir),
  };
  if (problems.length) throw new ConfigError(problems);
  return config;
}

/** IMPORT_*: the limits an imported export and its images must stay within. */
function readImports(reader: EnvReader, varDir: string): AppConfig['imports'] {
  const int = (name: string, fallback: number, min: number, max: number) => reader.int(name, fallback, min, max);
  return {
    dir: path.join(varDir, 'imports'),
    maxFileBytes: int('IMPORT_MAX_MB', 200, 1, 4096) * MB,
    maxUncompressedBytes: int('IMPORT_MAX_UNCOMPRESSED_MB', 1024, 1, 16_384) * MB,
    maxEntries: int('IMPORT_MAX_ENTRIES', 20_000, 1, 1_000_000),
    maxItems: int('IMPORT_MAX_ITEMS', 5000, 1, 100_000),
    maxTextBytes: int('IMPORT_TEXT_MAX_MB', 100, 1, 4096) * MB,
    maxImageBytes: int('IMPORT_IMAGE_MAX_MB', 25, 1, 200) * MB,
    imageTimeoutMs: int('IMPORT_IMAGE_TIMEOUT_MS', 20_000, 100, 600_000),
  };
}

/** DATABASE_URL, or DATABASE_HOST and its companions, or the SQLite file under VAR_DIR. */
function readDatabase(reader: EnvReader, varDir: string): AppConfig['database'] {
  const { problems } = reader;
  const str = (name: string) => reader.str(name);
  let database: AppConfig['database'] = { kind: 'sqlite', file: path.join(varDir, 'data', 'portfolio.sqlite') };
  const dbUrl = reader.url('DATABASE_URL', ['mysql:', 'mariadb:']);
  const dbHost = str('DATABASE_HOST');
  const dbParts = ['DATABASE_PORT', 'DATABASE_USER', 'DATABASE_PASSWORD', 'DATABASE_NAME'].filter((n) => str(n) !== undefined);
  if (dbUrl && (dbHost || dbParts.length)) {
    problems.push(
      `DATABASE_URL and ${[dbHost ? 'DATABASE_HOST' : null, ...dbParts].filter(Boolean).join(', ')} are both set; use either the URL or the separate variables`,
    );
  } else if (dbUrl) {
    const u = new URL(dbUrl);
    const name = decodeURIComponent(u.pathname.replace(/^\//, ''));
    if (!name) problems.push('DATABASE_URL must name a database, e.g. mysql://user:pass@host:3306/portfolio');
    else {
      database = {
        kind: 'mysql',
        host: u.hostname.replace(/^\[|\]$/g, ''),
        port: u.port ? Number(u.port) : 3306,
        user: decodeURIComponent(u.username),
        password: decodeURIComponent(u.password),
        database: name,
      };
    }
  } else if (dbHost || dbParts.length) {
    const missing = ['DATABASE_USER', 'DATABASE_NAME'].filter((n) => str(n) === undefined);
    if (!dbHost) missing.unshift('DATABASE_HOST');
    if (missing.length) problems.push(`${missing.join(', ')} must be set too when the database is given by separate variables`);
    const dbPort = reader.int('DATABASE_PORT', 3306, 1, 65535);
    if (!missing.length) {
      database = {
        kind: 'mysql',
        host: dbHost!,
        port: dbPort,
        user: str('DATABASE_USER')!,
        // A password is used exactly as given: no trimming, no URL decoding.
        password: reader.raw('DATABASE_PASSWORD') ?? '',
        database: str('DATABASE_NAME')!,
      };
    }
  }
  return database;
}

/** The first admin, made on the first start (ADMIN_USERNAME, ADMIN_PASSWORD, ADMIN_EMAIL). */
function readAdmin(reader: EnvReader): AppConfig['admin'] {
  const { problems } = reader;
  const str = (name: string) => reader.str(name);
  const username = str('ADMIN_USERNAME') ?? 'admin';
  if (!/^[A-Za-z0-9._-]{3,50}$/.test(username)) {
    problems.push('ADMIN_USERNAME must be 3 to 50 letters, digits, dots, dashes or underscores');
  }
  const password = str('ADMIN_PASSWORD') ?? null;
  if (password !== null && password.length < 6) problems.push('ADMIN_PASSWORD must be at least 6 characters');
  const email = str('ADMIN_EMAIL') ?? `${username}@example.invalid`;
  if (!isEmailAddress(email)) problems.push('ADMIN_EMAIL must be an e-mail address');
  return { username, password, email };
}

/** The first-start values of the site settings: SITE_* variables (the names the site's build once read) over the placeholders. */
function readSiteDefaults(reader: EnvReader, publicUrl: string): AppConfig['siteDefaults'] {
  const p = SETTINGS_PLACEHOLDERS;
  const web = (name: string) => reader.url(name, ['http:', 'https:']);
  const contactEmail = reader.str('SITE_CONTACT_EMAIL') ?? p.contactEmail;
  if (!isEmailAddress(contactEmail)) reader.problems.push('SITE_CONTACT_EMAIL must be an e-mail address');
  const social: Record<string, string | null> = {
    Instagram: web('SITE_INSTAGRAM_URL'),
    Facebook: web('SITE_FACEBOOK_URL'),
    Twitter: web('SITE_TWITTER_URL'),
  };
  return {
    ...p,
    authorNameEn: reader.str('SITE_AUTHOR_NAME') ?? p.authorNameEn,
    authorNameAr: reader.str('SITE_AUTHOR_NAME_AR') ?? p.authorNameAr,
    contactEmail,
    socialLinks: p.socialLinks.map((link) => ({ label: link.label, url: social[link.label] ?? link.url })),
    footerCreditName: reader.str('SITE_POWERED_BY_NAME') ?? p.footerCreditName,
    footerCreditUrl: web('SITE_POWERED_BY_URL') ?? p.footerCreditUrl,
    siteUrl: (web('SITE_URL') ?? publicUrl).replace(/\/+$/, ''),
  };
}

const MB = 1024 * 1024;

const DURATION_UNITS_MS = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/**
 * BACKUP_EVERY: `24h` by default, so an install nobody configured still keeps a week of daily
 * archives; `off` turns scheduled backups off. A number with s, m, h or d.
 */
function backupEvery(raw: string | undefined, problems: string[]): { every: string | null; everyMs: number | null } {
  const value = (raw ?? '24h').trim().toLowerCase();
  if (['off', 'false', 'no', 'none', '0'].includes(value)) return { every: null, everyMs: null };
  const match = /^(\d+)\s*(s|m|h|d)$/.exec(value);
  const ms = match ? Number(match[1]) * DURATION_UNITS_MS[match[2] as keyof typeof DURATION_UNITS_MS] : 0;
  if (!match || ms < 1000 || ms > 366 * 86_400_000) {
    problems.push(`BACKUP_EVERY must be a duration such as 24h, 6h, 30m or 7d (at most 366d), or off (got "${raw}")`);
    return { every: null, everyMs: null };
  }
  return { every: `${match[1]}${match[2]}`, everyMs: ms };
}

function trustedProxies(raw: string | undefined, problems: string[]): AppConfig['trustProxy'] {
  if (raw === undefined || ['false', '0', 'no', 'off', 'none'].includes(raw.toLowerCase())) return false;
  if (/^\d+$/.test(raw)) {
    const hops = Number(raw);
    if (hops <= 10) return hops;
  } else if (raw.toLowerCase() !== 'true') {
    const list = raw
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean);
    const valid = (entry: string) => {
      const [address, bits, ...rest] = entry.split('/');
      const family = isIP(address);
      if (!family || rest.length) return false;
      if (bits === undefined) return true;
      // A /0 range is every address: the same as TRUST_PROXY=true (and Express refuses it).
      return /^\d+$/.test(bits) && Number(bits) >= 1 && Number(bits) <= (family === 4 ? 32 : 128);
    };
    const bad = list.filter((entry) => !valid(entry));
    if (list.length && !bad.length) return list;
    if (bad.some((entry) => /\/0+$/.test(entry))) {
      problems.push(
        `TRUST_PROXY: ${bad.join(', ')} is every address, which would believe any X-Forwarded-For a client sends; list the proxies' own addresses or ranges (e.g. 10.0.0.0/8)`,
      );
      return false;
    }
    problems.push(
      `TRUST_PROXY must be the number of proxies in front of the API (e.g. 1 behind one nginx) or their addresses/CIDR ranges (e.g. 10.0.0.0/8); not valid: ${bad.join(', ') || raw}`,
    );
    return false;
  }
  if (raw.toLowerCase() === 'true') {
    problems.push(
      'TRUST_PROXY=true would believe any X-Forwarded-For a client sends; set the number of proxies in front of the API instead (e.g. TRUST_PROXY=1 behind one nginx) or their addresses',
    );
  } else {
    problems.push(`TRUST_PROXY must be a number of proxy hops from 0 to 10 (got "${raw}")`);
  }
  return false;
}

export const APP_CONFIG = Symbol('APP_CONFIG');
