// The site's renderer as the builder keeps it: the site's code built once per code version into
// `renderers/<fingerprint>/` (the newest two versions stay on disk), and one renderer process
// running for the current version, reused by every publish until the code changes or it fails.
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { codeFingerprint, startRenderer } from '@portfolio/site/render/renderer.mjs';

import { NODE_FLAGS } from '../node-flags.mjs';
import { killGroup, runCommand } from './processes.mjs';

const BUILD_SCRIPT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'build-renderer.mjs');

export class RendererHost {
  /**
   * @param {object} o
   * @param {string} o.dir  where renderer folders live ($VAR_DIR/site/renderers)
   * @param {string} o.apiUrl
   * @param {string} o.cacheDir  image variants, kept between publishes
   * @param {NodeJS.ProcessEnv} o.env  the site's environment (fingerprint, build and renderer)
   * @param {number} o.keep  renderer versions kept on disk
   * @param {number} o.renderTimeoutMs  one render (or route listing) longer than this fails
   * @param {number} o.maxMemoryMb  each renderer process's heap limit
   * @param {number} [o.workers]  renderer processes (RENDER_WORKERS)
   * @param {number} o.buildTimeoutMs
   * @param {number} o.logTailLines
   * @param {(line: string) => void} o.log
   */
  constructor(o) {
    this.o = o;
    /** @type {{ fingerprint: string, renderer: import('@portfolio/site/render/renderer.mjs').Renderer } | null} */
    this.running = null;
    this.buildChild = null;
    this.closed = false;
  }

  fingerprint() {
    return codeFingerprint({ env: this.o.env });
  }

  /**
   * The running renderer for the code as it is now: built first if this code version has none
   * (`built` then says how long that took), started if not running. `onLine` gets the renderer's
   * output lines while it runs; `fingerprintNow`, when given, is the code version just computed.
   */
  async ensure(onLine = () => {}, fingerprintNow = null) {
    if (this.closed) throw new Error('The builder is stopping.');
    const fingerprint = fingerprintNow ?? (await this.fingerprint());
    this.onLine = onLine;
    if (this.running?.fingerprint === fingerprint) return { fingerprint, renderer: this.running.renderer, built: null };
    await this.discard();
    const { dir } = this.o;
    await mkdir(dir, { recursive: true });
    const rendererDir = path.join(dir, fingerprint);
    const record = path.join(dir, `${fingerprint}.json`);
    let built = null;
    if (!existsSync(record) || !existsSync(path.join(rendererDir, 'server', 'entry.mjs'))) {
      built = await this.build(fingerprint, rendererDir, record);
    }
    await writeFile(
      record,
      JSON.stringify({
        fingerprint,
        builtAt: built?.at ?? (await readRecord(record))?.builtAt ?? null,
        buildMs: built?.durationMs ?? null,
        usedAt: new Date().toISOString(),
      }),
    );
    await this.prune(fingerprint).catch((error) => this.o.log(`could not remove old renderers: ${error.message}`));
    if (this.closed) throw new Error('The builder is stopping.');
    const renderer = await startRenderer({
      rendererDir,
      apiUrl: this.o.apiUrl,
      cacheDir: this.o.cacheDir,
      env: this.o.env,
      maxMemoryMb: this.o.maxMemoryMb,
      workers: this.o.workers ?? 1,
      nodeFlags: NODE_FLAGS.renderer,
      timeoutMs: this.o.renderTimeoutMs,
      log: (line) => this.onLine(line),
    });
    this.running = { fingerprint, renderer };
    return { fingerprint, renderer, built: built?.durationMs ?? null };
  }

  /** Builds the code into its folder; the record beside it (written after) says it is complete. */
  async build(fingerprint, rendererDir, record) {
    const { dir, env, buildTimeoutMs, logTailLines, log } = this.o;
    await rm(record, { force: true });
    const at = new Date();
    log(`building the renderer for code version ${fingerprint.slice(0, 12)}`);
    const result = await runCommand(process.execPath, {
      args: [BUILD_SCRIPT, rendererDir],
      cwd: path.dirname(BUILD_SCRIPT),
      env: { ...env, ASTRO_TELEMETRY_DISABLED: '1', NO_COLOR: '1', FORCE_COLOR: '0' },
      logFile: path.join(dir, `${fingerprint}.log`),
      timeoutMs: buildTimeoutMs,
      tailLines: logTailLines,
      onChild: (child) => (this.buildChild = child),
    });
    this.buildChild = null;
    if (result.exitCode !== 0) {
      await rm(rendererDir, { recursive: true, force: true });
      const why = result.timedOut
        ? `took longer than ${Math.round(buildTimeoutMs / 1000)} s and was stopped`
        : `failed (${result.signal ? `signal ${result.signal}` : `exit code ${result.exitCode}`})`;
      const error = new Error(`Building the site's code (the renderer) ${why}.`);
      error.tail = result.tail;
      throw error;
    }
    const durationMs = Date.now() - at;
    log(`renderer ${fingerprint.slice(0, 12)} built in ${(durationMs / 1000).toFixed(1)} s`);
    return { at: at.toISOString(), durationMs };
  }

  /** Keeps the current version and the most recently used others, up to `keep`; removes unfinished builds. */
  async prune(current) {
    const { dir, keep } = this.o;
    const entries = await readdir(dir, { withFileTypes: true });
    const records = [];
    for (const e of entries) {
      if (!e.isFile() || !e.name.endsWith('.json')) continue;
      const r = await readRecord(path.join(dir, e.name));
      records.push({ fingerprint: e.name.slice(0, -5), usedAt: r?.usedAt ?? '' });
    }
    records.sort((a, b) => (b.fingerprint === current) - (a.fingerprint === current) || b.usedAt.localeCompare(a.usedAt));
    const kept = new Set(records.slice(0, keep).map((r) => r.fingerprint));
    for (const e of entries) {
      const fingerprint = e.name.replace(/\.(json|log)$/, '');
      if (!kept.has(fingerprint)) await rm(path.join(dir, e.name), { recursive: true, force: true });
    }
  }

  /** Stops the renderer process (a failed publish may have left it hung or broken); the next ensure() starts a new one. */
  async discard() {
    const running = this.running;
    this.running = null;
    if (running) await running.renderer.stop().catch(() => {});
  }

  /** Stops a renderer build in progress (timeouts, stopping). */
  stopBuild() {
    if (this.buildChild) killGroup(this.buildChild, 'SIGTERM');
  }

  async close() {
    this.closed = true;
    this.stopBuild();
    await this.discard();
  }
}

async function readRecord(file) {
  try {
    return JSON.parse(await readFile(file, 'utf8'));
  } catch {
    return null;
  }
}
