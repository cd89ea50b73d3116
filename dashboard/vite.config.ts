import { fileURLToPath } from 'node:url'
import preact from '@preact/preset-vite'
import { defineConfig } from 'vite'

const root = fileURLToPath(new URL('.', import.meta.url))

/**
 * The dashboard build (tools/build-dashboard.ts runs it): a static SPA in `dashboard/dist`, the worker's
 * `[assets]` directory. The worker serves it under a CSP without 'unsafe-inline' scripts, so nothing may be
 * inlined as a script: the module-preload polyfill (an inline script in some modes) is off.
 */
export default defineConfig({
  root,
  base: '/',
  publicDir: 'public',
  plugins: [preact({ devtoolsInProd: false, prefreshEnabled: false })],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsDir: 'assets',
    target: 'es2022',
    sourcemap: false,
    modulePreload: { polyfill: false },
    // Inlined assets become data: URLs; fonts/images stay files so nothing depends on the img-src data: rule.
    assetsInlineLimit: 0,
    reportCompressedSize: false,
    chunkSizeWarningLimit: 400,
  },
  logLevel: 'warn',
})
