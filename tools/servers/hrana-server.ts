/**
 * Local Hrana-over-HTTP server over real SQLite (through the native `libsql` package), for tests and
 * development: the project's libSQL driver talks to it with the real `@libsql/client`, from Node and from
 * inside workerd. See /work/shared/spec/wire-protocols.md §1.1 and §5a.
 *
 * It speaks Hrana 2 JSON (`POST /v2/pipeline`, what `@libsql/client` uses) and Hrana 3 JSON
 * (`POST /v3/pipeline`), following the spec (`tursodatabase/libsql` `docs/HRANA_3_SPEC.md`) and, where the
 * spec leaves room, libSQL's own server (sqld, `libsql-server/src/hrana/`): error codes and messages,
 * `last_insert_rowid` only for INSERT, argument checks, baton errors. `GET /v3-protobuf` answers 404 so that
 * clients asking for version 3 fall back to v2 JSON.
 *
 * CLI: `npx tsx tools/servers/hrana-server.ts --db ./file.db [--port 8080] [--host 127.0.0.1] [--token T]`
 * prints the URL (the value for `createClient({ url })`) and serves until killed.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import {
  connect, connection, describe, disconnect, execute, executeBatch, executeSequence, sqlId, type Connection, type StreamState, type Version,
} from './hrana-execute.ts'
import { expectArray, expectObject, ProtocolError, StmtError } from './hrana-values.ts'

/** Where the server keeps its data and how it listens. */
export interface HranaServerOptions {
  /** Path of the SQLite database file, or ':memory:'. */
  readonly databasePath: string
  /** Interface to bind; default `127.0.0.1`. */
  readonly host?: string
  /** TCP port; default 0 (an ephemeral port, read it back from `url`). */
  readonly port?: number
  /** When set, requests must carry `Authorization: Bearer <authToken>`; otherwise 401. */
  readonly authToken?: string
}

/** A started server. */
export interface RunningServer {
  /** `http://HOST:PORT`: the value for `createClient({ url })`. */
  readonly url: string
  /** Stops listening, rolls back and closes every stream, and deletes a ':memory:' database. */
  close(): Promise<void>
}

/** A Hrana stream: one SQLite connection, so an interactive transaction spans several pipelines. */
interface Stream extends StreamState {
  readonly id: string
  readonly sqls: Map<number, string>
  /** The baton the next pipeline must present; `undefined` while a pipeline runs (requests are sequential). */
  baton: string | undefined
  idleTimer: NodeJS.Timeout | undefined
  /** Hands a connection the stream is done with back to the server's idle connections. */
  readonly recycle: (conn: Connection) => void
}

/** An HTTP-level answer: JSON for object bodies, text/plain for strings (the client reads both). */
class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: string | object,
  ) {
    super(typeof body === 'string' ? body : JSON.stringify(body))
  }
}

/** sqld's `EXPIRATION`: idle streams are closed (rolling back) after this long. */
const STREAM_IDLE_MS = 10_000
/** sqld's `CLEANUP`: how long an expired stream still answers STREAM_EXPIRED rather than "invalid baton". */
const EXPIRED_MEMORY_MS = 300_000
/** sqld's `MAX_SQL_COUNT` and `MAX_STORED_SQL_SIZE` (bytes) for `store_sql`. */
const MAX_STORED_SQLS = 50
const MAX_STORED_SQL_BYTES = 5_000
/** Connections kept open for the next streams (hrana-server.ts `recycle`). */
const MAX_IDLE_CONNECTIONS = 16

