import type { Dialect } from './dialect/dialect.ts'

/** A value that can be bound to a statement parameter on every engine. */
export type SqlValue = string | number | bigint | boolean | null | Uint8Array

/**
 * One SQL statement written once with `?` placeholders; the driver rewrites them where its engine differs
 * (`$n` on PostgreSQL, client-side interpolation on PlanetScale).
 */
export interface Statement {
  readonly sql: string
  readonly args?: readonly SqlValue[]
}

export type Row = Record<string, unknown>

/**
 * The normalised result of one statement. Integers come back as JS numbers on every engine (PostgreSQL
 * `int8`/`numeric` and MySQL `INT64`/`DECIMAL` arrive as strings and are converted by the driver), so domain
 * code never sees engine-specific types.
 */
export interface QueryResult<R = Row> {
  readonly rows: R[]
  readonly rowsAffected: number
  /** Auto-increment id of the inserted row, where the engine reports one (not PostgreSQL: use RETURNING). */
  readonly lastInsertId?: number
}

export type DriverName = 'd1' | 'libsql' | 'neon' | 'planetscale'

export interface BatchOptions {
  /**
   * `write` (default) runs the statements atomically in one transaction. `read` promises that every
   * statement only reads, which lets a driver skip the transaction (PlanetScale then sends the statements
   * concurrently instead of wrapping them in BEGIN/COMMIT round trips).
   */
  readonly mode?: 'read' | 'write'
  /**
   * In a `write` batch: the last `readBack` statements only read what the writes left (a write's read-back,
   * an existence check). A driver that sends each statement as its own request (PlanetScale) may run them
   * concurrently right after the writes commit instead of inside the transaction, so a write of one
   * statement needs no BEGIN/COMMIT (issue 18). Only for reads that stay correct when another request's
   * commit lands in between; the other drivers run the batch as one transaction, as ever.
   */
  readonly readBack?: number
}

/** How a driver behaves beyond where its database is. */
export interface DriverOptions {
  /**
   * Deadline of each `execute`/`batch`/`version` call in milliseconds (SERVICE_CONFIG `database.timeout_ms`);
   * past it the call fails with a `timeout` DriverError and its HTTP request is aborted. 0 or absent: none.
   */
  readonly timeoutMs?: number
}

/** Receives one call per network round trip (or binding call, for D1) the driver makes. */
export type RoundTripObserver = () => void

/**
 * The whole database contract (design.md §2): one statement, or an atomic batch. There are no interactive
 * transactions because D1 rejects `BEGIN` and Neon's HTTP path only batches.
 *
 * @example
 * const { rows } = await db.execute({ sql: 'SELECT id FROM t WHERE name = ?', args: ['x'] })
 * await db.batch([{ sql: 'INSERT INTO t (name) VALUES (?)', args: ['a'] }, { sql: 'DELETE FROM u' }])
 */
export interface Driver {
  readonly name: DriverName
  readonly dialect: Dialect
  execute<R = Row>(statement: Statement): Promise<QueryResult<R>>
  /** Runs every statement or none; results are in statement order. An empty batch is a no-op. */
  batch(statements: readonly Statement[], options?: BatchOptions): Promise<QueryResult[]>
  /** The engine and its version, e.g. `PostgreSQL 15.20` (one round trip; used by health). */
  version(): Promise<string>
}

/** `version()` for engines that answer the dialect's version query. */
export async function queryVersion(driver: Pick<Driver, 'execute' | 'dialect'>): Promise<string> {
  const { rows } = await driver.execute<{ version: unknown }>({ sql: driver.dialect.versionQuery })
  return driver.dialect.describeVersion(String(rows[0]?.version ?? ''))
}

/** Turns a PostgreSQL/MySQL big-number string into a number when it is exactly representable. */
export function toSafeNumber(value: string): number | string {
  const n = Number(value)
  if (!Number.isFinite(n)) return value
  if (Number.isInteger(n) && !Number.isSafeInteger(n)) return value
  return n
}
