import type { Driver, Statement } from './driver.ts'
import { namedBatch } from './named-batch.ts'
import { readRow } from './read-row.ts'
import type { Migration } from './migrations/migration.ts'

/** Applied version per scope (`registry`, `app1`, `app2`, …); a scope never migrated is absent. */
export type MigrationState = Map<string, number>

/**
 * Creates the bookkeeping table if needed and reads every scope's applied version — one round trip, done
 * once per isolate so later requests pay nothing for schema checks.
 */
export async function readMigrationState(db: Driver): Promise<MigrationState> {
  const lock = db.dialect.migrationLock(advisoryLockKey('loupe_migrations'))
  const { applied } = await namedBatch(db, {
    lock: lock ? { sql: lock } : null,
    table: { sql: db.dialect.migrationsTable },
    applied: { sql: 'SELECT scope, MAX(version) AS version FROM loupe_migrations GROUP BY scope' },
  })
  const rows = applied.rows.map((row) => readRow(row, { scope: 'string', version: 'number' }, 'migration state'))
  return new Map(rows.map((row) => [row.scope, row.version]))
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
    try {
      await db.batch([...(lock ? [{ sql: lock }] : []), ...migration.statements(prefix).map((sql) => ({ sql })), { sql: record, args: recordArgs }])
    } catch (error) {
      // A step that cannot be idempotent fails when its changes are already there (migration.ts `appliedProbe`).
      if (!migration.appliedProbe || (await db.execute({ sql: migration.appliedProbe(prefix) })).rows.length === 0) throw error
      await db.execute({ sql: record, args: recordArgs })
    }
    version = migration.version
  }
  return version
}

/** A stable 31-bit key for PostgreSQL advisory locks (FNV-1a of the name). */
export function advisoryLockKey(scope: string): number {
  let hash = 0x811c9dc5
  for (let i = 0; i < scope.length; i++) {
    hash ^= scope.charCodeAt(i)
    hash = Math.imul(hash, 0x01000193)
  }
  return hash >>> 1
}
