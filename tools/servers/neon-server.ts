/**
 * Local Neon "SQL over HTTP" server over real PostgreSQL (through `pg`), for tests and development.
 *
 * It speaks the contract of Neon's proxy (`neondatabase/neon` `proxy/src/serverless/sql_over_http.rs`) as
 * the real `@neondatabase/serverless` 1.2.0 `neon()` client uses it with `neonConfig.fetchEndpoint` pointed
 * here; see /work/shared/spec/wire-protocols.md §1.2 and §5b. Reachable from Node and from inside workerd.
 *
 * CLI: `npx tsx tools/servers/neon-server.ts [--port 4444] [--host 127.0.0.1]` prints the endpoint URL.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import pg from 'pg'
import { errorBody, parsePayload, PayloadError, toNeonResult, type NeonResult, type QueryData } from './neon-result.ts'

/** Where the server listens. */
export interface NeonServerOptions {
  /** Interface to bind; default `127.0.0.1`. */
  readonly host?: string
  /** TCP port; default 0 (an ephemeral port, read it back from `url`). */
  readonly port?: number
  /**
   * The databases this endpoint serves; default any. A real Neon endpoint fronts one project's compute, so
   * a connection string for another project's database gets an error there; tests with two Neon targets
   * (APP_DATABASES) give each its own server serving only its database, so a request sent to the wrong
   * endpoint fails instead of quietly working.
   */
  readonly databases?: readonly string[]
}

/** A started server. */
export interface RunningServer {
  /** `http://HOST:PORT/sql`: the value for `neonConfig.fetchEndpoint`. */
  readonly url: string
  /** Stops listening, drops open HTTP connections and ends every PostgreSQL pool. */
  close(): Promise<void>
}

/** Header values from the proxy's `HttpHeaders::try_parse`; anything but exactly `true` counts as false. */
interface RequestOptions {
  readonly rawOutput: boolean
  readonly arrayMode: boolean
  readonly isolationLevel: string | undefined
  readonly readOnly: boolean
  readonly deferrable: boolean
}

/** A pool per database/user, plus that database's array-type cache for the non-raw JSON conversion. */
interface Target {
  readonly pool: pg.Pool
  readonly arrayElements: Map<number, number>
}

/** The proxy's `map_header_to_isolation_level`. */
const ISOLATION_LEVELS: Readonly<Record<string, string>> = {
  ReadUncommitted: 'READ UNCOMMITTED',
  ReadCommitted: 'READ COMMITTED',
  RepeatableRead: 'REPEATABLE READ',
  Serializable: 'SERIALIZABLE',
}

/** The proxy's OPTIONS answer (`serverless/mod.rs`), for browsers' CORS preflight. */
const PREFLIGHT_HEADERS = {
  Allow: 'OPTIONS, POST',
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Headers':
    'Authorization, Neon-Connection-String, Neon-Raw-Text-Output, Neon-Array-Mode, Neon-Pool-Opt-In, Neon-Batch-Read-Only, Neon-Batch-Isolation-Level',
  'Access-Control-Max-Age': '86400',
}

/** Identity parser for every OID: the proxy reads text values (`query_raw_txt`), so nothing is parsed here. */
const RAW_TYPES = { getTypeParser: () => (text: string) => text } as unknown as pg.CustomTypesConfig

/** Transaction status from the last ReadyForQuery ('I' idle, 'T' in a transaction, 'E' failed transaction). */
const txStatus = new WeakMap<pg.PoolClient, string>()

/** A failure answered with `status` and a JSON `body`. */
class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(typeof body === 'string' ? body : JSON.stringify(body))
  }
}

