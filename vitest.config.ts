import { cloudflareTest } from '@cloudflare/vitest-pool-workers'
import { defineConfig } from 'vitest/config'
import type { TestProjectInlineConfiguration } from 'vitest/config'
import { selectedDrivers, type DriverTarget } from './test/setup/driver-targets.ts'
import type {} from './test/setup/global-setup.ts' // the `provide`d context's types

/**
 * Three kinds of tests (see README "Tests"):
 * - `unit`: Node-side tests of pure modules, the drivers against real engines, and the local protocol servers.
 * - `api-<driver>`: the API parity suite (test/api) inside workerd, once per database driver.
 * - `deno-<driver>`: part of that suite against the Deno entry (test/deno), for libsql, neon and planetscale.
 * - `local`: the real worker under `wrangler dev` with its local Queue, D1 and R2 (test/local).
 * - `dashboard`: the built dashboard in headless Chromium against `wrangler dev` (test/e2e).
 * The global setup starts the local protocol servers for the selected drivers and `provide`s their URLs.
 */
const drivers = selectedDrivers()

/**
 * Inline projects do not inherit root test options; `extends: true` would also copy the global setup into
 * every project (starting the servers once per project), so the timeouts are spread into each instead.
 */
const TIMEOUTS = { testTimeout: 30_000, hookTimeout: 60_000 }

function apiProject(driver: DriverTarget): TestProjectInlineConfiguration {
  return {
    plugins: [
      cloudflareTest(({ inject }) => ({
        main: './worker/index.ts',
        wrangler: { configPath: './wrangler.toml' },
        miniflare: { bindings: { ...inject('driverBindings')[driver], LOUPE_TEST_DRIVER: driver, WEBHOOK_RECEIVER_URL: inject('webhookReceiverUrl'), LINEAR_SERVER_URL: inject('linearServerUrl'), GITHUB_SERVER_URL: inject('githubServerUrl'), NGINX_URL: inject('nginxUrl'), S3_URL: inject('s3Url') } },
      })),
    ],
    test: {
      ...TIMEOUTS,
      name: `api-${driver}`,
      include: ['test/api/**/*.test.ts'],
    },
  }
}

/**
 * The API files the Deno legs run (issue 11: conventions, tags, issues, upload/import, summary, and the
 * rest that need no queue batches or workerd internals: alerting, HTTP and Sentry ingest, sources, NUL bytes),
 * against the Deno entry under `deno serve`. (alert-scan's two in-process scan tests run in Node there.)
 */
export const DENO_API_FILES = [
  'test/api/spine.test.ts',
  'test/api/tags.test.ts',
  'test/api/issues.test.ts',
  'test/api/issue-search.test.ts',
  'test/api/triage.test.ts',
  'test/api/summary.test.ts',
  'test/api/ingestion.test.ts',
  'test/api/ingestion-background.test.ts',
  'test/api/alerts.test.ts',
  'test/api/alert-scan.test.ts',
  'test/api/ingest.test.ts',
  'test/api/ingest-settings.test.ts',
  'test/api/sentry-ingest.test.ts',
  'test/api/issues-ingested.test.ts',
  'test/api/nul-bytes.test.ts',
  'test/api/ingestion-formats.test.ts',
  'test/api/sources.test.ts',
  'test/api/merge-issues.test.ts',
  'test/api/issue-page.test.ts',
]

/**
 * `deno-<driver>`: the same API test files in Node, with `cloudflare:test` and the worker replaced by a
 * Deno server per file reached over HTTP (test/deno/). D1 exists only on Workers, so there is no deno-d1.
 */
function denoProject(driver: DriverTarget): TestProjectInlineConfiguration {
  return {
    resolve: {
      alias: [
        { find: /^cloudflare:test$/, replacement: new URL('./test/deno/cloudflare-test-shim.ts', import.meta.url).pathname },
        { find: /^(\.\.\/)+worker\/index\.ts$/, replacement: new URL('./test/deno/remote-worker.ts', import.meta.url).pathname },
      ],
    },
    test: { ...TIMEOUTS, name: `deno-${driver}`, include: DENO_API_FILES, environment: 'node', env: { LOUPE_TEST_DRIVER: driver } },
  }
}

export default defineConfig({
  test: {
    globalSetup: ['test/setup/global-setup.ts'],
    projects: [
      {
        test: {
          ...TIMEOUTS,
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: ['test/api/**', 'test/e2e/**', 'test/local/**', 'node_modules/**'],
          environment: 'node',
        },
      },
      ...drivers.map(apiProject),
      ...drivers.filter((driver) => driver !== 'd1').map(denoProject),
      { test: { ...TIMEOUTS, name: 'local', include: ['test/local/**/*.test.ts'], environment: 'node' } },
      {
        // expect.poll waits 1 s by default: too short for a page that polls its API every 2 s on a loaded CI machine
        // (a connectors test once failed on it). A poll that passes returns at once, so only failures wait longer.
        test: { ...TIMEOUTS, name: 'dashboard', include: ['test/e2e/**/*.test.ts'], environment: 'node', fileParallelism: false, expect: { poll: { timeout: 10_000 } } },
      },
    ],
  },
})
