// The builder's configuration: every variable validated at start, every bad one reported at once
// (with the same readers as admin-api/src/config/config.ts, from @portfolio/contract/env).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { EnvReader } from '@portfolio/contract/env';

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
  const reader = new EnvReader(env, { cwd, fileVariables: ['REBUILD_WEBHOOK_SECRET'] });
  const { problems } = reader;
  const str = (name) => reader.str(name);
  const int = (name, fallback, min, max) => reader.int(name, fallback, min, max);
  const oneOf = (name, fallback, allowed) => reader.oneOf(name, fallback, allowed);

  const secret = str('REBUILD_WEBHOOK_SECRET');
  if (!secret || secret.length < 16) {
    if (!problems.some((p) => p.startsWith('REBUILD_WEBHOOK_SECRET'))) problems.push('REBUILD_WEBHOOK_SECRET must be set (16 characters or more), or REBUILD_WEBHOOK_SECRET_FILE name a file holding it');
  }
  const apiUrl = (str('SITE_API_URL') ?? 'http://127.0.0.1:3000').replace(/\/+$/, '');
  try {
    if (!['http:', 'https:'].includes(new URL(apiUrl).protocol)) throw new Error();
  } catch {
    problems.push('SITE_API_URL must be an http:// or https:// URL (the API the site build reads from)');
  }
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
    /** The renderer process's JavaScript heap limit. */
    rendererMaxMemoryMb: int('RENDERER_MAX_MEMORY_MB', 512, 64, 16384),
    /** The environment the site's code is built and rendered with (SITE_URL …; part of its fingerprint). The author's details are the site settings, read from the API. */
    siteEnv: Object.fromEntries(Object.entries(env).filter(([name]) => !name.startsWith('REBUILD_WEBHOOK_SECRET'))),
    /** Successful builds kept on disk (the live one included), for rollback. */
    keepBuilds: int('KEEP_BUILDS', 5, 1, 100),
    /** Build at start: when no live site exists (default), always, or never. */
    buildOnStart: oneOf('BUILD_ON_START', 'missing', ['missing', 'always', 'never']),
    /** How long a build waits for the API to answer /api/health before giving up (0: do not wait). */
    apiWaitMs: int('BUILD_API_WAIT_MS', 120_000, 0, 3600_000),
    logTailLines: int('BUILD_LOG_TAIL_LINES', 30, 1, 1000),
    /** Automatic new tries after a failed build (a passing glitch: the API restarting, a full disk freed). */
    buildRetries: int('BUILD_RETRIES', 2, 0, 10),
    /** Wait before the first new try; doubles for each further one. */
    buildRetryDelayMs: int('BUILD_RETRY_DELAY_MS', 15_000, 10, 3600_000),
  };
  if (problems.length) throw new BuilderConfigError(problems);
  return config;
}
