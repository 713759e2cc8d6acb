// @ts-check
import { fileURLToPath } from 'node:url';

import react from '@astrojs/react';
import { defineConfig } from 'astro/config';

import rendererAdapter from './render/adapter.mjs';
import exportSite from './render/export-integration.mjs';
import { memoizedIslands } from './render/islands-memo.mjs';

/**
 * `client:focus` (src/lib/search/client-focus.ts): an island that loads when focus enters it.
 * @returns {import('astro').AstroIntegration}
 */
const clientFocus = () => ({
  name: 'portfolio:client-focus',
  hooks: {
    'astro:config:setup': ({ addClientDirective }) =>
      addClientDirective({ name: 'focus', entrypoint: fileURLToPath(new URL('./src/lib/search/client-focus.ts', import.meta.url)) }),
  },
});

// The site is built once per code version as a server bundle (the renderer, in SITE_RENDERER_DIR)
// and published as plain static files rendered through it (render/renderer.mjs): a full export
// after `astro build` (into SITE_OUT_DIR), or only the routes an edit touches (the builder).
// Content is read from the API (SITE_API_URL) when a route is rendered, not when the code is built.
export default defineConfig({
  site: process.env.SITE_URL ?? 'http://localhost:3000',
  output: 'server',
  // The renderer's own adapter (render/adapter.mjs): pages rendered in-process, whole, not streamed.
  adapter: rendererAdapter(),
  outDir: process.env.SITE_RENDERER_DIR ?? './dist-renderer',
  trailingSlash: 'never',
  build: { format: 'file', inlineStylesheets: 'never' },
  // Islands rendered with React's renderToString, not its stream: the same bytes for every page at
  // 4,000 books, and a book's page in 0.8 of the time. (It passes React no identifierPrefix, so an
  // island must not call useId; none does.)
  // Each island is rendered once per distinct props (render/islands-memo.mjs): the header's are the same on every page.
  integrations: [memoizedIslands(react({ experimentalDisableStreaming: true })), exportSite(), clientFocus()],
  devToolbar: { enabled: false },
  prefetch: false,
});
