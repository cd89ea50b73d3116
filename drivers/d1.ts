import type { BatchOptions, Driver, DriverOptions, QueryResult, RoundTripObserver, SqlValue, Statement } from './driver.ts'
import { withDeadline } from './deadline.ts'
import { DriverError, type DriverErrorCode } from './driver-error.ts'
import { sqliteDialect } from './dialect/sqlite.ts'

/** The slice of the D1 binding this driver uses (structural, so tests can pass miniflare's D1 from Node). */
export interface D1Like {
  prepare(sql: string): D1StatementLike
  batch(statements: D1StatementLike[]): Promise<D1ResultLike[]>
}
export interface D1StatementLike {
  bind(...values: unknown[]): D1StatementLike
  all(): Promise<D1ResultLike>
}
export interface D1ResultLike {
  results?: Record<string, unknown>[]
  meta?: { changes?: number; last_row_id?: number }
}

/**
 * D1, the embedded default. A D1 `batch()` is one atomic round trip (D1 rejects `BEGIN`, so batches are
 * the only transactions); `execute` is one `all()` call. A binding call cannot be aborted: past the
 * deadline the call fails with `timeout` while D1 finishes (or not) the statement or batch on its own —
 * atomically, so nothing is left half-written.
 */
export function createD1Driver(db: D1Like, onRoundTrip?: RoundTripObserver, options: DriverOptions = {}): Driver {
  const prepare = (statement: Statement) => {
    const prepared = db.prepare(statement.sql)
    return statement.args?.length ? prepared.bind(...statement.args.map(toD1Value)) : prepared
  }
  const driver: Driver = {
    name: 'd1',
    dialect: sqliteDialect,
    // D1 refuses sqlite_version() ("not authorized to use function"), so only reachability is checked.
    version: async () => {
      await driver.execute({ sql: 'SELECT 1 AS ok' })
      return 'SQLite (Cloudflare D1)'
    },
    async execute<R>(statement: Statement) {
      onRoundTrip?.()
      try {
        return toResult(await withDeadline('d1', options.timeoutMs, () => prepare(statement).all())) as QueryResult<R>
      } catch (error) {
        throw toDriverError(error)
      }
    },
    async batch(statements: readonly Statement[], _options?: BatchOptions) {
      if (statements.length === 0) return []
      onRoundTrip?.()
      try {
        return (await withDeadline('d1', options.timeoutMs, () => db.batch(statements.map(prepare)))).map(toResult)
      } catch (error) {
        throw toDriverError(error)
      }
    },
  }
  return driver
}

function toResult(result: D1ResultLike): QueryResult {
  const changes = result.meta?.changes ?? 0
  return {
    rows: result.results ?? [],
    rowsAffected: changes,
    lastInsertId: changes > 0 ? result.meta?.last_row_id : undefined,
  }
}

/** D1 binds numbers, strings, null and ArrayBuffers; booleans and bigints are normalised first. */
function toD1Value(value: SqlValue): unknown {
  if (typeof value === 'boolean') return value ? 1 : 0
  if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString()
  return value
}

/** D1 reports errors as plain Errors whose message carries the SQLite text (e.g. "D1_ERROR: UNIQUE constraint failed"). */
function toDriverError(error: unknown): DriverError {
  if (error instanceof DriverError) return error
  const message = error instanceof Error ? error.message : String(error)
  let code: DriverErrorCode = 'unknown'
  if (/constraint failed/i.test(message)) code = 'constraint'
  else if (/syntax error|no such (table|column)|has no column/i.test(message)) code = 'syntax'
  else if (/network|connection|unavailable|reset/i.test(message)) code = 'connection'
  else if (/timeout|timed out/i.test(message)) code = 'timeout'
  return new DriverError(code, 'd1', message, { cause: error })
}
