// The builder's configuration: every variable validated at start, every bad one reported at once
// (with the same readers as admin-api/src/config/config.ts, from @portfolio/contract/env).
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { EnvReader } from '@portfolio/contract/env';

import { parseDeployUrl } from './s3-target.mjs';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export class BuilderConfigError extends Error {
  constructor(problems) {
    super(`Invalid builder configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'BuilderConfigError';
    this.problems = problems;
  }
}

export function loadBuilderConfig(env = process.env, cwd = process.cwd()) {
  // Secrets may come from a file (Docker/Kubernetes secrets), as in admin-api.
  const reader = new EnvReader(env, { cwd, fileVariables: ['REBUILD_WEBHOOK_SECRET', ...DEPLOY_SECRETS] });
  const { problems } = reader;
  const str = (name) => reader.str(name);
  const int = (name, fallback, min, max) => reader.int(name, fallback, min, max);
  const oneOf = (name, fallback, allowed) => reader.oneOf(name, fallback, allowed);

  const secret = str('REBUILD_WEBHOOK_SECRET');
  if (!secret || secret.length < 16) {
    if (!problems.some((p) => p.startsWith('REBUILD_WEBHOOK_SECRET')))
      problems.push('REBUILD_WEBHOOK_SECRET must be set (16 characters or more), or REBUILD_WEBHOOK_SECRET_FILE name a file holding it');
  }
  // The API the site is rendered from.
  const apiUrl = (reader.url('SITE_API_URL', ['http:', 'https:']) ?? 'http://127.0.0.1:3000').replace(/\/+$/, '');
  const varDir = path.resolve(cwd, str('VAR_DIR') ?? './var');
  const siteRoot = path.join(varDir, 'site');

  const config = {
    host: str('BUILDER_HOST') ?? '127.0.0.1',
    port: int('BUILDER_PORT', 3001, 0, 65535),
    secret,
    apiUrl,
    varDir,
    siteRoot,
    buildsDir: path.join(siteRoot, 'builds'),
    /** Kept between builds: the site's optimised images and other build caches (SITE_CACHE_DIR). */
    cacheDir: path.join(siteRoot, 'cache'),
    /** The symlink that nginx and admin-api serve; switched by rename, never edited in place. */
    liveLink: path.join(siteRoot, 'live'),
    /**
     * Command mode: a command that builds the whole site into SITE_OUT_DIR on every publish (a static
     * host's build hook, the tests' stand-in). Unset (the default): renderer mode, where the site's
     * code is built once per code version and an edit re-renders only the pages it touches.
     */
    buildCommand: str('BUILD_COMMAND') ?? null,
    buildCwd: path.resolve(cwd, str('BUILD_CWD') ?? REPO_ROOT),
    /** A whole publish (or, in command mode, build) that takes longer is stopped and fails. */
    buildTimeoutMs: int('BUILD_TIMEOUT_MS', 15 * 60 * 1000, 1000, 24 * 3600 * 1000),
    /** Renderer mode: one code version of the site per folder (`renderers/<fingerprint>/`). */
    renderersDir: path.join(siteRoot, 'renderers'),
    /** Renderer versions kept on disk (the current one included). */
    keepRenderers: 2,
    /** One page render (or the route listing) that takes longer fails its publish. */
    renderTimeoutMs: int('RENDER_TIMEOUT_MS', 60_000, 100, 3600_000),
    /** Pages rendered at once. */
    renderConcurrency: int('RENDER_CONCURRENCY', 8, 1, 64),
    /** Renderer processes sharing a publish's pages: one per core a full publish can use. */
    renderWorkers: int('RENDER_WORKERS', 2, 1, 16),
    /** The renderer process's JavaScript heap limit. */
    rendererMaxMemoryMb: int('RENDERER_MAX_MEMORY_MB', 512, 64, 16384),
    /** The environment the site's code is built and rendered with (SITE_URL …; part of its fingerprint). The author's details are the site settings, read from the API. */
    siteEnv: Object.fromEntries(Object.entries(env).filter(([name]) => !isSecretName(name))),
    /** Successful builds kept on disk (the live one included), for rollback. */
    keepBuilds: int('KEEP_BUILDS', 5, 1, 100),
    /** Build at start: when no live site exists (default), always, or never. */
    buildOnStart: oneOf('BUILD_ON_START', 'missing', ['missing', 'always', 'never']),
    /** How long a build waits for the API to answer /api/health before giving up (0: do not wait). */
    apiWaitMs: int('BUILD_API_WAIT_MS', 120_000, 0, 3600_000),
    logTailLines: int('BUILD_LOG_TAIL_LINES', 30, 1, 1000),
    /** LOG_FORMAT: 'text' (`[builder] …` lines) or 'json' (one object per line, as the API writes them). */
    logFormat: oneOf('LOG_FORMAT', 'text', ['text', 'json']),
    /** Automatic new tries after a failed build (a passing glitch: the API restarting, a full disk freed). */
    buildRetries: int('BUILD_RETRIES', 2, 0, 10),
    /** Wait before the first new try; doubles for each further one. */
    buildRetryDelayMs: int('BUILD_RETRY_DELAY_MS', 15_000, 10, 3600_000),
    /** Deploy to an S3-compatible bucket after each publish (DEPLOY_S3_URL); null: off (the default). */
    deploy: readDeploy(reader, env, secret),
  };
  if (problems.length) throw new BuilderConfigError(problems);
  return config;
}

/** Secrets the site's build and renderer never see (they may come from NAME_FILE). */
const DEPLOY_SECRETS = ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN', 'PURGE_SECRET', 'CLOUDFLARE_API_TOKEN'];
export const isSecretName = (name) =>
  name.startsWith('REBUILD_WEBHOOK_SECRET') || DEPLOY_SECRETS.some((s) => name === s || name === `${s}_FILE`);

function readDeploy(reader, env, webhookSecret) {
  const { problems } = reader;
  const url = reader.str('DEPLOY_S3_URL');
  const purgeOnly = ['PURGE_URL', 'CLOUDFLARE_ZONE_ID', 'CLOUDFRONT_DISTRIBUTION_ID'].filter((n) => reader.str(n));
  if (!url) {
    if (purgeOnly.length)
      problems.push(
        `${purgeOnly.join(', ')} set without DEPLOY_S3_URL: the CDN is purged after a deploy to a bucket; set DEPLOY_S3_URL too, or unset ${purgeOnly.length > 1 ? 'them' : 'it'}`,
      );
    return null;
  }
  let target = null;
  try {
    target = parseDeployUrl(url);
  } catch (error) {
    problems.push(`DEPLOY_S3_URL ${error.message}`);
  }
  const accessKeyId = reader.str('AWS_ACCESS_KEY_ID');
  const secretAccessKey = reader.str('AWS_SECRET_ACCESS_KEY');
  if (Boolean(accessKeyId) !== Boolean(secretAccessKey))
    problems.push(
      "AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY must be set together (or both left unset to use the SDK's own credential chain: an instance role, ~/.aws)",
    );
  const credentials =
    accessKeyId && secretAccessKey
      ? { accessKeyId, secretAccessKey, ...(reader.str('AWS_SESSION_TOKEN') ? { sessionToken: reader.str('AWS_SESSION_TOKEN') } : {}) }
      : null;
  const purgeUrl = reader.str('PURGE_URL') ?? null;
  if (purgeUrl) {
    try {
      if (!['http:', 'https:'].includes(new URL(purgeUrl).protocol)) throw new Error();
    } catch {
      problems.push('PURGE_URL must be an http:// or https:// URL (the purge hook the builder POSTs the changed addresses to)');
    }
  }
  const purgeSecret = reader.str('PURGE_SECRET') ?? webhookSecret;
  if (purgeUrl && reader.str('PURGE_SECRET') && purgeSecret.length < 16)
    problems.push("PURGE_SECRET must be 16 characters or more (unset: the rebuild webhook's secret signs purge requests)");
  let cloudflare = null;
  const zoneId = reader.str('CLOUDFLARE_ZONE_ID');
  if (zoneId) {
    const token = reader.str('CLOUDFLARE_API_TOKEN');
    const siteUrl = reader.str('SITE_URL');
    if (!token)
      problems.push(
        'CLOUDFLARE_ZONE_ID is set but CLOUDFLARE_API_TOKEN (or CLOUDFLARE_API_TOKEN_FILE) is not: a token with the Zone.Cache Purge permission',
      );
    if (!siteUrl || !/^https?:\/\//.test(siteUrl))
      problems.push(
        "CLOUDFLARE_ZONE_ID is set but SITE_URL is not an http(s):// URL: Cloudflare purges whole URLs (the site's public address + each path)",
      );
    cloudflare = {
      zoneId,
      token,
      siteUrl,
      apiUrl: (reader.str('CLOUDFLARE_API_URL') ?? 'https://api.cloudflare.com/client/v4').replace(/\/+$/, ''),
    };
  }
  let cloudfront = null;
  const distributionId = reader.str('CLOUDFRONT_DISTRIBUTION_ID');
  if (distributionId)
    cloudfront = { distributionId, endpoint: reader.str('CLOUDFRONT_ENDPOINT') ?? null, region: 'us-east-1', credentials };
  return {
    ...(target ?? {}),
    credentials,
    concurrency: reader.int('DEPLOY_CONCURRENCY', 8, 1, 64),
    retries: reader.int('DEPLOY_RETRIES', 5, 0, 100),
    retryDelayMs: reader.int('DEPLOY_RETRY_DELAY_MS', 10_000, 10, 3600_000),
    purgeUrl,
    purgeSecret,
    cloudflare,
    cloudfront,
  };
}