/** Starts the server; resolves once it listens. */
export async function startNeonServer(options: NeonServerOptions = {}): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1'
  const targets = new Map<string, Target>()
  const server = createServer((req, res) => {
    handle(req, res, targets, options.databases).catch((error: unknown) => send(res, 500, { message: String(error) }))
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, host, () => resolve())
  })
  const { port } = server.address() as AddressInfo
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}/sql`,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()))
      server.closeAllConnections()
      await closed
      await Promise.all([...targets.values()].map((t) => t.pool.end()))
      targets.clear()
    },
  }
}

async function handle(req: IncomingMessage, res: ServerResponse, targets: Map<string, Target>, databases: readonly string[] | undefined): Promise<void> {
  const path = new URL(req.url ?? '/', 'http://localhost').pathname
  if (path === '/sql' && req.method === 'OPTIONS') return send(res, 200, undefined, PREFLIGHT_HEADERS)
  // The proxy answers any other route with a bare JSON string.
  if (path !== '/sql' || req.method !== 'POST') return send(res, 400, 'query is not supported')
  try {
    const target = targetFor(req.headers['neon-connection-string'], targets, databases)
    const opts = requestOptions(req)
    let payload
    try {
      payload = parsePayload(await readBody(req))
    } catch (error) {
      throw error instanceof PayloadError ? new HttpError(400, { message: error.message }) : error
    }
    const client = await connect(target)
    if (payload.kind === 'single') {
      const result = await withRelease(client, () => execute(client, target, payload.query, opts))
      return send(res, 200, result)
    }
    const results = await withRelease(client, () => executeBatch(client, target, payload.queries, opts))
    // The proxy echoes the transaction options it applied.
    const echo: Record<string, string> = {}
    if (opts.readOnly) echo['Neon-Batch-Read-Only'] = 'true'
    if (opts.deferrable) echo['Neon-Batch-Deferrable'] = 'true'
    if (opts.isolationLevel !== undefined) echo['Neon-Batch-Isolation-Level'] = opts.isolationLevel
    return send(res, 200, { results }, echo)
  } catch (error) {
    if (error instanceof HttpError) return send(res, error.status, error.body)
    // Postgres errors, and lost connections mid-query, are `SqlOverHttpError::Postgres`: always 400.
    return send(res, 400, error instanceof pg.DatabaseError ? errorBody(error) : { message: String((error as Error).message ?? error) })
  }
}

function requestOptions(req: IncomingMessage): RequestOptions {
  const flag = (name: string): boolean => req.headers[name] === 'true'
  const level = req.headers['neon-batch-isolation-level']
  if (level !== undefined && (typeof level !== 'string' || !(level in ISOLATION_LEVELS))) {
    throw new HttpError(400, { message: 'invalid isolation level' })
  }
  return {
    rawOutput: flag('neon-raw-text-output'),
    arrayMode: flag('neon-array-mode'),
    isolationLevel: level,
    readOnly: flag('neon-batch-read-only'),
    deferrable: flag('neon-batch-deferrable'),
  }
}

/** Resolves (creating on first use) the pool for the connection string's host, port, database and user. */
function targetFor(connectionString: string | string[] | undefined, targets: Map<string, Target>, databases: readonly string[] | undefined): Target {
  if (typeof connectionString !== 'string' || connectionString === '') {
    throw new HttpError(400, { message: 'missing connection string' })
  }
  let url: URL
  try {
    url = new URL(connectionString)
  } catch {
    throw new HttpError(400, { message: 'invalid connection string: not a URL' })
  }
  const database = decodeURIComponent(url.pathname.slice(1))
  const user = decodeURIComponent(url.username)
  if (!['postgres:', 'postgresql:'].includes(url.protocol) || user === '' || database === '' || url.hostname === '') {
    throw new HttpError(400, { message: 'invalid connection string: expected postgres(ql)://user:password@host/database' })
  }
  if (databases !== undefined && !databases.includes(database)) {
    // What PostgreSQL answers for a database its cluster does not have.
    throw new HttpError(400, { message: `database "${database}" does not exist`, code: '3D000', severity: 'FATAL' })
  }
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1')
  const port = Number(url.port || 5432)
  const key = JSON.stringify([host, port, database, user])
  let target = targets.get(key)
  if (target === undefined) {
    // Query parameters (sslmode, options, …) are dropped: only application_name is meaningful to a local pg.
    const applicationName = url.searchParams.get('application_name') ?? undefined
    const pool = new pg.Pool({
      host, port, database, user, password: decodeURIComponent(url.password),
      ...(applicationName === undefined ? {} : { application_name: applicationName }),
      max: 8, idleTimeoutMillis: 10_000, allowExitOnIdle: true,
    })
    pool.on('error', () => {}) // an idle client lost its connection; the pool already dropped it
    pool.on('connect', (client) => {
      client.on('error', () => {}) // surfaced through the failing query instead of crashing the process
      client.connection.on('readyForQuery', (msg: { status: string }) => txStatus.set(client, msg.status))
    })
    target = { pool, arrayElements: new Map() }
    targets.set(key, target)
  }
  return target
}

/**
 * Checks out a connection. Errors Postgres reports (unknown database or role) are user errors, 400 with
 * their fields; anything else (nothing listening, DNS) stands for "could not reach the compute": 502.
 */
async function connect(target: Target): Promise<pg.PoolClient> {
  try {
    return await target.pool.connect()
  } catch (error) {
    if (error instanceof pg.DatabaseError) throw error
    throw new HttpError(502, { message: `Couldn't connect to compute node: ${(error as Error).message}` })
  }
}

