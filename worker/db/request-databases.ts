import { createDriver, resolveDatabaseTarget, targetKey, type DatabaseTarget, type Driver } from '../../drivers/index.ts'
import type { Env } from '../env.ts'
import { readConfig } from '../config.ts'
import { parseAppDatabases } from './app-databases.ts'
import { DatabaseStats } from './database-stats.ts'
import { instrument } from './instrument.ts'

/** A database as one request uses it: the driver (instrumented for this request) and a cache key. */
export interface DatabaseHandle {
  readonly db: Driver
  /** Identifies the database across requests (for per-isolate schema caches); never shown. */
  readonly key: string
  /** True for an application's own database (`APP_DATABASES`): its tables carry no namespace prefix. */
  readonly dedicated: boolean
}

/**
 * The databases of one request. Drivers are created lazily and per request, so round trips are counted
 * per request; creating them is cheap (no connection is opened until a statement runs).
 */
export class RequestDatabases {
  readonly stats = new DatabaseStats()
  private mainHandle: DatabaseHandle | undefined

  constructor(private readonly env: Env) {}

  /** The default database: registry, and every application without its own database. */
  main(): DatabaseHandle {
    this.mainHandle ??= this.open(
      resolveDatabaseTarget({
        binding: this.env.DB,
        driver: this.env.DATABASE_DRIVER,
        url: this.env.DATABASE_URL,
        token: this.env.DATABASE_TOKEN,
        endpoint: this.env.DATABASE_ENDPOINT,
      }),
    )
    return this.mainHandle
  }

  /** The database holding one application's tables. */
  forApplication(appId: string): DatabaseHandle {
    const settings = parseAppDatabases(this.env.APP_DATABASES).databases.get(appId)
    return settings ? this.open(resolveDatabaseTarget({ ...settings, binding: this.env.DB }), true) : this.main()
  }

  /** Where one application's tables are, without creating a driver: its driver name, and whether the database is its own. */
  describeApplication(appId: string): { driver: string; dedicated: boolean } {
    const settings = parseAppDatabases(this.env.APP_DATABASES).databases.get(appId)
    if (!settings) return { driver: this.main().db.name, dedicated: false }
    return { driver: resolveDatabaseTarget({ ...settings, binding: this.env.DB }).driver, dedicated: true }
  }

  private open(target: DatabaseTarget, dedicated = false): DatabaseHandle {
    const driver = createDriver(target, () => this.stats.roundTrips++, { timeoutMs: readConfig(this.env).databaseTimeoutMs })
    return { db: instrument(driver, this.stats), key: targetKey(target), dedicated }
  }
}
