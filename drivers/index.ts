import type { Driver, DriverName, DriverOptions, RoundTripObserver } from './driver.ts'
import { createD1Driver, type D1Like } from './d1.ts'
import { createLibsqlDriver } from './libsql.ts'
import { createNeonDriver } from './neon.ts'
import { createPlanetscaleDriver } from './planetscale.ts'

/** Where a database is, as configuration describes it (README "Configuration"). */
export type DatabaseTarget =
  | { readonly driver: 'd1'; readonly binding: D1Like }
  | { readonly driver: 'libsql'; readonly url: string; readonly token?: string }
  | { readonly driver: 'neon'; readonly url: string; readonly token?: string; readonly endpoint?: string }
  | { readonly driver: 'planetscale'; readonly url: string }

/** The configuration values a target is chosen from (env `DATABASE_*`, or one entry of `APP_DATABASES`). */
export interface DatabaseSettings {
  readonly driver?: string
  readonly url?: string
  readonly token?: string
  readonly endpoint?: string
  /** The D1 binding `DB`, used when no URL is configured. */
  readonly binding?: D1Like
}

/** Configuration that cannot work; the message names settings, never their secret values. */
export class DatabaseConfigError extends Error {
  override readonly name = 'DatabaseConfigError'
}

const SCHEME_DRIVERS: Record<string, DriverName> = {
  'libsql:': 'libsql',
  'wss:': 'libsql',
  'ws:': 'libsql',
  'postgres:': 'neon',
  'postgresql:': 'neon',
  'mysql:': 'planetscale',
}

/**
 * The one place a database driver is chosen (design.md §2): no URL → the D1 binding; otherwise the
 * explicit `driver`, or the one the URL scheme implies (`http(s):` URLs need an explicit driver).
 */
export function resolveDatabaseTarget(settings: DatabaseSettings): DatabaseTarget {
  const url = settings.url?.trim()
  if (!url) {
    if (settings.driver && settings.driver !== 'd1')
      throw new DatabaseConfigError(`DATABASE_DRIVER is "${settings.driver}" but DATABASE_URL is empty.`)
    if (!settings.binding) throw new DatabaseConfigError('No DATABASE_URL is set and the D1 binding "DB" is missing.')
    return { driver: 'd1', binding: settings.binding }
  }
  let scheme: string
  try {
    scheme = new URL(url).protocol
  } catch {
    throw new DatabaseConfigError('DATABASE_URL is not a valid URL.')
  }
  const driver = settings.driver?.trim() || SCHEME_DRIVERS[scheme]
  if (!driver) throw new DatabaseConfigError(`Set DATABASE_DRIVER: the ${scheme} scheme of DATABASE_URL does not imply a driver.`)
  switch (driver) {
    case 'libsql':
      return { driver, url, token: settings.token || undefined }
    case 'neon':
      if (!/^postgres(ql)?:/.test(scheme)) throw new DatabaseConfigError('The neon driver needs a postgres:// DATABASE_URL.')
      return { driver, url, token: settings.token || undefined, endpoint: settings.endpoint || undefined }
    case 'planetscale':
      return { driver, url }
    case 'd1':
      throw new DatabaseConfigError('The d1 driver uses the DB binding; leave DATABASE_URL empty.')
    default:
      throw new DatabaseConfigError(`Unknown DATABASE_DRIVER "${driver}" (use d1, libsql, neon or planetscale).`)
  }
}

/**
 * Builds the driver for a target; `onRoundTrip` observes every network round trip (the bench counts them),
 * `options.timeoutMs` is the deadline of each call.
 */
export function createDriver(target: DatabaseTarget, onRoundTrip?: RoundTripObserver, options: DriverOptions = {}): Driver {
  switch (target.driver) {
    case 'd1':
      return createD1Driver(target.binding, onRoundTrip, options)
    case 'libsql':
      return createLibsqlDriver({ url: target.url, authToken: target.token }, onRoundTrip, options)
    case 'neon':
      return createNeonDriver({ url: target.url, endpoint: target.endpoint, authToken: target.token }, onRoundTrip, options)
    case 'planetscale':
      return createPlanetscaleDriver({ url: target.url }, onRoundTrip, options)
  }
}

/** A stable identity for caches keyed by database (never shown: it may contain credentials). */
export function targetKey(target: DatabaseTarget): string {
  return target.driver === 'd1' ? 'd1' : `${target.driver}:${target.url}`
}

export type { Driver, DriverName, DriverOptions } from './driver.ts'
export type { Dialect } from './dialect/dialect.ts'