/**
 * Runs `work`, then returns the connection to the pool only if it is idle and healthy, as the proxy's
 * `Discard::check_idle` does: a single `BEGIN`, or a broken connection, must not leak into the next request.
 */
async function withRelease<T>(client: pg.PoolClient, work: () => Promise<T>): Promise<T> {
  let healthy = true
  try {
    return await work()
  } catch (error) {
    healthy = error instanceof pg.DatabaseError
    throw error
  } finally {
    client.release(!healthy || txStatus.get(client) !== 'I')
  }
}

/** `query_to_json`: one statement over the extended protocol (one statement only, text results). */
async function execute(client: pg.PoolClient, target: Target, data: QueryData, opts: RequestOptions): Promise<NeonResult> {
  const result = await client.query({
    text: data.query,
    values: [...data.params],
    rowMode: 'array',
    types: RAW_TYPES,
    queryMode: 'extended', // like `query_raw_txt`, even without params: no multi-statement strings
  } as pg.QueryArrayConfig & { queryMode: 'extended' })
  return toNeonResult(result, {
    rawOutput: opts.rawOutput,
    arrayMode: data.arrayMode ?? opts.arrayMode,
    arrayElement: (oid) => arrayElement(client, target, oid),
  })
}

/** `BatchQueryData::process`: one transaction with the header options, rolled back on the first error. */
async function executeBatch(client: pg.PoolClient, target: Target, queries: readonly QueryData[], opts: RequestOptions): Promise<NeonResult[]> {
  // tokio-postgres' `build_transaction` only names the options that were set.
  const modes = [
    ...(opts.isolationLevel === undefined ? [] : [`ISOLATION LEVEL ${ISOLATION_LEVELS[opts.isolationLevel]}`]),
    ...(opts.readOnly ? ['READ ONLY'] : []),
    ...(opts.deferrable ? ['DEFERRABLE'] : []),
  ]
  await client.query(`START TRANSACTION ${modes.join(', ')}`.trim())
  const results: NeonResult[] = []
  try {
    for (const data of queries) results.push(await execute(client, target, data, opts))
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {}) // the proxy only logs a failed rollback
    throw error
  }
  await client.query('COMMIT')
  return results
}

/** Element OID of an array type (0 if not an array), cached per database; only the non-raw JSON mode asks. */
async function arrayElement(client: pg.PoolClient, target: Target, oid: number): Promise<number> {
  let element = target.arrayElements.get(oid)
  if (element === undefined) {
    const { rows } = await client.query<{ typelem: number }>(
      "SELECT typelem::int4 AS typelem FROM pg_type WHERE oid = $1 AND typcategory = 'A'",
      [oid],
    )
    element = rows[0]?.typelem ?? 0
    target.arrayElements.set(oid, element)
  }
  return element
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    req.on('error', reject)
  })
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent) return void res.end()
  const text = body === undefined ? '' : JSON.stringify(body)
  res.writeHead(status, {
    'Access-Control-Allow-Origin': '*',
    ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    'Content-Length': String(Buffer.byteLength(text)),
    ...headers,
  })
  res.end(text)
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({ options: { port: { type: 'string' }, host: { type: 'string' } } })
  const running = await startNeonServer({
    ...(values.host === undefined ? {} : { host: values.host }),
    ...(values.port === undefined ? {} : { port: Number(values.port) }),
  })
  console.log(running.url)
  const stop = (): void => void running.close().then(() => process.exit(0))
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
}
