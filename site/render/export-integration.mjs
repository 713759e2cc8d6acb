// A plain `astro build` builds the renderer (the server bundle, into SITE_RENDERER_DIR) and then
// exports the whole site through it into SITE_OUT_DIR as plain static files, as the static build
// did, so whoever runs `astro build` directly (the browser tests, a static host's build hook) still
// gets a complete site folder. With SITE_RENDER_ONLY=1 it builds the bundle only: buildRenderer()
// and `npm run build -w site` (which exports in a second process, render/export.mjs) set it.
import { fileURLToPath } from 'node:url';

import { exportFromEnv } from './export-from-env.mjs';

/** @returns {import('astro').AstroIntegration} */
export default function exportAfterBuild() {
  let rendererDir = '';
  return {
    name: 'portfolio:export-site',
    hooks: {
      'astro:config:done': ({ config }) => {
        rendererDir = fileURLToPath(config.outDir);
      },
      'astro:build:done': async ({ logger }) => {
        if (process.env.SITE_RENDER_ONLY === '1') return;
        const { routes, outDir, durationMs } = await exportFromEnv({ rendererDir, log: (line) => logger.info(line) });
        logger.info(`${routes} routes exported to ${outDir} in ${(durationMs / 1000).toFixed(1)} s`);
      },
    },
  };
}
