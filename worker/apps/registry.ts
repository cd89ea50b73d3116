import { applyMigrations, readMigrationState, type MigrationState } from '../../drivers/migrate.ts'
import { readRow } from '../../drivers/read-row.ts'
import { namedBatch } from '../../drivers/named-batch.ts'
import { DatabaseConfigError } from '../../drivers/index.ts'
import { MIGRATIONS } from '../../drivers/migrations/index.ts'
import { InvalidInputError } from '../errors.ts'
import { toTimestamp } from '../time.ts'
import type { DatabaseHandle } from '../db/request-databases.ts'
import type { Application } from './application.ts'
import { tablePrefix } from './tables.ts'

const SELECT_APPLICATIONS = 'SELECT id, name, namespace, created_at FROM loupe_applications ORDER BY namespace'

/** The migration scope of an application's tables: its namespace, or `application` in its own database. */
export function schemaScope(handle: DatabaseHandle, app: Application): string {
  return handle.dedicated ? 'application' : `app${app.namespace}`
}
const OWNER_SCOPE = 'owner:'

/**
 * An application's own database holds its tables without a prefix, so two applications must never share
 * one: the first to use it records itself (an `owner:<id>` row in `loupe_migrations`), and any other
 * application mapped to the same database is refused as a configuration error (503) instead of mixing data.
 */
async function claim(handle: DatabaseHandle, state: MigrationState, app: Application, now: string): Promise<void> {
  const owners = () => [...state.keys()].filter((scope) => scope.startsWith(OWNER_SCOPE)).map((scope) => scope.slice(OWNER_SCOPE.length))
  if (!owners().includes(app.id)) {
    const record = handle.db.dialect.insertIgnore('loupe_migrations', ['scope', 'version', 'name', 'applied_at'], 'VALUES (?, 0, ?, ?)', ['scope', 'version'])
    const { owners: claimed } = await namedBatch(handle.db, {
      claim: { sql: record, args: [`${OWNER_SCOPE}${app.id}`, 'owner', now] },
      owners: { sql: 'SELECT scope FROM loupe_migrations WHERE scope LIKE ?', args: [`${OWNER_SCOPE}%`] },
    })
    for (const row of claimed.rows.map((owner) => readRow(owner, { scope: 'string' }, 'application owner'))) if (!state.has(row.scope)) state.set(row.scope, 0)
  }
  const others = owners().filter((owner) => owner !== app.id)
  if (others.length) {
    throw new DatabaseConfigError(`APP_DATABASES maps application '${app.id}' to a database that belongs to '${others.join("', '")}'.`)
  }
}

/**
 * Per-isolate knowledge about schemas and applications, so that after the first request an API call pays
 * no round trips for either:
 * - each database's migration state is read (and migrations applied) once;
 * - the application list is cached; applications are never deleted, so a miss just reloads it once.
 *
 * Only settled results are kept, never an in-flight promise: a promise whose I/O belongs to one request and
 * is awaited by another hangs for good if the first request ends early (a client disconnects, a queue
 * invocation finishes) — workerd cancels that I/O, and every later request would wait on it. Concurrent cold
 * requests therefore each read the state themselves; migrations are race-safe (drivers/migrate.ts).
 * Failures cache nothing, so the next request retries (e.g. after the database comes back).
 */
export class ApplicationRegistry {
  private readonly states = new Map<string, MigrationState>()
  private readonly ready = new Set<string>()
  private applications: Application[] | undefined

  /** Migrates the registry (once per isolate) and returns the cached application list. */
  async list(main: DatabaseHandle, now: Date): Promise<Application[]> {
    await this.ensureRegistry(main, now)
    this.applications ??= await this.load(main)
    return this.applications
  }

  /** Re-reads the application list from the database. */
  async reload(main: DatabaseHandle, now: Date): Promise<Application[]> {
    await this.ensureRegistry(main, now)
    this.applications = await this.load(main)
    return this.applications
  }

  /**
   * The application a request addresses: `app` omitted → the first registered one (seed §1, "The app
   * parameter"); unknown → 422, after one reload in case another isolate registered it.
   */
  async resolve(main: DatabaseHandle, appId: string | undefined, now: Date): Promise<Application> {
    const found = await this.find(main, appId, now)
    if (!found) throw new InvalidInputError(`Application '${appId ?? ''}' was not found.`)
    return found
  }

  /** `resolve` for callers to whom a missing application is not an input error (a queue message outliving it). */
  async find(main: DatabaseHandle, appId: string | undefined, now: Date): Promise<Application | null> {
    const pick = (apps: Application[]) => (appId === undefined ? apps[0] : apps.find((app) => app.id === appId))
    return pick(await this.list(main, now)) ?? pick(await this.reload(main, now)) ?? null
  }

  /**
   * Makes sure the application's tables exist and are current in the database holding them. An application's
   * own database is claimed for it first (see `claim`).
   */
  async ensureSchema(handle: DatabaseHandle, app: Application, now: Date): Promise<void> {
    const scope = schemaScope(handle, app)
    // The application id is part of the key: two applications mapped to one database must each be claimed.
    const key = `${handle.key}|${scope}|${app.id}`
    if (this.ready.has(key)) return
    try {
      const state = await this.state(handle)
      if (handle.dedicated) await claim(handle, state, app, toTimestamp(now))
      const migrations = MIGRATIONS[handle.db.dialect.name].application
      const prefix = tablePrefix(app.namespace, handle.dedicated)
      const version = await applyMigrations(handle.db, scope, prefix, migrations, state.get(scope) ?? 0, toTimestamp(now))
      state.set(scope, version)
      this.ready.add(key)
    } catch (error) {
      // Re-read the applied versions next time: a failed step may have left some migrations applied.
      this.states.delete(handle.key)
      throw error
    }
  }

  /** Applied migration versions per scope of a database (read once per isolate). */
  async state(handle: DatabaseHandle): Promise<MigrationState> {
    const known = this.states.get(handle.key)
    if (known) return known
    const state = await readMigrationState(handle.db, MIGRATIONS[handle.db.dialect.name])
    // A concurrent request may have stored one meanwhile; keep that one, so versions set on it are not lost.
    const stored = this.states.get(handle.key) ?? state
    this.states.set(handle.key, stored)
    return stored
  }

  private async ensureRegistry(main: DatabaseHandle, now: Date): Promise<void> {
    const key = `${main.key}|registry`
    if (this.ready.has(key)) return
    const state = await this.state(main)
    const migrations = MIGRATIONS[main.db.dialect.name].registry
    state.set('registry', await applyMigrations(main.db, 'registry', '', migrations, state.get('registry') ?? 0, toTimestamp(now)))
    this.ready.add(key)
  }

  private async load(main: DatabaseHandle): Promise<Application[]> {
    const { rows } = await main.db.execute<Application>({ sql: SELECT_APPLICATIONS })
    return rows.map((row) => ({ ...row, namespace: Number(row.namespace) }))
  }
}
