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
 * Applies the migrations of one scope newer than `applied`, and records each. Safe when several isolates race:
 * PostgreSQL serialises them with an advisory lock, SQLite batches are serialised by the engine, statements are
 * idempotent (or the step has an `appliedProbe`) and the record is an insert-ignore.
 *
 * A new scope's steps, where DDL is transactional (SQLite, PostgreSQL), go in one atomic batch first: a new
 * application's schema is one round trip instead of one per step. Only a new scope's: its tables are empty,
 * where an existing one's data-moving steps together could outlast a batch's time limit. On libSQL it is also
 * one connection, which matters where many applications share a database: a connection that finds the schema
 * changed by another re-parses all of it (0.3 s at 150 applications' tables, in the test suites). When that
 * batch fails (a racing migrator applied a column-adding step first), nothing of it stays, and the steps run one
 * by one below, each with its own recovery.
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
  const pending = migrations.filter((migration) => migration.version > applied)
  if (pending.length === 0) return applied
  const lock = db.dialect.migrationLock(advisoryLockKey(scope))
  const locked = lock ? [{ sql: lock }] : []
  const record = db.dialect.insertIgnore('loupe_migrations', ['scope', 'version', 'name', 'applied_at'], 'VALUES (?, ?, ?, ?)', ['scope', 'version'])
  const recordOf = (migration: Migration): Statement => ({ sql: record, args: [scope, migration.version, migration.name, now] })
  const step = (migration: Migration): Statement[] => [...migration.statements(prefix).map((sql) => ({ sql })), recordOf(migration)]
  const latest = pending[pending.length - 1]!.version
  if (applied === 0 && pending.length > 1 && db.dialect.transactionalDdl) {
    try {
      await db.batch([...locked, ...pending.flatMap(step)])
      return latest
    } catch {
      // Rolled back whole; the step-by-step path below tells a step already in place from a real failure.
    }
  }
  for (const migration of pending) {
    for (let attempt = 1; ; attempt++) {
      try {
        await db.batch([...locked, ...step(migration)])
        break
      } catch (error) {
        // A step that cannot be idempotent fails when its changes are already there (migration.ts `appliedProbe`).
        if (migration.appliedProbe && (await db.execute({ sql: migration.appliedProbe(prefix) })).rows.length > 0) {
          await db.execute(recordOf(migration))
          break
        }
        // MySQL commits every DDL statement on its own, so a racing migrator can make a step fail half-way (a
        // duplicate index name seen in CI); every step is idempotent, so it runs again and finishes what is left.
        if (attempt >= MIGRATION_ATTEMPTS) throw error
        await new Promise((resolve) => setTimeout(resolve, 50 * attempt + Math.random() * 100))
      }
    }
  }
  return latest
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
