import { neon, neonConfig, type FullQueryResults, type NeonQueryFunction } from '@neondatabase/serverless'
import { queryVersion, toSafeNumber, type BatchOptions, type Driver, type DriverOptions, type QueryResult, type RoundTripObserver, type SqlValue, type Statement } from './driver.ts'
import { DriverError, isNetworkFailure, type DriverErrorCode } from './driver-error.ts'
import { postgresDialect } from './dialect/postgres.ts'
import { withDeadline } from './deadline.ts'
import { decodeValue, encodeJsonText, encodeText, jsonParameters } from './neon-text.ts'
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

/** The fetch option carrying a target's endpoint to {@link routeToEndpoint}. */
const ENDPOINT_OPTION = 'loupeEndpoint'

/**
 * The client's `fetchEndpoint` and `fetchFunction` are process-global (`NeonConfigGlobalOnly`), so setting
 * the endpoint per driver let requests of one target reach another's endpoint when an isolate talks to two
 * Neon targets (issue 10, `APP_DATABASES`). Instead the endpoint travels with each request, in the
 * per-query `fetchOptions` (which the client spreads into the fetch init), and this one global fetch
 * function sends the request there. Requests without it go where the client derived (`api.<host>`).
 */
function routeToEndpoint(input: string | URL, init?: RequestInit & { [ENDPOINT_OPTION]?: string }): Promise<Response> {
  if (!init || init[ENDPOINT_OPTION] === undefined) return fetch(input, init)
  const { [ENDPOINT_OPTION]: endpoint, ...rest } = init
  return fetch(endpoint, rest)
}

/**
 * Neon over its HTTP query path (`@neondatabase/serverless`): one HTTP request per `execute`, and one per
 * `batch`, which the proxy runs as a single transaction (wire-protocols.md §1.2). Text goes through the
 * NUL escape of neon-text.ts both ways.
 */
export function createNeonDriver(config: NeonConfig, onRoundTrip?: RoundTripObserver, options: DriverOptions = {}): Driver {
  neonConfig.fetchFunction = routeToEndpoint
  const sql: NeonQueryFunction<false, true> = neon(config.url, { fullResults: true, authToken: config.authToken })
  const fetchOptions = (signal: AbortSignal | undefined) => ({
    ...(config.endpoint ? { [ENDPOINT_OPTION]: config.endpoint } : {}),
    ...(signal ? { signal } : {}),
  })
  const query = (statement: Statement, signal: AbortSignal | undefined) => {
    const text = postgresDialect.compile(statement.sql)
    return sql.query(text, encodeArgs(statement.args, jsonParameters(text)), { fetchOptions: fetchOptions(signal) })
  }
  const driver: Driver = {
    name: 'neon',
    dialect: postgresDialect,
    version: () => queryVersion(driver),
    async execute<R>(statement: Statement) {
      try {
        const result = await withDeadline('neon', options.timeoutMs, (signal) =>
          retryOnDeadlock(() => {
            onRoundTrip?.()
            return query(statement, signal)
          }, isDeadlock),
        )
        return toResult(result) as QueryResult<R>
      } catch (error) {
        throw toDriverError(error)
      }
    },
    async batch(statements: readonly Statement[], batchOptions?: BatchOptions) {
      if (statements.length === 0) return []
      try {
        const results = await withDeadline('neon', options.timeoutMs, (signal) =>
          retryOnDeadlock(() => {
            onRoundTrip?.()
            return sql.transaction(statements.map((s) => query(s, signal)), {
              fullResults: true,
              readOnly: batchOptions?.mode === 'read',
              fetchOptions: fetchOptions(signal),
            })
          }, isDeadlock),
        )
        return results.map(toResult)
      } catch (error) {
        throw toDriverError(error)
      }
    },
  }
  return driver
}

/** Strings escaped for PostgreSQL text; JSON parameters escaped inside their string values. */
function encodeArgs(args: readonly SqlValue[] | undefined, json: ReadonlySet<number>): unknown[] {
  return (args ?? []).map((value, index) => (typeof value !== 'string' ? value : json.has(index + 1) ? encodeJsonText(value) : encodeText(value)))
}

function toResult(result: FullQueryResults<false>): QueryResult {
  const bigColumns = new Set(result.fields.filter((f) => BIG_NUMBER_TYPES.has(f.dataTypeID)).map((f) => f.name))
  const rows = result.rows.map((row) => {
    const plain: Record<string, unknown> = {}
    for (const [column, value] of Object.entries(row)) {
      plain[column] = bigColumns.has(column) && typeof value === 'string' ? toSafeNumber(value) : decodeValue(value)
    }
    return plain
  })
  const first = rows[0]
  // PostgreSQL has no last-insert id: INSERTs that need one end in RETURNING id (dialect.returningId).
  const lastInsertId = result.command === 'INSERT' && first && typeof first.id === 'number' ? first.id : undefined
  return { rows, rowsAffected: result.rowCount ?? 0, lastInsertId }
}

/** The transaction was aborted to break a deadlock (40P01) or a serialization conflict (40001). */
function isDeadlock(error: unknown): boolean {
  const sqlState = (error as { code?: string })?.code
  return sqlState === '40P01' || sqlState === '40001'
}

/** SQLSTATE classes: 23 integrity constraint, 42 syntax/access rule, 08 connection, 57014 query cancelled. */
function toDriverError(error: unknown): DriverError {
  if (error instanceof DriverError) return error
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
