/**
 * `npm start [-- --driver d1|libsql|neon|planetscale] [--port N] [--no-cron] [--runtime workers|deno]` — runs
 * Loupe locally with `wrangler dev`, and fires its cron triggers on schedule (wrangler dev does not); with
 * `--runtime deno`, under `deno serve` instead (worker/platform/deno/serve.ts; default driver libsql, as Deno
 * has no D1; logs under `.loupe/logs`, maintenance on its own timer unless --no-cron).
 *
 * - d1 (default): miniflare's local D1, persisted under `.loupe/wrangler`; nothing else needed.
 * - libsql: starts the local Hrana server over `.loupe/libsql.db`.
 * - neon: starts the local Neon SQL-over-HTTP server in front of PostgreSQL (the database named in
 *   `LOUPE_POSTGRES_URL`, else `loupe`).
 * - planetscale: starts the local PlanetScale HTTP server in front of MySQL/MariaDB (the database named in
 *   `LOUPE_MYSQL_URL`, else `loupe`).
 *
 * `PORT` (default 8787), `SERVICE_TOKEN`, `SERVICE_URL`, `SERVICE_SECRET` and `SERVICE_CONFIG` from the
 * environment are passed to the worker through a private env file (never on the command line).
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { ensureDashboardBuilt } from './build-dashboard.ts'
import { ensureMysqlDatabase, ensurePostgresDatabase, LOCAL_ENGINES } from './local-engines.ts'
import { startHranaServer } from './servers/hrana-server.ts'
import { startNeonServer } from './servers/neon-server.ts'
import { startPlanetscaleServer } from './servers/planetscale-server.ts'
import { QUIET_WRANGLER_ENV } from './wrangler-env.ts'
import { readCronTriggers } from './cron.ts'
import { startLocalCron } from './local-cron.ts'
import { writeEnvFile } from './env-file.ts'

const ROOT = new URL('..', import.meta.url).pathname
// LOUPE_STATE_DIR moves the local state elsewhere (the README quick-start test runs `npm start` in a temp dir).
const STATE = process.env.LOUPE_STATE_DIR || join(ROOT, '.loupe')
const DRIVERS = ['d1', 'libsql', 'neon', 'planetscale'] as const
type Driver = (typeof DRIVERS)[number]
const PASSED_THROUGH = ['SERVICE_TOKEN', 'SERVICE_URL', 'SERVICE_SECRET', 'SERVICE_CONFIG', 'APP_DATABASES', 'TRACKER_API_KEY', 'TRACKER_WEBHOOK_SECRET'] as const

async function main() {
  const { values } = parseArgs({
    options: {
      driver: { type: 'string', default: 'd1' },
      port: { type: 'string' },
      host: { type: 'string', default: '127.0.0.1' },
      'no-cron': { type: 'boolean', default: false },
      runtime: { type: 'string', default: 'workers' },
    },
  })
  if (values.runtime !== 'workers' && values.runtime !== 'deno') throw new Error('--runtime must be workers or deno')
  if (values.runtime === 'deno' && values.driver === 'd1') {
    if (process.argv.includes('--driver')) throw new Error('D1 exists only on Workers: with --runtime deno, use --driver libsql, neon or planetscale')
    values.driver = 'libsql'
  }
  const driver = values.driver as Driver
  if (!DRIVERS.includes(driver)) throw new Error(`--driver must be one of ${DRIVERS.join(', ')}`)
  const port = Number(values.port ?? process.env.PORT ?? 8787)
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error('PORT must be a TCP port number')
  mkdirSync(STATE, { recursive: true })

  await ensureDashboardBuilt()
  const { vars, stop } = await startDatabase(driver)
  for (const name of PASSED_THROUGH) if (process.env[name]) vars[name] = process.env[name]!

  const envFile = join(STATE, 'start.env')
  writeEnvFile(envFile, vars)
  if (values.runtime === 'deno') return serveOnDeno({ driver, host: values.host!, port, envFile, cron: !values['no-cron'], stop })
  const envFiles = [...(existsSync(join(ROOT, '.dev.vars')) ? ['--env-file', '.dev.vars'] : []), '--env-file', envFile]
  console.log(`Loupe (${driver}) on http://${values.host}:${port}/ — health: http://${values.host}:${port}/?api=health`)
  const wrangler = spawn(
    'npx',
    ['wrangler', 'dev', '--port', String(port), '--ip', values.host!, '--persist-to', join(STATE, 'wrangler'), '--show-interactive-dev-session=false', ...envFiles],
    { cwd: ROOT, stdio: 'inherit', env: { ...process.env, ...QUIET_WRANGLER_ENV } },
  )
  // wrangler dev never fires cron triggers; do it here so local behaviour matches production (README).
  const crons = values['no-cron'] ? [] : readCronTriggers(readFileSync(join(ROOT, 'wrangler.toml'), 'utf8'))
  const stopCron = crons.length ? startLocalCron({ url: `http://${values.host}:${port}`, crons }) : () => {}
  if (crons.length) console.log(`Cron triggers fire locally on their schedule (UTC): ${crons.join(', ')} — disable with --no-cron`)
  supervise(wrangler, async () => {
    stopCron()
    await stop()
  })
}

/** Ctrl-C (or SIGTERM) stops the server and then `cleanup`; the server exiting on its own runs `cleanup` too. */
function supervise(server: ChildProcess, cleanup: () => Promise<void>): void {
  const shutdown = async () => {
    server.kill('SIGTERM')
    await cleanup()
    process.exit(0)
  }
  process.on('SIGINT', shutdown)
  process.on('SIGTERM', shutdown)
  server.on('exit', async (code) => {
    await cleanup()
    process.exit(code ?? 0)
  })
}

