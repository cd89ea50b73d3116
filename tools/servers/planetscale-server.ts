/**
 * A local PlanetScale HTTP API (`psdb.v1alpha1.Database` over Connect/JSON) backed by a real MySQL/MariaDB,
 * for tests and development with the real `@planetscale/database` client (docs:
 * /work/shared/spec/wire-protocols.md §1.3, §5c). Modelled on `mattrobenolt/ps-http-sim` (main.go): one pooled
 * connection per statement, and a connection pinned to a session for the life of a transaction.
 *
 * CLI: `npx tsx tools/servers/planetscale-server.ts --mysql mysql://root@127.0.0.1:3306/db --port 3900 --user u --password p`
 */
import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import mysql, { type FieldPacket, type Pool, type PoolConnection, type ResultSetHeader } from 'mysql2/promise'
import { okResult, rowsResult, sqlError, type PsError, type PsResult } from './planetscale-fields.ts'

/** Options for {@link startPlanetscaleServer}. */
export interface PlanetscaleServerOptions {
  /** MySQL/MariaDB to run queries on, e.g. mysql://root@127.0.0.1:3306/loupe_test (database required). */
  readonly mysqlUrl: string
  /** Credentials clients must present with HTTP Basic auth. */
  readonly username: string
  readonly password: string
  /** Interface to listen on; default '127.0.0.1'. */
  readonly host?: string
  /** Port to listen on; default 0 (ephemeral). */
  readonly port?: number
}

/** A listening server. */
export interface RunningServer {
  /** `http://user:pass@127.0.0.1:PORT`, the value for `connect({ url })`. */
  readonly url: string
  /** Stops listening, rolls back open transactions and closes the MySQL pool. */
  close(): Promise<void>
}

/** A pinned transaction is rolled back and its connection returned after this long idle (ps-http-sim's default). */
const IDLE_TIMEOUT_MS = 10_000

/** The session object replies carry; opaque to the client, which echoes the previous reply's (index.js `execute`). */
interface PsSession {
  readonly signature: string
  readonly vitessSession: {
    readonly autocommit: true
    readonly inTransaction?: true
    readonly options: { readonly includedFields: 'ALL'; readonly clientFoundRows: true }
    readonly targetString: string
    readonly DDLStrategy: 'direct'
    readonly SessionUUID: string
    readonly enableSystemSettings: true
  }
}

/** A Connect protocol error: a non-2xx reply `{code, message}`, which the client turns into `UnknownError`. */
class ConnectError extends Error {
  constructor(readonly status: number, readonly code: string, message: string) {
    super(message)
  }
}

/** A MySQL connection reserved for one session between BEGIN and COMMIT/ROLLBACK. */
interface Pin {
  conn?: PoolConnection
  busy: boolean
  timer?: NodeJS.Timeout
}

type StatementKind = 'begin' | 'commit' | 'rollback' | 'other'

