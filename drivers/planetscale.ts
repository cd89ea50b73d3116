import { cast, connect, type Config, type Field } from '@planetscale/database'
import { queryVersion, toSafeNumber, type BatchOptions, type Driver, type DriverOptions, type QueryResult, type RoundTripObserver, type SqlValue, type Statement } from './driver.ts'
import { fetchWithSignal, withDeadline } from './deadline.ts'
import { DriverError, isNetworkFailure, type DriverErrorCode } from './driver-error.ts'
import { mysqlDialect } from './dialect/mysql.ts'
import { retryOnDeadlock } from './retry.ts'

export interface PlanetscaleConfig {
  /** `mysql://user:password@host` (https) or `http://user:password@127.0.0.1:port` for a local server. */
  readonly url: string
}

/** Vitess types the client leaves as strings; Loupe wants numbers wherever they are exact. */
const STRING_NUMBER_TYPES = new Set(['INT64', 'UINT64', 'DECIMAL'])

/**
 * PlanetScale over its HTTP API (`@planetscale/database`). There is no multi-statement request: a write
 * batch is the client's `transaction()` — BEGIN, each statement, COMMIT, each its own HTTP request and
 * session-pinned on the server — and a read batch sends its statements concurrently without a transaction
 * (wire-protocols.md §1.3; planetscale/database-js issues 85 and 119: one statement per `Execute`). So a
 * write's cost here is its statement count: callers fold statements (docs/performance-writes.md) and mark
 * read-backs (`BatchOptions.readBack`), which run after COMMIT.
 */
export function createPlanetscaleDriver(config: PlanetscaleConfig, onRoundTrip?: RoundTripObserver, options: DriverOptions = {}): Driver {
  // A call's requests (a transaction's BEGIN, statements and COMMIT) share the call's deadline signal.
  const clientConfig = (signal: AbortSignal | undefined): Config => ({
    url: config.url,
    cast: castNumbers,
    fetch: (input, init) => {
      onRoundTrip?.()
      return fetchWithSignal(signal)(input, init)
    },
  })
  // A Connection carries session state from reply to reply, so concurrent statements each get their own.
  const run = async (statement: Statement, signal: AbortSignal | undefined) =>
    toResult(await connect(clientConfig(signal)).execute(statement.sql, toArgs(statement.args)))
  /** Statements that must all take effect or none: one alone is atomic, more are a transaction. */
  const write = async (statements: readonly Statement[], signal: AbortSignal | undefined): Promise<QueryResult[]> => {
    if (statements.length === 0) return []
    // One statement is atomic on its own: no BEGIN/COMMIT round trips for it.
    if (statements.length === 1) return [await retryOnDeadlock(() => run(statements[0]!, signal), isDeadlock)]
    // An aborted transaction never reaches COMMIT; the server rolls it back when its session idles out.
    const transaction = () =>
      connect(clientConfig(signal)).transaction(async (tx) => {
        const results: QueryResult[] = []
        for (const statement of statements) results.push(toResult(await tx.execute(statement.sql, toArgs(statement.args))))
        return results
      })
    return await retryOnDeadlock(transaction, isDeadlock)
  }
  const driver: Driver = {
    name: 'planetscale',
    dialect: mysqlDialect,
    version: () => queryVersion(driver),
    async execute<R>(statement: Statement) {
      try {
        return (await withDeadline('planetscale', options.timeoutMs, (signal) => retryOnDeadlock(() => run(statement, signal), isDeadlock))) as QueryResult<R>
      } catch (error) {
        throw toDriverError(error)
      }
    },
    async batch(statements: readonly Statement[], batchOptions?: BatchOptions) {
      if (statements.length === 0) return []
      try {
        return await withDeadline('planetscale', options.timeoutMs, async (signal) => {
          if (batchOptions?.mode === 'read') return await Promise.all(statements.map((s) => run(s, signal)))
          // The read-back runs after COMMIT, its statements concurrently: it costs one round trip of latency
          // and spares a one-statement write its BEGIN and COMMIT (BatchOptions.readBack).
          const split = statements.length - Math.min(Math.max(batchOptions?.readBack ?? 0, 0), statements.length)
          const written = await write(statements.slice(0, split), signal)
          return [...written, ...(await Promise.all(statements.slice(split).map((s) => run(s, signal))))]
        })
      } catch (error) {
        throw toDriverError(error)
      }
    },
  }
  return driver
}

function castNumbers(field: Field, value: unknown): unknown {
  const cast_ = cast(field, value as string | null)
  return STRING_NUMBER_TYPES.has(field.type) && typeof cast_ === 'string' ? toSafeNumber(cast_) : cast_
}

/** The client formats arguments into the SQL text itself; bigints go in as decimal strings of digits. */
function toArgs(args: readonly SqlValue[] | undefined): unknown[] {
  return (args ?? []).map((value) => (typeof value === 'bigint' ? value.toString() : value))
}

function toResult(result: { rows: unknown[]; rowsAffected: number; insertId: string }): QueryResult {
  const insertId = Number(result.insertId)
  return {
    rows: result.rows as Record<string, unknown>[],
    rowsAffected: result.rowsAffected ?? 0,
    lastInsertId: insertId > 0 ? insertId : undefined,
  }
}

/**
 * The transaction was rolled back by the engine and may simply run again: InnoDB chose it as a deadlock
 * victim (errno 1213), or MariaDB failed to read the auto-increment value (errno 1467), which concurrent
 * reindex-and-import batches provoke when another transaction holds the table's auto-increment lock
 * (seen under issue 10's concurrency suite). The client rolls the transaction back before rethrowing.
 */
export function isDeadlock(error: unknown): boolean {
  return /\(errno (1213|1467)\)/.test((error as { message?: string })?.message ?? '')
}

/**
 * Vitess appends `(errno N) (sqlstate S)` to MySQL errors: 1062 duplicate key, 1451/1452 foreign key,
 * 1048/1364 NOT NULL; 1064 syntax, 1146 no such table, 1054 no such column. Non-2xx replies are transport
 * failures (DatabaseError status ≥ 500, or an UnknownError for non-JSON bodies).
 */
function toDriverError(error: unknown): DriverError {
  if (error instanceof DriverError) return error
  const native = error as { message?: string; status?: number; body?: { code?: string } }
  const message = native?.message ?? String(error)
  const errno = Number(/\(errno (\d+)\)/.exec(message)?.[1] ?? /errno[ =:]+(\d+)/i.exec(message)?.[1] ?? 0)
  let code: DriverErrorCode = 'unknown'
  if ([1062, 1451, 1452, 1048, 1364, 1216, 1217].includes(errno)) code = 'constraint'
  else if ([1064, 1146, 1054].includes(errno)) code = 'syntax'
  else if ([3024, 1317].includes(errno)) code = 'timeout'
  else if (isNetworkFailure(error) || (native?.status !== undefined && (native.status >= 500 || native.status === 401)))
    code = 'connection'
  return new DriverError(code, 'planetscale', message, { cause: error })
}
