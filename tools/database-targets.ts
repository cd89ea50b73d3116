import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startHranaServer } from './servers/hrana-server.ts'
import { startNeonServer } from './servers/neon-server.ts'
import { startPlanetscaleServer } from './servers/planetscale-server.ts'
import { dropMysqlDatabase, dropPostgresDatabase, recreateMysqlDatabase, recreatePostgresDatabase, LOCAL_ENGINES } from './local-engines.ts'

export type DriverTarget = 'd1' | 'libsql' | 'neon' | 'planetscale'

/** How Node-side code reaches each engine directly (the driver conformance suite, the bench). */
export interface DriverConnections {
  readonly libsqlUrl?: string
  readonly neonEndpoint?: string
  readonly neonUrl?: string
  readonly planetscaleUrl?: string
  /** Per leg: a spare libSQL database for applications that get their own (APP_DATABASES). */
  readonly dedicatedLibsqlUrls?: Record<string, string>
}

export interface DatabaseTargets {
  readonly bindings: Record<string, Record<string, string>>
  readonly connections: DriverConnections
  stop(): Promise<void>
}

/**
 * A database name of its own for one run (`loupe_test_<pid>_<random>`), so two runs on one machine — two
 * checkouts, or a test run beside a bench — never drop each other's databases.
 */
export function perRunDatabaseName(prefix: string): string {
  return `${prefix}_${process.pid}_${Math.random().toString(36).slice(2, 8)}`
}

/**
 * Fresh databases behind local protocol servers, one per selected driver: a temp SQLite file behind the
 * Hrana server, `<database>` (created for this run, dropped by `stop`) in PostgreSQL behind the Neon server
 * and in MySQL/MariaDB behind the PlanetScale server. D1 needs nothing: miniflare provides it.
 * `bindings[driver]` is the worker configuration for each.
 */
export async function startDatabaseTargets(drivers: readonly DriverTarget[], database = perRunDatabaseName('loupe_test')): Promise<DatabaseTargets> {
  const bindings: Record<string, Record<string, string>> = { d1: {} }
  const connections: { -readonly [K in keyof DriverConnections]: DriverConnections[K] } = {}
  const stops: (() => Promise<void>)[] = []
  // One spare libSQL database per leg, for applications given their own database (APP_DATABASES).
  const spare: Record<string, string> = {}
  for (const driver of drivers) {
    const dir = mkdtempSync(join(tmpdir(), `loupe-dedicated-${driver}-`))
    const server = await startHranaServer({ databasePath: join(dir, 'dedicated.db') })
    stops.push(async () => {
      await server.close()
      rmSync(dir, { recursive: true, force: true })
    })
    spare[driver] = server.url
  }
  connections.dedicatedLibsqlUrls = spare
  if (drivers.includes('libsql')) {
    const dir = mkdtempSync(join(tmpdir(), 'loupe-libsql-'))
    const server = await startHranaServer({ databasePath: join(dir, 'loupe.db') })
    stops.push(async () => {
      await server.close()
      rmSync(dir, { recursive: true, force: true })
    })
    bindings.libsql = { DATABASE_DRIVER: 'libsql', DATABASE_URL: server.url }
    connections.libsqlUrl = server.url
  }
  if (drivers.includes('neon')) {
    await recreatePostgresDatabase(database)
    const server = await startNeonServer()
    stops.push(async () => {
      await server.close()
      await dropPostgresDatabase(database)
    })
    const url = LOCAL_ENGINES.neonConnectionString(database)
    bindings.neon = { DATABASE_DRIVER: 'neon', DATABASE_URL: url, DATABASE_ENDPOINT: server.url }
    connections.neonEndpoint = server.url
    connections.neonUrl = url
  }
  if (drivers.includes('planetscale')) {
    await recreateMysqlDatabase(database)
    const server = await startPlanetscaleServer({
      mysqlUrl: LOCAL_ENGINES.mysqlUrl(database),
      username: 'loupe',
      password: 'loupe-local',
    })
    stops.push(async () => {
      await server.close()
      await dropMysqlDatabase(database)
    })
    bindings.planetscale = { DATABASE_DRIVER: 'planetscale', DATABASE_URL: server.url }
    connections.planetscaleUrl = server.url
  }
  return {
    bindings,
    connections,
    stop: async () => {
      await Promise.all(stops.map((stop) => stop()))
    },
  }
}
