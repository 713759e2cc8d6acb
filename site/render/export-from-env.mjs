// The full export of `npm run build -w site` and of a plain `astro build`, configured as the static
// build was: SITE_API_URL, SITE_OUT_DIR (default dist), SITE_CACHE_DIR (default node_modules/.astro),
// SITE_RENDERER_DIR (default dist-renderer), and SITE_DEPS_FILE, which receives what each route read.
import { readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

import { exportSite, SITE_DIR } from './renderer.mjs';

/**
 * Empties SITE_OUT_DIR (as Astro's static build did: the folder holds this build only) and exports
 * the whole site into it through the renderer in SITE_RENDERER_DIR.
 *
 * @param {object} [options]
 * @param {string} [options.rendererDir]  default SITE_RENDERER_DIR or site/dist-renderer
 * @param {(line: string) => void} [options.log]
 * @returns {Promise<{ routes: number, outDir: string, durationMs: number }>}
 */
export async function exportFromEnv({ rendererDir, log = (line) => console.log(line) } = {}) {
  const env = process.env;
  const at = (value, fallback) => path.resolve(SITE_DIR, value ?? fallback);
  const outDir = at(env.SITE_OUT_DIR, 'dist');
  const started = Date.now();
  await emptyFolder(outDir);
  const result = await exportSite({
    rendererDir: rendererDir ?? at(env.SITE_RENDERER_DIR, 'dist-renderer'),
    outDir,
    apiUrl: env.SITE_API_URL ?? 'http://127.0.0.1:3000',
    cacheDir: at(env.SITE_CACHE_DIR, 'node_modules/.astro'),
    log,
  });
  if (env.SITE_DEPS_FILE) await writeFile(at(env.SITE_DEPS_FILE), `${JSON.stringify(result.deps, null, 1)}\n`);
  return { routes: result.routes, outDir, durationMs: Date.now() - started };
}

async function emptyFolder(dir) {
  let names;
  try {
    names = await readdir(dir);
  } catch {
    return;
  }
  for (const name of names) if (name !== '.git') await rm(path.join(dir, name), { recursive: true, force: true });
}