/** Starts the server; resolves once it listens. */
export async function startHranaServer(options: HranaServerOptions): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1'
  // Separate connections to ':memory:' would be separate databases, and one shared connection would share
  // its transaction between streams; a private temporary file gives each stream real isolation instead.
  const tempDir = options.databasePath === ':memory:' ? mkdtempSync(join(tmpdir(), 'loupe-hrana-')) : undefined
  const databasePath = tempDir === undefined ? options.databasePath : join(tempDir, 'memory.db')
  // Held open for the server's lifetime so the WAL is not checkpointed and deleted each time a stream closes.
  const keeper = connect(databasePath)
  keeper.exec('PRAGMA journal_mode = WAL')
  // Closed streams hand their connection back (rolled back) for the next stream, as sqld pools its connections:
  // opening one parses the whole schema, and a test run's shared database holds hundreds of applications'
  // tables — a fresh connection per request made the libsql leg CPU-bound in this process.
  const idle: Connection[] = []
  const open = (): Connection => idle.pop() ?? connect(databasePath)
  const recycle = (conn: Connection): void => {
    try {
      if (conn.inTransaction) conn.exec('ROLLBACK')
    } catch {
      disconnect(conn)
      return
    }
    if (idle.length < MAX_IDLE_CONNECTIONS) idle.push(conn)
    else disconnect(conn)
  }
  const streams = new Map<string, Stream>()
  const expired = new Map<string, NodeJS.Timeout>()
  const tokenDigest = options.authToken === undefined ? undefined : digest(options.authToken)

  const closeStream = (stream: Stream): void => {
    clearTimeout(stream.idleTimer)
    if (stream.conn !== undefined) recycle(stream.conn)
    stream.conn = undefined
    streams.delete(stream.id)
  }

  const acquire = (baton: string): Stream => {
    const id = baton.slice(0, baton.indexOf('.'))
    const stream = streams.get(id)
    if (stream === undefined) {
      if (expired.has(id)) throw new HttpError(500, { message: 'The stream has expired due to inactivity', code: 'STREAM_EXPIRED' })
      throw new HttpError(400, 'Received an invalid baton')
    }
    if (stream.baton === undefined || !sameSecret(stream.baton, baton)) throw new HttpError(400, 'Received a baton that has already been used')
    clearTimeout(stream.idleTimer)
    stream.baton = undefined
    return stream
  }

  const release = (stream: Stream): string | null => {
    if (stream.conn === undefined) {
      streams.delete(stream.id)
      return null
    }
    stream.baton = `${stream.id}.${randomBytes(16).toString('base64url')}`
    stream.idleTimer = setTimeout(() => {
      closeStream(stream)
      expired.set(stream.id, setTimeout(() => expired.delete(stream.id), EXPIRED_MEMORY_MS).unref())
    }, STREAM_IDLE_MS).unref()
    return stream.baton
  }

  const handlePipeline = async (body: unknown, version: Version): Promise<object> => {
    const pipeline = expectObject(body, 'request body')
    const requests = expectArray(pipeline['requests'], 'requests')
    const baton = pipeline['baton']
    if (baton !== undefined && baton !== null && typeof baton !== 'string') throw new ProtocolError('baton must be a string')
    let stream: Stream
    if (typeof baton === 'string') {
      stream = acquire(baton)
    } else {
      stream = { id: randomBytes(16).toString('hex'), conn: open(), sqls: new Map(), databasePath, baton: undefined, idleTimer: undefined, recycle }
      streams.set(stream.id, stream)
    }
    try {
      const results = []
      for (const request of requests) results.push(await handleRequest(stream, request, version))
      return { baton: release(stream), base_url: null, results }
    } catch (error) {
      closeStream(stream) // like sqld, a pipeline that fails as a whole drops its stream
      throw error
    }
  }

  const server = createServer((req, res) => {
    route(req, tokenDigest, handlePipeline).then(
      (body) => send(res, 200, body),
      (error: unknown) => {
        if (error instanceof HttpError) send(res, error.status, error.body)
        else if (error instanceof ProtocolError) send(res, 400, error.message)
        else send(res, 500, { message: String(error) })
      },
    )
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, host, () => resolve())
  })
  const { port } = server.address() as AddressInfo
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()))
      server.closeAllConnections()
      await closed
      for (const stream of [...streams.values()]) closeStream(stream)
      for (const timer of expired.values()) clearTimeout(timer)
      expired.clear()
      for (const conn of idle.splice(0)) disconnect(conn)
      keeper.close()
      if (tempDir !== undefined) rmSync(tempDir, { recursive: true, force: true })
    },
  }
}

async function route(
  req: IncomingMessage,
  tokenDigest: Buffer | undefined,
  handlePipeline: (body: unknown, version: Version) => Promise<object>,
): Promise<object | string> {
  const path = new URL(req.url ?? '/', 'http://localhost').pathname
  // Version probes: a client asking for Hrana 3 tries `GET v3-protobuf` first and falls back on a non-2xx.
  if (req.method === 'GET' && (path === '/v2' || path === '/v3')) return `Hello, this is Hrana over HTTP ${path.slice(1)}`
  const version = req.method !== 'POST' ? undefined : path === '/v2/pipeline' ? 2 : path === '/v3/pipeline' ? 3 : undefined
  if (version === undefined) throw new HttpError(404, 'Not found')
  const auth = req.headers.authorization
  if (tokenDigest !== undefined && !(auth?.startsWith('Bearer ') && timingSafeEqual(digest(auth.slice(7)), tokenDigest))) {
    // sqld's `AuthError` response: JSON without `message`, so the client reports SERVER_ERROR with the status.
    throw new HttpError(401, { error: 'Unauthorized: the Authorization header must carry the server token' })
  }
  let body: unknown
  try {
    body = JSON.parse(await readBody(req))
  } catch {
    throw new ProtocolError('Could not deserialize JSON request body')
  }
  return handlePipeline(body, version)
}

