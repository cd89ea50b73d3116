/**
 * Statement execution for the local Hrana-over-HTTP server (hrana-server.ts): the `execute`, `batch`,
 * `sequence` and `describe` requests of the Hrana spec (`tursodatabase/libsql` `docs/HRANA_3_SPEC.md`) on one
 * stream's SQLite connection, with the checks and results of libSQL's server (sqld,
 * `libsql-server/src/hrana/{stmt,batch}.rs`, `libsql-server/src/query.rs`).
 */
import { setTimeout as sleep } from 'node:timers/promises'
import Database from 'libsql'
import { isInsert, isWrite, splitStatements, type SqlStatement } from './hrana-sql.ts'
import { decodeNulSafeRows, isPureQuery, nulSafeQuery } from './hrana-text.ts'
import {
  expectArray, expectObject, isSyntaxError, ProtocolError, StmtError, stmtErrorFromSqlite, valueFromHrana, valueToHrana,
  type HranaError, type HranaValue, type SqliteValue,
} from './hrana-values.ts'

/** A connection of the `libsql` package. */
export type Connection = InstanceType<typeof Database>

/** Hrana 2 or 3; a few requests and conditions exist only in 3. */
export type Version = 2 | 3

/** The part of a Hrana stream that statements run on. */
export interface StreamState {
  /** The stream's own connection; `undefined` once a `close` request ran. */
  conn: Connection | undefined
  /** `store_sql` texts by `sql_id`. */
  readonly sqls: ReadonlyMap<number, string>
  /** To open a replacement connection (see {@link executeStmt}). */
  readonly databasePath: string
}

/** Hrana's `StmtResult`. */
export interface StmtResult {
  readonly cols: readonly { readonly name: string; readonly decltype: string | null }[]
  readonly rows: readonly (readonly HranaValue[])[]
  readonly affected_row_count: number
  readonly last_insert_rowid: string | null
}

/** A statement after sqld's up-front checks (`proto_stmt_to_query`), ready to bind and run. */
interface ParsedStmt {
  readonly statement: SqlStatement
  readonly args: readonly SqliteValue[]
  readonly namedArgs: ReadonlyMap<string, SqliteValue>
  readonly wantRows: boolean
}

type Cond = (results: readonly (StmtResult | null)[], errors: readonly (HranaError | null)[], conn: Connection) => boolean

/** How long a statement waits for another connection's lock; sqld's busy timeout is 5 s as well. */
const BUSY_TIMEOUT_MS = 5_000

/** Opens a connection the way every stream gets one. */
export function connect(path: string): Connection {
  const conn = new Database(path)
  conn.defaultSafeIntegers(true) // integers come back as bigint: exact beyond 2^53
  conn.exec('PRAGMA foreign_keys = ON')
  conn.exec('PRAGMA synchronous = NORMAL') // durable enough for a test server in WAL mode, and much faster
  return conn
}

/**
 * Closes a connection, rolling back first: `libsql` keeps the SQLite connection (and its transaction and
 * locks) open after `close()` for as long as any of its prepared statements is still reachable.
 */
export function disconnect(conn: Connection): void {
  try {
    if (conn.inTransaction) conn.exec('ROLLBACK')
  } catch {
    // The connection is being discarded either way; this also runs from the idle-stream timer, where a
    // throw would take the whole server down.
  }
  conn.close()
}

/** The `execute` request. */
export async function execute(stream: StreamState, stmtJson: unknown): Promise<StmtResult> {
  return runStmt(stream, parseStmt(stream, stmtJson))
}

/** The `batch` request: steps run in order, each only if its condition holds; failures land in `step_errors`. */
export async function executeBatch(stream: StreamState, batchJson: unknown, version: Version): Promise<object> {
  // sqld converts the whole batch first, so a malformed step fails the request before any step runs.
  const steps = expectArray(expectObject(batchJson, 'batch')['steps'], 'steps').map((stepJson, index) => {
    const step = expectObject(stepJson, 'batch step')
    const condition = step['condition']
    return {
      stmt: parseStmt(stream, step['stmt']),
      cond: condition === undefined || condition === null ? undefined : parseCond(condition, index, version),
    }
  })
  const stepResults: (StmtResult | null)[] = []
  const stepErrors: (HranaError | null)[] = []
  for (const { stmt, cond } of steps) {
    let result: StmtResult | null = null
    let error: HranaError | null = null
    if (cond === undefined || cond(stepResults, stepErrors, connection(stream))) {
      try {
        result = await runStmt(stream, stmt)
      } catch (caught) {
        error = asStmtError(caught).toHrana()
      }
    }
    stepResults.push(result)
    stepErrors.push(error)
  }
  return { step_results: stepResults, step_errors: stepErrors, replication_index: null }
}

/**
 * The `sequence` request, as sqld's `proto_sequence_to_program`: all statements parsed first, then run in
 * order without arguments until one fails.
 */
export async function executeSequence(stream: StreamState, request: Record<string, unknown>): Promise<void> {
  const statements = splitStatements(sqlOf(stream, request))
  checkSyntax(connection(stream), statements)
  for (const statement of statements) await runStmt(stream, { statement, args: [], namedArgs: new Map(), wantRows: false })
}

