// `astro build` builds the renderer (the server bundle, into SITE_RENDERER_DIR) and then exports the
// whole site through it into SITE_OUT_DIR as plain static files, as the static build did before:
// `npm run build -w site`, the builder's default BUILD_COMMAND, the browser tests and static hosts
// with a build hook all get a complete site folder. SITE_DEPS_FILE, when set, receives what each
// route read. buildRenderer() sets SITE_RENDER_ONLY=1: the bundle only, no export.
import { readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { exportSite } from './renderer.mjs';

/** @returns {import('astro').AstroIntegration} */
export default function exportAfterBuild() {
  let root = '';
  let rendererDir = '';
  return {
    name: 'portfolio:export-site',
    hooks: {
      'astro:config:done': ({ config }) => {
        root = fileURLToPath(config.root);
        rendererDir = fileURLToPath(config.outDir);
      },
      'astro:build:done': async ({ logger }) => {
        if (process.env.SITE_RENDER_ONLY === '1') return;
        const outDir = path.resolve(root, process.env.SITE_OUT_DIR ?? 'dist');
        const started = Date.now();
        // As Astro's static build did: the output folder holds this build only.
        await emptyFolder(outDir);
        const result = await exportSite({
          rendererDir,
          outDir,
          apiUrl: process.env.SITE_API_URL ?? 'http://127.0.0.1:3000',
          cacheDir: path.resolve(root, process.env.SITE_CACHE_DIR ?? 'node_modules/.astro'),
          log: (line) => logger.info(line),
        });
        if (process.env.SITE_DEPS_FILE) await writeFile(path.resolve(root, process.env.SITE_DEPS_FILE), `${JSON.stringify(result.deps, null, 1)}\n`);
        logger.info(`${result.routes} routes exported to ${outDir} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      },
    },
  };
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