/** One stream request: statement failures are in-band results, protocol errors fail the whole pipeline. */
async function handleRequest(stream: Stream, json: unknown, version: Version): Promise<object> {
  const request = expectObject(json, 'request')
  const type = request['type']
  try {
    switch (type) {
      case 'execute':
        return ok({ type, result: await execute(stream, request['stmt']) })
      case 'batch':
        return ok({ type, result: await executeBatch(stream, request['batch'], version) })
      case 'sequence':
        await executeSequence(stream, request)
        return ok({ type })
      case 'describe':
        return ok({ type, result: describe(stream, request) })
      case 'store_sql': {
        const id = sqlId(request['sql_id'])
        const sql = request['sql']
        if (typeof sql !== 'string') throw new ProtocolError('store_sql needs sql')
        if (stream.sqls.has(id)) throw new ProtocolError(`SQL text with id ${id} is already stored`)
        if (stream.sqls.size >= MAX_STORED_SQLS) {
          throw new StmtError(`The server already stores ${stream.sqls.size} SQL texts, it cannot store more`, 'SQL_STORE_TOO_MANY')
        }
        // The limit counts UTF-8 bytes, while @libsql/client only skips texts of 5,000 UTF-16 units or more.
        if (Buffer.byteLength(sql) > MAX_STORED_SQL_BYTES) {
          throw new StmtError(`The statement is too large to be stored: ${Buffer.byteLength(sql)} B/5.0 KB`, 'SQL_STORE_TOO_LARGE')
        }
        stream.sqls.set(id, sql)
        return ok({ type })
      }
      case 'close_sql':
        stream.sqls.delete(sqlId(request['sql_id']))
        return ok({ type })
      case 'get_autocommit':
        if (version < 3) throw new ProtocolError('The `get_autocommit` request is only supported in Hrana 3')
        return ok({ type, is_autocommit: !connection(stream).inTransaction })
      case 'close':
        if (stream.conn !== undefined) stream.recycle(stream.conn)
        stream.conn = undefined
        return ok({ type })
      default:
        throw new ProtocolError(`Unknown request type ${JSON.stringify(type)}`)
    }
  } catch (error) {
    if (error instanceof StmtError) return { type: 'error', error: error.toHrana() }
    throw error
  }
}

function ok(response: object): object {
  return { type: 'ok', response }
}

function digest(secret: string): Buffer {
  return createHash('sha256').update(secret).digest()
}

/** Constant-time comparison of two secrets of any length. */
function sameSecret(a: string, b: string): boolean {
  return timingSafeEqual(digest(a), digest(b))
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    req.on('error', reject)
  })
}

/** JSON for objects, text/plain for strings: the client matches the content type exactly, without parameters. */
function send(res: ServerResponse, status: number, body: object | string): void {
  if (res.headersSent) return void res.end()
  const text = typeof body === 'string' ? body : JSON.stringify(body)
  res.writeHead(status, {
    'Content-Type': typeof body === 'string' ? 'text/plain' : 'application/json',
    'Content-Length': String(Buffer.byteLength(text)),
  })
  res.end(text)
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({
    options: { db: { type: 'string' }, port: { type: 'string' }, host: { type: 'string' }, token: { type: 'string' } },
  })
  if (values.db === undefined) {
    console.error('usage: hrana-server.ts --db <file.db|:memory:> [--port N] [--host H] [--token T]')
    process.exit(2)
  }
  const running = await startHranaServer({
    databasePath: values.db,
    ...(values.host === undefined ? {} : { host: values.host }),
    ...(values.port === undefined ? {} : { port: Number(values.port) }),
    ...(values.token === undefined ? {} : { authToken: values.token }),
  })
  console.log(running.url)
  const stop = (): void => void running.close().then(() => process.exit(0))
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
}
