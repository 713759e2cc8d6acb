import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

export default defineConfig(({ command }) => ({
  plugins: [react()],
  // Library mode leaves process.env alone for the library's users; this bundle is the final program.
  define: command === 'build' ? { 'process.env.NODE_ENV': JSON.stringify('production') } : {},
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    minify: true,
    lib: {
      entry: 'src/admin-overlay.tsx',
      formats: ['es'],
      fileName: () => 'admin-overlay.js',
    },
    // Library mode keeps whitespace in ES output for the library's users to tree-shake; nobody
    // bundles this file again, so it is minified fully.
    rolldownOptions: { output: { minify: true } },
  },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.spec.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
    restoreMocks: true,
    // The overlay injects its own stylesheet; tests check that it gets there.
    css: { include: [/admin-overlay\.css/] },
  },
}));
