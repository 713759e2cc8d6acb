// `node infra/builder/build-renderer.mjs <folder>`: builds the site's code into a renderer folder
// (buildRenderer of @portfolio/site). A child process of the builder, so that a build that runs too
// long can be stopped with its whole process group, and its memory stays out of the builder's.
import { buildRenderer } from '@portfolio/site/render/renderer.mjs';

const outDir = process.argv[2];
if (!outDir) {
  console.error('usage: build-renderer.mjs <folder>');
  process.exit(2);
}
try {
  const { durationMs } = await buildRenderer({ outDir, env: process.env, logTailLines: 40 });
  console.log(`renderer built in ${(durationMs / 1000).toFixed(1)} s`);
} catch (error) {
  console.error(error?.message ?? error);
  process.exitCode = 1;
}
