// `npm run build -w site`, second step: the full static export through the renderer that
// `astro build` (first step, SITE_RENDER_ONLY=1) has just built. A separate process, so the export
// does not run beside the memory Astro's build still holds.
import { exportFromEnv } from './export-from-env.mjs';

try {
  const { routes, outDir, durationMs } = await exportFromEnv();
  console.log(`${routes} routes exported to ${outDir} in ${(durationMs / 1000).toFixed(1)} s`);
} catch (error) {
  console.error(error?.message ?? error);
  process.exitCode = 1;
}