/** The `describe` request; `is_readonly` is judged from the verb, since `libsql` does not expose it. */
export function describe(stream: StreamState, request: Record<string, unknown>): object {
  const [statement] = splitStatements(sqlOf(stream, request))
  if (statement === undefined) return { params: [], cols: [], is_explain: false, is_readonly: true }
  try {
    const cols = connection(stream).prepare(statement.sql).columns().map((col) => ({ name: col.name, decltype: col.type }))
    return {
      params: statement.params.map((name) => ({ name: name ?? null })),
      cols,
      is_explain: statement.isExplain,
      is_readonly: statement.isExplain || ['SELECT', 'VALUES', 'BEGIN', 'COMMIT', 'END', 'ROLLBACK', 'SAVEPOINT', 'RELEASE'].includes(statement.verb),
    }
  } catch (error) {
    throw asStmtError(error)
  }
}

/** A `sql_id` as sent by the client: an integer. */
export function sqlId(json: unknown): number {
  if (!Number.isInteger(json)) throw new ProtocolError('sql_id must be an integer')
  return json as number
}

/** The stream's connection; using a closed stream is a protocol error (sqld's `BatonStreamClosed`). */
export function connection(stream: StreamState): Connection {
  if (stream.conn === undefined) throw new ProtocolError('The stream for this baton was closed')
  return stream.conn
}

/** sqld's `proto_stmt_to_query`: every check that needs no execution. */
function parseStmt(stream: StreamState, json: unknown): ParsedStmt {
  const stmt = expectObject(json, 'stmt')
  const sql = sqlOf(stream, stmt)
  const args = expectArray(stmt['args'], 'args').map(valueFromHrana)
  const namedArgs = new Map(
    expectArray(stmt['named_args'], 'named_args').map((json) => {
      const arg = expectObject(json, 'named arg')
      if (typeof arg['name'] !== 'string') throw new ProtocolError('named arg needs a name')
      return [arg['name'], valueFromHrana(arg['value'])] as const
    }),
  )
  const wantRows = stmt['want_rows'] ?? true
  if (typeof wantRows !== 'boolean') throw new ProtocolError('want_rows must be a boolean')
  const statements = splitStatements(sql)
  checkSyntax(connection(stream), statements)
  const [statement] = statements
  if (statement === undefined) throw new StmtError('SQL string does not contain any statement', 'SQL_NO_STATEMENT')
  if (statements.length > 1) throw new StmtError('SQL string contains more than one statement', 'SQL_MANY_STATEMENTS')
  if (args.length > 0 && namedArgs.size > 0) {
    throw new StmtError('Specifying both positional and named arguments is not supported', 'ARGS_BOTH_POSITIONAL_AND_NAMED')
  }
  return { statement, args, namedArgs, wantRows }
}

/**
 * sqld parses SQL with its own parser before SQLite prepares it, so a syntax error fails a request before
 * any of its statements ran. Preparing is the closest stand-in; other prepare errors (such as a table that an
 * earlier statement creates) are left for execution.
 */
function checkSyntax(conn: Connection, statements: readonly SqlStatement[]): void {
  for (const { sql } of statements) {
    try {
      conn.prepare(sql)
    } catch (error) {
      if (isSyntaxError(error)) throw stmtErrorFromSqlite(error)
    }
  }
}

/** sqld's `Params::bind`: names match with or without their prefix; `?NNN` and `?` take positional args. */
function bindArgs({ statement, args, namedArgs }: ParsedStmt): SqliteValue[] {
  const { params } = statement
  const given = args.length + namedArgs.size
  if (given > params.length) {
    throw new StmtError(`Arguments do not match SQL parameters: too many parameters, expected ${params.length} found ${given}`, 'ARGS_INVALID')
  }
  return params.map((name, index) => {
    let value: SqliteValue | undefined
    if (name === undefined) value = args[index]
    else if (name.startsWith('?')) value = args[Number(name.slice(1)) - 1]
    else value = namedArgs.has(name) ? namedArgs.get(name) : namedArgs.get(name.slice(1))
    if (value === undefined && !statement.isExplain) {
      throw new StmtError(`Arguments do not match SQL parameters: value for parameter ${name ?? index + 1} not found`, 'ARGS_INVALID')
    }
    return value ?? null
  })
}

