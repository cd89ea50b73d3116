import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startFaultProxy } from './fault-proxy.ts'
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
  /** The MySQL database behind the PlanetScale server, for Node-side tests that need their own connections. */
  readonly mysqlUrl?: string
  /**
   * Per leg (when neon is selected): two spare PostgreSQL databases, each behind its own local Neon server
   * that serves only it, for applications given their own Neon database (APP_DATABASES with two targets).
   */
  readonly dedicatedNeon?: Record<string, readonly DedicatedNeon[]>
  /**
   * Per network leg (libsql, neon, planetscale): the worker configuration of the leg's database reached
   * through a TCP fault proxy (tools/fault-proxy.ts), and the proxy's control URL. The proxy sits between the
   * worker and the Hrana server (libsql), or between the local protocol server and PostgreSQL/MySQL.
   */
  readonly faultTargets?: Record<string, FaultTarget>
}

export interface DedicatedNeon {
  readonly url: string
  readonly endpoint: string
}

export interface FaultTarget {
  readonly bindings: Record<string, string>
  readonly control: string
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
 * `bindings[driver]` is the worker configuration for each; `bindings['deno-libsql']` is the Deno leg's own.
 */
export async function startDatabaseTargets(drivers: readonly DriverTarget[], database = perRunDatabaseName('loupe_test')): Promise<DatabaseTargets> {
  const bindings: Record<string, Record<string, string>> = { d1: {} }
  const connections: { -readonly [K in keyof DriverConnections]: DriverConnections[K] } = {}
  const stops: (() => Promise<void>)[] = []
  const hranaDatabase = async (label: string): Promise<string> => {
    const dir = mkdtempSync(join(tmpdir(), `loupe-${label}-`))
    const server = await startHranaServer({ databasePath: join(dir, 'loupe.db') })
    stops.push(async () => {
      await server.close()
      rmSync(dir, { recursive: true, force: true })
    })
    return server.url
  }
  // One spare libSQL database per leg, for applications given their own database (APP_DATABASES).
  const spare: Record<string, string> = {}
  for (const driver of drivers) spare[driver] = await hranaDatabase(`dedicated-${driver}`)
  connections.dedicatedLibsqlUrls = spare
  const faultTargets: Record<string, FaultTarget> = {}
  connections.faultTargets = faultTargets
  const faultProxy = async (target: { host: string; port: number }) => {
    const proxy = await startFaultProxy({ target, control: true })
    stops.push(() => proxy.close())
    return proxy
  }
  if (drivers.includes('libsql')) {
    const url = await hranaDatabase('libsql')
    bindings.libsql = { DATABASE_DRIVER: 'libsql', DATABASE_URL: url }
    connections.libsqlUrl = url
    // The Deno leg gets a database file of its own. Every application is a namespace of tables in the leg's one
    // file, and SQLite re-parses the whole schema on each ALTER TABLE and on each connection that finds it
    // changed: at 150 applications a new one's migrations take 1.7 s and a stale connection 0.3 s, growing
    // with each. Two legs in one file made late app creations in CI pass the 30 s test timeout (stop 29).
    bindings['deno-libsql'] = { DATABASE_DRIVER: 'libsql', DATABASE_URL: await hranaDatabase('deno-libsql') }
    const proxy = await faultProxy(hostPort(url))
    faultTargets.libsql = { bindings: { DATABASE_DRIVER: 'libsql', DATABASE_URL: `http://${proxy.host}:${proxy.port}` }, control: proxy.controlUrl! }
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
    const proxy = await faultProxy(hostPort(url))
    const proxied = new URL(url)
    proxied.hostname = proxy.host
    proxied.port = String(proxy.port)
    faultTargets.neon = { bindings: { DATABASE_DRIVER: 'neon', DATABASE_URL: proxied.toString(), DATABASE_ENDPOINT: server.url }, control: proxy.controlUrl! }
    connections.dedicatedNeon = await startDedicatedNeon(drivers, database, stops)
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
    connections.mysqlUrl = LOCAL_ENGINES.mysqlUrl(database)
    const proxy = await faultProxy(hostPort(LOCAL_ENGINES.mysqlServerUrl, 3306))
    const proxied = new URL(LOCAL_ENGINES.mysqlUrl(database))
    proxied.hostname = proxy.host
    proxied.port = String(proxy.port)
    const faulty = await startPlanetscaleServer({ mysqlUrl: proxied.toString(), username: 'loupe', password: 'loupe-local' })
    stops.unshift(() => faulty.close()) // before the proxy and the database go
    faultTargets.planetscale = { bindings: { DATABASE_DRIVER: 'planetscale', DATABASE_URL: faulty.url }, control: proxy.controlUrl! }
  }
  return {
    bindings,
    connections,
    stop: async () => {
      await Promise.all(stops.map((stop) => stop()))
    },
  }
}

/** Host and port of a URL (the scheme's default port when it names none). */
function hostPort(url: string, defaultPort = 5432): { host: string; port: number } {
  const parsed = new URL(url)
  const fallback = parsed.protocol === 'http:' ? 80 : defaultPort
  return { host: parsed.hostname.replace(/^\[(.*)\]$/, '$1'), port: Number(parsed.port || fallback) }
}

/**
 * Two spare PostgreSQL databases per leg, `<database>_<leg>_a` behind one local Neon server and
 * `<database>_<leg>_b` behind another, each server serving only its own databases.
 */
async function startDedicatedNeon(legs: readonly DriverTarget[], database: string, stops: (() => Promise<void>)[]): Promise<Record<string, readonly DedicatedNeon[]>> {
  const names = (side: string) => legs.map((leg) => `${database}_${leg}_${side}`)
  const all = [...names('a'), ...names('b')]
  await Promise.all(all.map((name) => recreatePostgresDatabase(name)))
  const servers = await Promise.all(['a', 'b'].map((side) => startNeonServer({ databases: names(side) })))
  stops.push(async () => {
    await Promise.all(servers.map((server) => server.close()))
    await Promise.all(all.map((name) => dropPostgresDatabase(name)))
  })
  return Object.fromEntries(
    legs.map((leg) => [leg, servers.map((server, index) => ({ url: LOCAL_ENGINES.neonConnectionString(`${database}_${leg}_${'ab'[index]}`), endpoint: server.url }))]),
  )
}