/** `deno serve` of the Deno entry with the same database and settings (the env file keeps secrets off the command line). */
function serveOnDeno(options: { driver: Driver; host: string; port: number; envFile: string; cron: boolean; stop: () => Promise<void> }): void {
  const { driver, host, port, envFile, cron, stop } = options
  console.log(`Loupe on Deno (${driver}) on http://${host}:${port}/ — health: http://${host}:${port}/?api=health`)
  const deno = spawn(
    'npx',
    ['deno', 'serve', '--allow-net', '--allow-env', '--allow-read', `--allow-write=${STATE}`, `--env-file=${envFile}`, '--host', host, '--port', String(port), 'worker/platform/deno/serve.ts'],
    {
      cwd: ROOT,
      stdio: 'inherit',
      env: { ...process.env, LOGS_DIR: join(STATE, 'logs'), MAINTENANCE_INTERVAL_MINUTES: cron ? '15' : '0', DENO_NO_UPDATE_CHECK: '1' },
    },
  )
  supervise(deno, stop)
}

async function startDatabase(driver: Driver): Promise<{ vars: Record<string, string>; stop: () => Promise<void> }> {
  switch (driver) {
    case 'd1':
      return { vars: {}, stop: async () => {} }
    case 'libsql': {
      const server = await startHranaServer({ databasePath: join(STATE, 'libsql.db') })
      return { vars: { DATABASE_DRIVER: 'libsql', DATABASE_URL: server.url }, stop: () => server.close() }
    }
    case 'neon': {
      const database = LOCAL_ENGINES.postgresDatabase
      await ensurePostgresDatabase(database)
      const server = await startNeonServer()
      return {
        vars: { DATABASE_DRIVER: 'neon', DATABASE_URL: LOCAL_ENGINES.neonConnectionString(database), DATABASE_ENDPOINT: server.url },
        stop: () => server.close(),
      }
    }
    case 'planetscale': {
      const database = LOCAL_ENGINES.mysqlDatabase
      await ensureMysqlDatabase(database)
      const server = await startPlanetscaleServer({ mysqlUrl: LOCAL_ENGINES.mysqlUrl(database), username: 'loupe', password: 'loupe-local' })
      return { vars: { DATABASE_DRIVER: 'planetscale', DATABASE_URL: server.url }, stop: () => server.close() }
    }
  }
}

main().catch((error) => {
  console.error(`npm start: ${error instanceof Error ? error.message : String(error)}`)
  process.exit(1)
})
