// The renderer's own Astro adapter. Its server bundle (server/entry.mjs, from render/server-entry.mjs)
// exports `render(path, headers, locals)`: the renderer process (render/worker.mjs) calls Astro's
// app in-process, with a web Request per page, instead of through a loopback HTTP server and a Node
// request and response (which took 1.6 times the CPU for the same bytes, measured at 16,059 routes).
import { fileURLToPath } from 'node:url';

/** @returns {import('astro').AstroIntegration} */
export default function rendererAdapter() {
  return {
    name: 'portfolio:renderer',
    hooks: {
      'astro:config:done': ({ setAdapter }) =>
        setAdapter({
          name: 'portfolio:renderer',
          entrypointResolution: 'auto',
          serverEntrypoint: fileURLToPath(new URL('./server-entry.mjs', import.meta.url)),
          adapterFeatures: { buildOutput: 'server' },
          supportedAstroFeatures: { serverOutput: 'stable', staticOutput: 'stable', hybridOutput: 'stable' },
        }),
    },
  };
}