async function runStmt(stream: StreamState, parsed: ParsedStmt): Promise<StmtResult> {
  const binds = bindArgs(parsed)
  const { statement, wantRows } = parsed
  const conn = connection(stream)
  let prepared: ReturnType<Connection['prepare']>
  let rows: unknown[][] = []
  try {
    prepared = await withBusyRetry(() => conn.prepare(statement.sql))
    const nulSafe = prepared.reader && wantRows && isPureQuery(statement) ? prepareNulSafe(conn, statement, prepared.columns().length) : undefined
    // Stepped to the end even when rows are not wanted, so every side effect and error happens (as sqld).
    if (nulSafe) await withBusyRetry(() => (rows = decodeNulSafeRows(nulSafe.raw().all(binds) as unknown[][])))
    else await withBusyRetry(() => (prepared.reader ? (rows = prepared.raw().all(binds) as unknown[][]) : prepared.run(binds)))
  } catch (error) {
    // `libsql` cannot reset a statement that gave up on SQLITE_BUSY, and while it stays active the connection's
    // later autocommit writes never commit. Inside a transaction the client's ROLLBACK clears it; outside
    // one, only a fresh connection does.
    if (isBusy(error) && !conn.inTransaction) {
      disconnect(conn)
      stream.conn = connect(stream.databasePath)
    }
    throw asStmtError(error)
  }
  // sqlite3_changes() keeps the count of the last INSERT/UPDATE/DELETE, so sqld reports it only for those,
  // and last_insert_rowid only for INSERTs (`libsql-server/src/connection/libsql.rs`).
  const [changes, rowid] = isWrite(statement)
    ? (conn.prepare('SELECT changes(), last_insert_rowid()').raw().get([]) as [bigint, bigint])
    : [0n, 0n]
  return {
    cols: prepared.columns().map((col) => ({ name: col.name, decltype: col.type })),
    rows: wantRows ? rows.map((row) => row.map(valueToHrana)) : [],
    affected_row_count: Number(changes),
    last_insert_rowid: isInsert(statement) ? rowid.toString() : null,
  }
}

/** The query wrapped to read TEXT with its NULs (hrana-text.ts), or undefined where SQLite refuses the wrapper. */
function prepareNulSafe(conn: Connection, statement: SqlStatement, columnCount: number): ReturnType<Connection['prepare']> | undefined {
  if (columnCount === 0) return undefined
  try {
    return conn.prepare(nulSafeQuery(statement.sql, columnCount))
  } catch {
    return undefined
  }
}

/** Batch conditions (spec "Batches"); a step may only look at earlier steps. */
function parseCond(json: unknown, stepIndex: number, version: Version): Cond {
  const cond = expectObject(json, 'condition')
  const step = (): number => {
    const index = cond['step']
    if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= stepIndex) {
      throw new ProtocolError('Batch condition refers to a step that is not before it')
    }
    return index
  }
  const list = (): Cond[] => expectArray(cond['conds'], 'conds').map((c) => parseCond(c, stepIndex, version))
  switch (cond['type']) {
    case 'ok': {
      const i = step()
      return (results) => results[i] !== null
    }
    case 'error': {
      const i = step()
      return (_results, errors) => errors[i] !== null
    }
    case 'not': {
      const inner = parseCond(cond['cond'], stepIndex, version)
      return (results, errors, conn) => !inner(results, errors, conn)
    }
    case 'and': {
      const conds = list()
      return (results, errors, conn) => conds.every((c) => c(results, errors, conn))
    }
    case 'or': {
      const conds = list()
      return (results, errors, conn) => conds.some((c) => c(results, errors, conn))
    }
    case 'is_autocommit':
      if (version < 3) throw new ProtocolError('Batch condition `is_autocommit` is only supported in Hrana 3')
      return (_results, _errors, conn) => !conn.inTransaction
    default:
      throw new ProtocolError(`Unknown batch condition ${JSON.stringify(cond['type'])}`)
  }
}

/** `sql` or `sql_id` (exactly one), the latter from the stream's `store_sql` cache. */
function sqlOf(stream: StreamState, holder: Record<string, unknown>): string {
  const sql = holder['sql']
  const id = holder['sql_id']
  if ((sql === undefined || sql === null) === (id === undefined || id === null)) throw new ProtocolError('Exactly one of sql and sql_id is required')
  if (typeof sql === 'string') return sql
  if (sql !== undefined && sql !== null) throw new ProtocolError('sql must be a string')
  const stored = stream.sqls.get(sqlId(id))
  if (stored === undefined) throw new ProtocolError(`SQL text with id ${String(id)} was not found`)
  return stored
}

function asStmtError(error: unknown): StmtError {
  return error instanceof StmtError ? error : stmtErrorFromSqlite(error)
}

/** SQLITE_BUSY_SNAPSHOT is left out: waiting cannot clear it, and SQLite skips the busy handler for it too. */
function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code
  return code === 'SQLITE_BUSY' || code === 'SQLITE_BUSY_RECOVERY'
}

/**
 * Calls `work` until it stops failing with SQLITE_BUSY or time runs out. SQLite's own busy_timeout would sleep
 * inside the synchronous `libsql` call and so block this single-threaded server, including the pipeline that
 * would COMMIT and free the lock; waiting here keeps the event loop serving. `work` must reuse one prepared
 * statement: running it again resets it, while a new one would leave the failed one active.
 */
async function withBusyRetry<T>(work: () => T): Promise<T> {
  const deadline = Date.now() + BUSY_TIMEOUT_MS
  for (let delay = 1; ; delay = Math.min(delay * 2, 50)) {
    try {
      return work()
    } catch (error) {
      if (!isBusy(error) || Date.now() + delay > deadline) throw error
      await sleep(delay)
    }
  }
}
