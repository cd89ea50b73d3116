/**
 * `npm test [-- <vitest args>]` — the whole suite: `deno check` of worker/, shared/ and drivers/, unit tests,
 * the API parity suite inside workerd once per database driver and part of it against the Deno entry
 * (libsql, neon, planetscale), the worker under `wrangler dev`, and the dashboard in headless Chromium.
 *
 * D1 and libSQL always run (both are embedded). The Neon and PlanetScale legs need PostgreSQL and
 * MySQL/MariaDB on this machine, and the dashboard leg needs Chromium: when one is missing, that leg is
 * skipped with a loud notice — unless `LOUPE_REQUIRE_ALL=1` (set by `.ci/run`), which makes it a failure.
 */
import { spawn } from 'node:child_process'
import { existsSync, readdirSync } from 'node:fs'
import { ensureDashboardBuilt } from './build-dashboard.ts'
import { CHROMIUM_PATH } from './chromium.ts'
import { isMysqlReachable, isPostgresReachable, LOCAL_ENGINES } from './local-engines.ts'
import { QUIET_WRANGLER_ENV } from './wrangler-env.ts'

/** `Env`'s bindings are generated from wrangler.toml (`npm run typegen`); a stale file fails the run. */
async function checkGeneratedTypes(): Promise<boolean> {
  const args = ['wrangler', 'types', '--include-runtime=false', 'worker/worker-configuration.d.ts', '--check']
  return new Promise((resolve) => {
    const child = spawn('npx', args, { stdio: 'inherit', env: { ...process.env, ...QUIET_WRANGLER_ENV } })
    child.on('exit', (code) => resolve(code === 0))
  })
}

/** Deno from the npm registry's `deno` package (node_modules); deno.json resolves npm imports from node_modules, offline. */
export const DENO_PATH = 'node_modules/.bin/deno'

/**
 * What runs on Deno, checked by Deno itself: `deno check` with Deno's own types (deno.json: everything but the
 * Workers-only entry and adapters), then the Deno-native tests of the Deno adapters (test/deno/*.deno.ts).
 */
async function denoChecks(): Promise<boolean> {
  const denoTests = readdirSync('test/deno').filter((name) => name.endsWith('.deno.ts')).map((name) => `test/deno/${name}`)
  const runs = [
    ['check', '--quiet', 'worker/', 'shared/', 'drivers/', 'test/deno/test-entry.ts', ...denoTests],
    ['test', '--allow-read', '--allow-write', ...denoTests],
  ]
  for (const args of runs) {
    const ok = await new Promise<boolean>((resolve) => {
      const child = spawn(DENO_PATH, args, { stdio: ['ignore', args[0] === 'check' ? 'ignore' : 'inherit', 'inherit'], env: { ...process.env, DENO_NO_UPDATE_CHECK: '1' } })
      child.on('exit', (code) => resolve(code === 0))
      child.on('error', () => resolve(false))
    })
    if (!ok) return false
  }
  return true
}

async function main(): Promise<number> {
  const requireAll = process.env.LOUPE_REQUIRE_ALL === '1'
  if (!(await checkGeneratedTypes())) {
    console.error('worker/worker-configuration.d.ts is out of date with wrangler.toml: run `npm run typegen`.')
    return 1
  }
  if (!(await denoChecks())) {
    console.error('deno check or deno test failed (see above): worker/, shared/ and drivers/ must run on Deno too (README "Run on Deno").')
    return 1
  }
  await ensureDashboardBuilt()
  const [postgres, mysql] = await Promise.all([isPostgresReachable(), isMysqlReachable()])
  const chromium = existsSync(CHROMIUM_PATH)
  const missing = [
    ...(postgres ? [] : [`PostgreSQL (${LOCAL_ENGINES.postgresUrl}) — the neon leg`]),
    ...(mysql ? [] : [`MySQL/MariaDB (${LOCAL_ENGINES.mysqlServerUrl}) — the planetscale leg`]),
    ...(chromium ? [] : [`Chromium (${CHROMIUM_PATH}) — the dashboard tests`]),
  ]
  if (missing.length) {
    const banner = '!'.repeat(78)
    console.error(`\n${banner}\n  NOT RUNNING: ${missing.join('\n               ')}\n${banner}\n`)
    if (requireAll) {
      console.error('LOUPE_REQUIRE_ALL=1: every leg must run. Start the missing services and try again.')
      return 1
    }
  }
  const drivers = ['d1', 'libsql', ...(postgres ? ['neon'] : []), ...(mysql ? ['planetscale'] : [])]
  const denoLegs = drivers.filter((driver) => driver !== 'd1').map((driver) => `deno-${driver}`)
  const projects = ['unit', ...drivers.map((driver) => `api-${driver}`), ...denoLegs, 'local', ...(chromium ? ['dashboard'] : [])]
  const args = ['vitest', 'run', ...projects.flatMap((project) => ['--project', project]), ...process.argv.slice(2)]
  console.log(`Running: ${projects.join(', ')}`)
  return new Promise((resolve) => {
    const child = spawn('npx', args, { stdio: 'inherit', env: { ...process.env, ...QUIET_WRANGLER_ENV, LOUPE_DRIVERS: drivers.join(',') } })
    child.on('exit', (code) => resolve(code ?? 1))
  })
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error)
    process.exit(1)
  },
)
