import { DatabaseConfigError } from '../../drivers/index.ts'
import { DriverError } from '../../drivers/driver-error.ts'
import { MIGRATIONS } from '../../drivers/migrations/index.ts'
import type { Deps } from '../deps.ts'
import { SERVICE_VERSION } from '../version.ts'
import { schemaScope } from '../apps/registry.ts'
import { logFailure } from '../log-failure.ts'

/** `timeout`: the database did not answer within `database.timeout_ms` (a stalled connection). */
type DatabaseCheck = 'ok' | 'unreachable' | 'timeout' | 'misconfigured' | 'error'

export interface HealthReport {
  readonly status: 'ok' | 'degraded'
  readonly checks: {
    readonly runtime: 'ok'
    readonly config: 'ok' | 'warnings'
    readonly database: DatabaseCheck
    readonly migrations: 'ok' | 'failed' | 'unknown'
    readonly applications: 'ok' | 'unknown'
  }
  readonly config_warnings: readonly string[]
  readonly auth: { readonly token_required: boolean; readonly secret_configured: boolean }
  readonly versions: {
    readonly service: string
    readonly runtime: string
    readonly database_driver: string | null
    readonly database: string | null
    readonly schema: { readonly registry: number; readonly application: number } | null
  }
}

/**
 * The readiness probe (seed §5, reference §3.7): can the default database be reached, is its schema (and
 * the default application's) migrated, is the configuration sound. Only non-sensitive facts: versions,
 * booleans, and warnings that name settings but never their values.
 */
export async function checkHealth(deps: Deps): Promise<HealthReport> {
  const warnings = [...deps.config.warnings]

  let database: DatabaseCheck = 'ok'
  let migrations: HealthReport['checks']['migrations'] = 'unknown'
  let applications: HealthReport['checks']['applications'] = 'unknown'
  let driverName: string | null = null
  let engine: string | null = null
  let schema: HealthReport['versions']['schema'] = null
  try {
    const main = deps.databases.main()
    driverName = main.db.name
    engine = await main.db.version()
    try {
      const [defaultApp] = await deps.registry.list(main, deps.now())
      applications = defaultApp ? 'ok' : 'unknown'
      let application = 0
      if (defaultApp) {
        const handle = deps.databases.forApplication(defaultApp.id)
        await deps.registry.ensureSchema(handle, defaultApp, deps.now())
        application = (await deps.registry.state(handle)).get(schemaScope(handle, defaultApp)) ?? 0
      }
      schema = { registry: (await deps.registry.state(main)).get('registry') ?? 0, application }
      const expected = MIGRATIONS[main.db.dialect.name]
      migrations =
        schema.registry === latest(expected.registry) && (schema.application === latest(expected.application) || !defaultApp)
          ? 'ok'
          : 'failed'
    } catch (error) {
      // A database that stops answering mid-check is the database's failure, not the migrations'.
      if (error instanceof DriverError && (error.code === 'timeout' || error.code === 'connection')) throw error
      logFailure('health: migrations failed', error)
      migrations = 'failed'
    }
  } catch (error) {
    database = classify(error)
    if (database === 'misconfigured' && error instanceof Error) warnings.push(error.message)
  }

  const ready = database === 'ok' && migrations === 'ok' && applications === 'ok'
  return {
    status: ready ? 'ok' : 'degraded',
    checks: { runtime: 'ok', config: warnings.length ? 'warnings' : 'ok', database, migrations, applications },
    config_warnings: warnings,
    auth: { token_required: deps.config.token !== null, secret_configured: deps.config.hasSecret },
    versions: {
      service: SERVICE_VERSION,
      runtime: (globalThis as { navigator?: { userAgent?: string } }).navigator?.userAgent ?? 'unknown',
      database_driver: driverName,
      database: engine,
      schema,
    },
  }
}

function latest(migrations: readonly { version: number }[]): number {
  return migrations.reduce((max, migration) => Math.max(max, migration.version), 0)
}

function classify(error: unknown): DatabaseCheck {
  if (error instanceof DatabaseConfigError) return 'misconfigured'
  logFailure('health: database check failed', error)
  if (error instanceof DriverError) return error.code === 'timeout' ? 'timeout' : error.code === 'connection' ? 'unreachable' : 'error'
  return 'error'
}