/** Leading whitespace and comments, skipped to find the statement keyword. */
const LEADING_NOISE = /^(?:\s+|\/\*[\s\S]*?\*\/|(?:--\s|#)[^\n]*(?:\n|$))*/

/** Classifies transaction control statements by keyword, as vtgate does from its parse (savepoint rollbacks excluded). */
function statementKind(query: string): StatementKind {
  const head = query.replace(LEADING_NOISE, '').slice(0, 64).toLowerCase()
  if (/^(?:begin|start\s+transaction)\b/.test(head)) return 'begin'
  if (/^commit\b/.test(head)) return 'commit'
  if (/^rollback\b/.test(head) && !/^rollback\s+(?:work\s+)?to\b/.test(head)) return 'rollback'
  return 'other'
}

/** mysql2 error fields; a `fatal` error or one without `sqlState` means the connection, not the SQL, failed. */
interface MysqlError {
  readonly message: string
  readonly errno?: number
  readonly sqlState?: string
  readonly sqlMessage?: string
  readonly fatal?: boolean
}

function isSqlError(error: unknown): error is Required<MysqlError> {
  const e = error as MysqlError
  return typeof e?.errno === 'number' && typeof e.sqlState === 'string' && !e.fatal
}

function unavailable(error: unknown): ConnectError {
  return new ConnectError(503, 'unavailable', `mysql unavailable: ${(error as Error).message}`)
}

/**
 * Starts the server. Queries run on a `mysql2` pool whose `typeCast` returns each column's raw bytes, so
 * rows can be repacked exactly as MySQL sent them (text protocol, so the same text vttablet would forward).
 */
export async function startPlanetscaleServer(options: PlanetscaleServerOptions): Promise<RunningServer> {
  const database = decodeURIComponent(new URL(options.mysqlUrl).pathname.slice(1))
  if (!database) throw new Error(`mysqlUrl must name a database: ${options.mysqlUrl}`)
  const pool: Pool = mysql.createPool({
    uri: options.mysqlUrl,
    connectionLimit: 10,
    multipleStatements: false,
    supportBigNumbers: true,
    bigNumberStrings: true,
    dateStrings: true,
    rowsAsArray: true,
    typeCast: (field) => field.buffer(),
  })
  const secret = randomBytes(32)
  const pins = new Map<string, Pin>()

  const digest = (value: string) => createHmac('sha256', secret).update(value).digest()
  // `connect({url})` sends `url.username`/`url.password` still percent-encoded (index.js `Connection`), so the
  // encoded form in our URL is accepted as well as the raw credentials.
  const basic = (user: string, pass: string) => digest(`Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`)
  const expectedAuth = [
    basic(options.username, options.password),
    basic(encodeURIComponent(options.username), encodeURIComponent(options.password)),
  ]
  const sign = (user: string, uuid: string, inTx: boolean) => digest(JSON.stringify([user, uuid, inTx])).toString('base64')

  function session(user: string, uuid: string, inTx: boolean): PsSession {
    return {
      signature: sign(user, uuid, inTx),
      vitessSession: {
        autocommit: true,
        ...(inTx ? { inTransaction: true as const } : {}),
        options: { includedFields: 'ALL', clientFoundRows: true },
        targetString: database,
        DDLStrategy: 'direct',
        SessionUUID: uuid,
        enableSystemSettings: true,
      },
    }
  }

  /** Checks an echoed session's signature; only sessions this server issued (to this user) are accepted. */
  function readSession(user: string, raw: unknown): { uuid: string; inTx: boolean } {
    const s = raw as Partial<PsSession> | null
    const uuid = s?.vitessSession?.SessionUUID
    const inTx = s?.vitessSession?.inTransaction === true
    const given = Buffer.from(typeof s?.signature === 'string' ? s.signature : '', 'base64')
    const expected = typeof uuid === 'string' ? Buffer.from(sign(user, uuid, inTx), 'base64') : Buffer.alloc(0)
    if (typeof uuid !== 'string' || given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw new ConnectError(400, 'invalid_argument', 'invalid session: signature mismatch')
    }
    return { uuid, inTx }
  }

  async function unpin(uuid: string, pin: Pin, rollback: boolean): Promise<void> {
    clearTimeout(pin.timer)
    pins.delete(uuid)
    const conn = pin.conn
    if (!conn) return
    try {
      if (rollback) await conn.query('ROLLBACK')
      conn.release()
    } catch {
      conn.destroy()
    }
  }

  /** After a statement on a pinned connection: keep it for the session, with a fresh idle timer. */
  function park(uuid: string, pin: Pin): void {
    pin.busy = false
    pin.timer = setTimeout(() => {
      if (!pin.busy) void unpin(uuid, pin, true)
    }, IDLE_TIMEOUT_MS).unref()
  }

  async function execute(user: string, query: string, rawSession: unknown): Promise<object> {
    const started = performance.now()
    const incoming = rawSession == null ? null : readSession(user, rawSession)
    // Like ps-http-sim, a request without a session gets a new one.
    const uuid = incoming?.uuid ?? randomUUID()
    const kind = statementKind(query)
    const reply = (body: { result?: PsResult; error?: PsError }) => ({
      session: session(user, uuid, pins.has(uuid)),
      ...body,
      timing: (performance.now() - started) / 1000,
    })

    let pin = pins.get(uuid)
    if (pin?.busy) {
      // ps-http-sim answers concurrent use of a session's connection with CodePermissionDenied.
      throw new ConnectError(403, 'permission_denied', `session already in use: ${uuid}`)
    }
    if (pin) {
      pin.busy = true
      clearTimeout(pin.timer)
    } else if (kind === 'begin') {
      pin = { busy: true }
      pins.set(uuid, pin) // reserved before awaiting, so a concurrent request sees it busy
      try {
        pin.conn = await pool.getConnection()
      } catch (error) {
        pins.delete(uuid)
        throw unavailable(error)
      }
    } else if (incoming?.inTx && kind !== 'rollback') {
      // The pinned transaction timed out and was rolled back; running autocommit now would silently split it.
      return reply({
        error: {
          code: 'ABORTED',
          message: `vttablet: rpc error: code = Aborted desc = transaction ${uuid}: ended (exceeded timeout: ${IDLE_TIMEOUT_MS / 1000}s)`,
        },
      })
    }

    let body: { result?: PsResult; error?: PsError }
    try {
      const runner = pin?.conn ?? pool
      const [out, defs] = (await runner.query(query)) as unknown as [unknown, FieldPacket[] | FieldPacket[][] | undefined]
      // CALL returns several results; like vtgate's Execute, answer with the first.
      const multi = Array.isArray(defs?.[0])
      const first = multi ? (out as unknown[])[0] : out
      const fields = (multi ? defs?.[0] : defs) as FieldPacket[] | undefined
      body = {
        result: Array.isArray(first) ? rowsResult(fields ?? [], first as (Buffer | null)[][]) : okResult(first as ResultSetHeader),
      }
    } catch (error) {
      if (!isSqlError(error)) {
        if (pin) {
          clearTimeout(pin.timer)
          pins.delete(uuid)
          pin.conn?.destroy()
        }
        throw unavailable(error)
      }
      body = { error: sqlError(error, { database, user, query }) }
    }
    if (pin) {
      if (kind === 'commit' || kind === 'rollback' || (kind === 'begin' && body.error)) await unpin(uuid, pin, body.error !== undefined)
      else park(uuid, pin)
    }
    return reply(body)
  }

  async function createSession(user: string): Promise<object> {
    try {
      ;(await pool.getConnection()).release()
    } catch (error) {
      throw unavailable(error)
    }
    // ps-http-sim fakes `branch` and `user`; the client's `refresh()` only keeps `session`.
    return { branch: randomUUID(), user: { username: user, psid: 'planetscale-1' }, session: session(user, randomUUID(), false) }
  }

  async function handle(req: IncomingMessage): Promise<[number, object]> {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname
    if (path !== '/psdb.v1alpha1.Database/Execute' && path !== '/psdb.v1alpha1.Database/CreateSession') {
      throw new ConnectError(404, 'not_found', `no such procedure: ${path}`)
    }
    if (req.method !== 'POST') throw new ConnectError(405, 'unimplemented', `${req.method} is not allowed; use POST`)
    const auth = req.headers.authorization ?? ''
    const given = digest(auth)
    if (!expectedAuth.some((expected) => timingSafeEqual(given, expected))) {
      throw new ConnectError(401, 'unauthenticated', 'invalid username or password')
    }
    // Connect unary JSON requires this content type (the client sends it, index.js `postJSON`).
    if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) {
      throw new ConnectError(415, 'invalid_argument', `unsupported content-type: ${req.headers['content-type']}`)
    }
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    let body: { query?: unknown; session?: unknown }
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as typeof body
    } catch {
      throw new ConnectError(400, 'invalid_argument', 'request body is not valid JSON')
    }
    if (path.endsWith('/CreateSession')) return [200, await createSession(options.username)]
    if (typeof body.query !== 'string') throw new ConnectError(400, 'invalid_argument', 'query must be a string')
    return [200, await execute(options.username, body.query, body.session)]
  }

  function respond(res: ServerResponse, status: number, body: object): void {
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body))
  }

  const server = createServer((req, res) => {
    handle(req).then(
      ([status, body]) => respond(res, status, body),
      (error: unknown) => {
        const e = error instanceof ConnectError ? error : new ConnectError(500, 'internal', String(error))
        respond(res, e.status, { code: e.code, message: e.message })
      },
    )
  })
  const host = options.host ?? '127.0.0.1'
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject).listen(options.port ?? 0, host, () => resolve())
  })
  const { port } = server.address() as AddressInfo
  const credentials = `${encodeURIComponent(options.username)}:${encodeURIComponent(options.password)}`
  return {
    url: `http://${credentials}@${host.includes(':') ? `[${host}]` : host}:${port}`,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()))
      server.closeAllConnections()
      await closed
      await Promise.all([...pins].map(([uuid, pin]) => unpin(uuid, pin, true)))
      await pool.end()
    },
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({
    options: {
      mysql: { type: 'string', default: 'mysql://root@127.0.0.1:3306/loupe' },
      host: { type: 'string', default: '127.0.0.1' },
      port: { type: 'string', default: '3900' },
      user: { type: 'string', default: 'loupe' },
      password: { type: 'string', default: 'loupe' },
    },
  })
  const running = await startPlanetscaleServer({
    mysqlUrl: values.mysql,
    username: values.user,
    password: values.password,
    host: values.host,
    port: Number(values.port),
  })
  console.log(running.url)
  const stop = () => void running.close().then(() => process.exit(0))
  process.once('SIGINT', stop).once('SIGTERM', stop)
}
