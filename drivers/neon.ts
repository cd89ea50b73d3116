import { neon, neonConfig, type FullQueryResults, type NeonQueryFunction } from '@neondatabase/serverless'
import { queryVersion, toSafeNumber, type BatchOptions, type Driver, type QueryResult, type RoundTripObserver, type Statement } from './driver.ts'
import { DriverError, isNetworkFailure, type DriverErrorCode } from './driver-error.ts'
import { postgresDialect } from './dialect/postgres.ts'
import { retryOnDeadlock } from './retry.ts'

export interface NeonConfig {
  /** `postgres://user:password@host/db` — the Neon connection string. */
  readonly url: string
  /**
   * SQL-over-HTTP endpoint override (`DATABASE_ENDPOINT`), e.g. `http://127.0.0.1:4444/sql` for the local
   * server. By default the client derives `https://api.<host>/sql` from the connection string.
   */
  readonly endpoint?: string
  readonly authToken?: string
}

/** PostgreSQL type ids whose text form pg-types leaves as a string: int8 and numeric. */
const BIG_NUMBER_TYPES = new Set([20, 1700])

/**
 * Neon over its HTTP query path (`@neondatabase/serverless`): one HTTP request per `execute`, and one per
 * `batch`, which the proxy runs as a single transaction (wire-protocols.md §1.2).
 */
export function createNeonDriver(config: NeonConfig, onRoundTrip?: RoundTripObserver): Driver {
  // fetchEndpoint is process-global in the client (NeonConfigGlobalOnly); one Loupe worker talks to one
  // Neon endpoint, so setting it here is safe.
  if (config.endpoint) neonConfig.fetchEndpoint = config.endpoint
  const sql: NeonQueryFunction<false, true> = neon(config.url, { fullResults: true, authToken: config.authToken })
  const driver: Driver = {
    name: 'neon',
    dialect: postgresDialect,
    version: () => queryVersion(driver),
    async execute<R>(statement: Statement) {
      try {
        const query = () => {
          onRoundTrip?.()
          return sql.query(postgresDialect.compile(statement.sql), [...(statement.args ?? [])])
        }
        const result = await retryOnDeadlock(query, isDeadlock)
        return toResult(result) as QueryResult<R>
      } catch (error) {
        throw toDriverError(error)
      }
    },
    async batch(statements: readonly Statement[], options?: BatchOptions) {
      if (statements.length === 0) return []
      try {
        const run = () => {
          onRoundTrip?.()
          const queries = statements.map((s) => sql.query(postgresDialect.compile(s.sql), [...(s.args ?? [])]))
          return sql.transaction(queries, { fullResults: true, readOnly: options?.mode === 'read' })
        }
        const results = await retryOnDeadlock(run, isDeadlock)
        return results.map(toResult)
      } catch (error) {
        throw toDriverError(error)
      }
    },
  }
  return driver
}

function toResult(result: FullQueryResults<false>): QueryResult {
  const bigColumns = result.fields.filter((f) => BIG_NUMBER_TYPES.has(f.dataTypeID)).map((f) => f.name)
  const rows = bigColumns.length === 0 ? result.rows : result.rows.map((row) => withNumbers(row, bigColumns))
  const first = rows[0]
  // PostgreSQL has no last-insert id: INSERTs that need one end in RETURNING id (dialect.returningId).
  const lastInsertId = result.command === 'INSERT' && first && typeof first.id === 'number' ? first.id : undefined
  return { rows, rowsAffected: result.rowCount ?? 0, lastInsertId }
}

function withNumbers(row: Record<string, unknown>, columns: string[]): Record<string, unknown> {
  const copy = { ...row }
  for (const column of columns) {
    const value = copy[column]
    if (typeof value === 'string') copy[column] = toSafeNumber(value)
  }
  return copy
}

/** The transaction was aborted to break a deadlock (40P01) or a serialization conflict (40001). */
function isDeadlock(error: unknown): boolean {
  const sqlState = (error as { code?: string })?.code
  return sqlState === '40P01' || sqlState === '40001'
}

/** SQLSTATE classes: 23 integrity constraint, 42 syntax/access rule, 08 connection, 57014 query cancelled. */
function toDriverError(error: unknown): DriverError {
  const native = error as { code?: string; message?: string; sourceError?: unknown }
  const message = native?.message ?? String(error)
  const sqlState = native?.code ?? ''
  let code: DriverErrorCode = 'unknown'
  if (sqlState.startsWith('23')) code = 'constraint'
  else if (sqlState.startsWith('42')) code = 'syntax'
  else if (sqlState === '57014') code = 'timeout'
  else if (
    sqlState.startsWith('08') ||
    isNetworkFailure(error) ||
    isNetworkFailure(native?.sourceError) ||
    /Server error \(HTTP status 5\d\d\)|Error connecting to database/i.test(message)
  )
    code = 'connection'
  return new DriverError(code, 'neon', message, { cause: error })
}
