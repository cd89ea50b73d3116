import { cloudflareTest } from '@cloudflare/vitest-pool-workers'
import { defineConfig } from 'vitest/config'
import type { TestProjectInlineConfiguration } from 'vitest/config'
import { selectedDrivers, type DriverTarget } from './test/setup/driver-targets.ts'
import type {} from './test/setup/global-setup.ts' // the `provide`d context's types

/**
 * Three kinds of tests (see README "Tests"):
 * - `unit`: Node-side tests of pure modules, the drivers against real engines, and the local protocol servers.
 * - `api-<driver>`: the API parity suite (test/api) inside workerd, once per database driver.
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
        miniflare: { bindings: { ...inject('driverBindings')[driver], LOUPE_TEST_DRIVER: driver } },
      })),
    ],
    test: {
      ...TIMEOUTS,
      name: `api-${driver}`,
      include: ['test/api/**/*.test.ts'],
    },
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
      { test: { ...TIMEOUTS, name: 'local', include: ['test/local/**/*.test.ts'], environment: 'node' } },
      {
        test: { ...TIMEOUTS, name: 'dashboard', include: ['test/e2e/**/*.test.ts'], environment: 'node', fileParallelism: false },
      },
    ],
  },
})
