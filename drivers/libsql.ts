import { createClient, type Client, type InValue, type ResultSet } from '@libsql/client/web'
import { queryVersion, type BatchOptions, type Driver, type DriverOptions, type QueryResult, type RoundTripObserver, type SqlValue, type Statement } from './driver.ts'
import { withDeadline } from './deadline.ts'
import { DriverError, isNetworkFailure, type DriverErrorCode } from './driver-error.ts'
import { sqliteDialect } from './dialect/sqlite.ts'

/** The slice of `@libsql/client` this driver uses. */
export type LibsqlLike = Pick<Client, 'execute' | 'batch'>

export interface LibsqlConfig {
  readonly url: string
  readonly authToken?: string
}

/**
 * libSQL / Turso over Hrana-over-HTTP, with the web build of `@libsql/client` (Web fetch only). The client
 * sends `execute` as one pipeline and `batch` as one pipeline wrapped in BEGIN/COMMIT steps, so each call
 * is one round trip (wire-protocols.md §1.1). Under a deadline every HTTP request the client makes is
 * aborted when its time is up (the client takes no per-call signal; each call is one request), and the
 * call itself fails with `timeout` then.
 */
export function createLibsqlDriver(config: LibsqlConfig, onRoundTrip?: RoundTripObserver, options: DriverOptions = {}): Driver {
  const { timeoutMs } = options
  const clientFetch = (input: RequestInfo | URL, init?: RequestInit) => {
    onRoundTrip?.()
    if (!timeoutMs) return fetch(input, init)
    const deadline = AbortSignal.timeout(timeoutMs)
    return fetch(input, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, deadline]) : deadline })
  }
  const client = createClient({ url: config.url, authToken: config.authToken, intMode: 'number', fetch: clientFetch })
  return driverOverClient(client, options)
}

function driverOverClient(client: LibsqlLike, options: DriverOptions): Driver {
  const driver: Driver = {
    name: 'libsql',
    dialect: sqliteDialect,
    version: () => queryVersion(driver),
    async execute<R>(statement: Statement) {
      try {
        return toResult(await withDeadline('libsql', options.timeoutMs, () => client.execute(toStatement(statement)))) as QueryResult<R>
      } catch (error) {
        throw toDriverError(error)
      }
    },
    async batch(statements: readonly Statement[], batchOptions?: BatchOptions) {
      if (statements.length === 0) return []
      try {
        const mode = batchOptions?.mode === 'read' ? 'read' : 'write'
        const results = await withDeadline('libsql', options.timeoutMs, () => client.batch(statements.map(toStatement), mode))
        return results.map(toResult)
      } catch (error) {
        throw toDriverError(error)
      }
    },
  }
  return driver
}

function toStatement(statement: Statement) {
  return { sql: statement.sql, args: (statement.args ?? []).map(toInValue) }
}

function toInValue(value: SqlValue): InValue {
  return typeof value === 'boolean' ? (value ? 1 : 0) : value
}

/** libSQL rows are array-like objects with column-name properties; copy them into plain objects. */
function toResult(result: ResultSet): QueryResult {
  const { columns } = result
  const rows = result.rows.map((row) => {
    const plain: Record<string, unknown> = {}
    columns.forEach((column, index) => {
      plain[column] = row[index]
    })
    return plain
  })
  const lastInsertId = result.lastInsertRowid === undefined ? undefined : Number(result.lastInsertRowid)
  return { rows, rowsAffected: result.rowsAffected, lastInsertId: result.rowsAffected > 0 ? lastInsertId : undefined }
}

function toDriverError(error: unknown): DriverError {
  if (error instanceof DriverError) return error
  const native = error as { code?: string; extendedCode?: string; message?: string; statementIndex?: number; cause?: unknown }
  const message = native?.message ?? String(error)
  const code = native?.code ?? ''
  let mapped: DriverErrorCode = 'unknown'
  if (code.startsWith('SQLITE_CONSTRAINT') || native?.extendedCode?.startsWith('SQLITE_CONSTRAINT')) mapped = 'constraint'
  // sqld reports parse failures as SQL_PARSE_ERROR and positioned ones as SQL_INPUT_ERROR.
  else if (code === 'SQL_PARSE_ERROR' || code === 'SQL_INPUT_ERROR' || /syntax error|no such (table|column)/i.test(message)) mapped = 'syntax'
  else if (isNetworkFailure(error) || isNetworkFailure(native?.cause) || code === 'SERVER_ERROR' || code === 'HRANA_WEBSOCKET_ERROR')
    mapped = 'connection'
  return new DriverError(mapped, 'libsql', message, { cause: error, statementIndex: native?.statementIndex })
}
