// @ts-check
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@astrojs/react';
import { defineConfig } from 'astro/config';

// Content is read at build time from the API (SITE_API_URL); the builder sets SITE_OUT_DIR to a
// fresh folder per build and SITE_CACHE_DIR to a folder kept between builds (optimised images).
const apiUrl = new URL(process.env.SITE_API_URL ?? 'http://127.0.0.1:3000');
const cacheDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), process.env.SITE_CACHE_DIR ?? './node_modules/.astro');

export default defineConfig({
  site: process.env.SITE_URL ?? 'http://localhost:3000',
  output: 'static',
  outDir: process.env.SITE_OUT_DIR ?? './dist',
  cacheDir,
  trailingSlash: 'never',
  build: { format: 'file', inlineStylesheets: 'never', concurrency: 4 },
  integrations: [react()],
  image: {
    remotePatterns: [{ protocol: apiUrl.protocol.replace(':', ''), hostname: apiUrl.hostname, port: apiUrl.port || undefined }],
  },
  // Where Astro keeps optimised images: image variants already there need no download (lib/image-variants.ts).
  vite: { define: { __SITE_IMAGE_CACHE__: JSON.stringify(path.join(cacheDir, 'assets')) } },
  devToolbar: { enabled: false },
  prefetch: false,
});
