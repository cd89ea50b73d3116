import type { Driver, Statement } from './driver.ts'
import { namedBatch } from './named-batch.ts'
import { readRow } from './read-row.ts'
import type { Migration, MigrationSet } from './migrations/migration.ts'

/**
 * Applied version per scope (`registry`, `app1`, `app2`, …): every step up to it is applied; a scope never
 * migrated is absent.
 */
export type MigrationState = Map<string, number>

/**
 * Creates the bookkeeping table if needed and reads every scope's applied version — one round trip, done
 * once per isolate so later requests pay nothing for schema checks.
 *
 * With `known` (the migrations this build ships), a scope's version stops before the first known step it has
 * no record of, so that a step numbered below one already applied still runs: helpers' migrations merge out
 * of number order (0013 landed after 0015), and a database migrated in between has 15 without 13. The steps
 * after it run again, harmlessly: they are idempotent. Without `known`, the highest recorded version.
 */
export async function readMigrationState(db: Driver, known?: MigrationSet): Promise<MigrationState> {
  const lock = db.dialect.migrationLock(advisoryLockKey('loupe_migrations'))
  const { applied } = await namedBatch(db, {
    lock: lock ? { sql: lock } : null,
    table: { sql: db.dialect.migrationsTable },
    applied: { sql: 'SELECT scope, version FROM loupe_migrations' },
  })
  const recorded = new Map<string, Set<number>>()
  for (const row of applied.rows.map((row) => readRow(row, { scope: 'string', version: 'number' }, 'migration state'))) {
    const versions = recorded.get(row.scope) ?? new Set<number>()
    versions.add(row.version)
    recorded.set(row.scope, versions)
  }
  const state: MigrationState = new Map()
  for (const [scope, versions] of recorded) {
    const highest = Math.max(...versions)
    const steps = known ? (scope === 'registry' ? known.registry : known.application) : []
    const missing = steps.find((step) => step.version < highest && !versions.has(step.version))
    state.set(scope, missing ? Math.max(0, ...[...versions].filter((version) => version < missing.version)) : highest)
  }
  return state
}

/**
 * Applies the migrations of one scope newer than `applied`, each as one atomic batch that also records
 * it. Safe when several isolates race: PostgreSQL serialises them with an advisory lock, SQLite batches
 * are serialised by the engine, statements are idempotent (or the step has an `appliedProbe`) and the
 * record is an insert-ignore.
 *
 * @returns the scope's version afterwards.
 */
export async function applyMigrations(
  db: Driver,
  scope: string,
  prefix: string,
  migrations: readonly Migration[],
  applied: number,
  now: string,
): Promise<number> {
  let version = applied
  for (const migration of migrations) {
    if (migration.version <= version) continue
    const lock = db.dialect.migrationLock(advisoryLockKey(scope))
    const record = db.dialect.insertIgnore(
      'loupe_migrations',
      ['scope', 'version', 'name', 'applied_at'],
      'VALUES (?, ?, ?, ?)',
      ['scope', 'version'],
    )
    const recordArgs = [scope, migration.version, migration.name, now]
    for (let attempt = 1; ; attempt++) {
      try {
        await db.batch([...(lock ? [{ sql: lock }] : []), ...migration.statements(prefix).map((sql) => ({ sql })), { sql: record, args: recordArgs }])
        break
      } catch (error) {
        // A step that cannot be idempotent fails when its changes are already there (migration.ts `appliedProbe`).
        if (migration.appliedProbe && (await db.execute({ sql: migration.appliedProbe(prefix) })).rows.length > 0) {
          await db.execute({ sql: record, args: recordArgs })
          break
        }
        // MySQL commits every DDL statement on its own, so a racing migrator can make a step fail half-way (a
        // duplicate index name seen in CI); every step is idempotent, so it runs again and finishes what is left.
        if (attempt >= MIGRATION_ATTEMPTS) throw error
        await new Promise((resolve) => setTimeout(resolve, 50 * attempt + Math.random() * 100))
      }
    }
    version = migration.version
  }
  return version
}

/** Tries of one migration step before its error is final (see applyMigrations). */
const MIGRATION_ATTEMPTS = 5

/** A stable 31-bit key for PostgreSQL advisory locks (FNV-1a of the name). */
export function advisoryLockKey(scope: string): number {
  let hash = 0x811c9dc5
  for (let i = 0; i < scope.length; i++) {
    hash ^= scope.charCodeAt(i)
    hash = Math.imul(hash, 0x01000193)
  }
  return hash >>> 1
}
