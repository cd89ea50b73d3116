/**
 * The local PlanetScale HTTP API server, driven by the real `@planetscale/database` client against MariaDB,
 * so protocol drift (field types, charset, row packing, sessions, errors) fails here. Raw `fetch` checks pin
 * down the protojson shape where the client would hide a difference.
 */
import { connect, DatabaseError, type Connection } from '@planetscale/database'
import mysql from 'mysql2/promise'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { perRunDatabaseName } from '../../../tools/database-targets.ts'
import { LOCAL_ENGINES } from '../../../tools/local-engines.ts'
import { startPlanetscaleServer, type RunningServer } from '../../../tools/servers/planetscale-server.ts'

const MYSQL_ROOT = LOCAL_ENGINES.mysqlServerUrl
const DATABASE = perRunDatabaseName('loupe_ps_server_test')

let admin: mysql.Connection
let server: RunningServer
let conn: Connection
/** The server's base URL without credentials (fetch refuses URLs with credentials) and the auth header. */
let base: string
let authorization: string

/** Posts one Connect/JSON request the way the client's `postJSON` does. */
async function post(path: string, body: unknown, auth = authorization) {
  const res = await fetch(`${base}/psdb.v1alpha1.Database/${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: auth },
    body: JSON.stringify(body),
  })
  return { status: res.status, contentType: res.headers.get('content-type'), json: (await res.json()) as Record<string, any> }
}

beforeAll(async () => {
  admin = await mysql.createConnection(MYSQL_ROOT)
  await admin.query(`DROP DATABASE IF EXISTS ${DATABASE}`)
  await admin.query(`CREATE DATABASE ${DATABASE} CHARACTER SET utf8mb4`)
  await admin.query(`USE ${DATABASE}`)
  await admin.query(`CREATE TABLE items (id BIGINT PRIMARY KEY AUTO_INCREMENT, name VARCHAR(100) NOT NULL UNIQUE, qty INT NOT NULL DEFAULT 0)`)
  await admin.query(`CREATE TABLE notes (id INT PRIMARY KEY AUTO_INCREMENT, body TEXT NOT NULL)`)
  server = await startPlanetscaleServer({ mysqlUrl: `${MYSQL_ROOT}/${DATABASE}`, username: 'loupe', password: 's3cret:pw' })
  const url = new URL(server.url)
  base = url.origin
  authorization = `Basic ${btoa('loupe:s3cret:pw')}`
  conn = connect({ url: server.url })
})

afterAll(async () => {
  await server?.close()
  await admin?.query(`DROP DATABASE IF EXISTS ${DATABASE}`)
  await admin?.end()
})

describe('planetscale server: types through the client cast', () => {
  it('decodes each column type as cast.ts documents', async () => {
    await conn.execute(`CREATE TABLE types (
      id BIGINT PRIMARY KEY, i INT, d DECIMAL(10,2), f DOUBLE, v VARCHAR(20), t TEXT, b BLOB, vb VARBINARY(8),
      dt DATETIME, j JSON, n INT NULL)`)
    await conn.execute('INSERT INTO types VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)', [
      '9007199254740993', -42, '12345.67', 1.5, 'hi', 'some text', new Uint8Array([0, 1, 255]), new Uint8Array([7]),
      '2024-01-02 03:04:05', '{"a":[1,"x"]}', null,
    ])
    const result = await conn.execute('SELECT * FROM types')
    expect(result.types).toStrictEqual({
      id: 'INT64', i: 'INT32', d: 'DECIMAL', f: 'FLOAT64', v: 'VARCHAR', t: 'TEXT', b: 'BLOB', vb: 'VARBINARY',
      dt: 'DATETIME', j: 'JSON', n: 'INT32',
    })
    expect(result.rows).toStrictEqual([{
      id: '9007199254740993', i: -42, d: '12345.67', f: 1.5, v: 'hi', t: 'some text',
      b: new Uint8Array([0, 1, 255]), vb: new Uint8Array([7]), dt: '2024-01-02 03:04:05', j: { a: [1, 'x'] }, n: null,
    }])
    expect(result.fields.find((f) => f.name === 'b')).toMatchObject({ charset: 63, table: 'types', orgTable: 'types', database: DATABASE })
    expect(result.fields.find((f) => f.name === 't')?.charset).not.toBe(63)
    expect(result.size).toBe(1)
    expect(result.time).toBeGreaterThan(0)
  })

  it('gives a NULL-typed column no type on the wire, which the client reads as NULL', async () => {
    const raw = await post('Execute', { query: "SELECT NULL AS x, 7 AS y, '' AS e", session: null })
    expect(raw.json.result.fields[0]).not.toHaveProperty('type')
    expect(raw.json.result.rows).toStrictEqual([{ lengths: ['-1', '1', '0'], values: btoa('7') }])
    const result = await conn.execute("SELECT NULL AS x, 7 AS y, '' AS e")
    expect(result.types).toStrictEqual({ x: 'NULL', y: 'INT32', e: 'VARCHAR' })
    expect(result.rows).toStrictEqual([{ x: null, y: 7, e: '' }])
  })

  it('returns rows as arrays too', async () => {
    const result = await conn.execute('SELECT 1 AS a, 2.5 AS b', null, { as: 'array' })
    expect(result.rows).toStrictEqual([[1, '2.5']])
  })
})

describe('planetscale server: results', () => {
  it('reports rowsAffected and insertId after INSERT and UPDATE', async () => {
    const one = await conn.execute('INSERT INTO items (name) VALUES (?)', ['alpha'])
    expect([one.rowsAffected, one.insertId, one.rows]).toStrictEqual([1, '1', []])
    const two = await conn.execute('INSERT INTO items (name) VALUES (?), (?)', ['beta', 'gamma'])
    expect([two.rowsAffected, two.insertId]).toStrictEqual([2, '2']) // MySQL reports the batch's first id
    // Vitess sessions set ClientFoundRows, so an UPDATE counts matched rows, changed or not.
    const upd = await conn.execute('UPDATE items SET qty = 0 WHERE id <= 2')
    expect([upd.rowsAffected, upd.insertId]).toStrictEqual([2, '0'])
  })

  it('follows protojson: uint64 as strings, zero and empty fields omitted', async () => {
    const ins = await post('Execute', { query: "INSERT INTO notes (body) VALUES ('n1')", session: null })
    expect(ins.status).toBe(200)
    expect(ins.contentType).toBe('application/json')
    expect(ins.json.result).toStrictEqual({ rowsAffected: '1', insertId: '1' })
    expect(typeof ins.json.timing).toBe('number')
    const ddl = await post('Execute', { query: 'CREATE TABLE empty_t (id INT)', session: null })
    expect(ddl.json.result).toStrictEqual({})
    const none = await post('Execute', { query: 'SELECT id FROM empty_t', session: null })
    expect(none.json.result).toStrictEqual({
      fields: [{ name: 'id', type: 'INT32', table: 'empty_t', orgTable: 'empty_t', database: DATABASE, orgName: 'id', columnLength: 11, charset: 63 }],
    })
    expect(none.json.session.vitessSession.SessionUUID).toMatch(/^[0-9a-f-]{36}$/)
  })

  it('round-trips awkward strings through ? parameters', async () => {
    const samples = [
      `it's "quoted"`, 'back\\slash \\n not a newline', 'line1\nline2\r\n\ttab', 'nul\0byte', 'ctrl-z\x1a',
      'ünïcødé 中文 Ελληνικά', '😀👍🏽🇳🇿', "'; DROP TABLE items; --", '? :name %_',
    ]
    for (const body of samples) {
      const { insertId } = await conn.execute('INSERT INTO notes (body) VALUES (?)', [body])
      const { rows } = await conn.execute('SELECT body, ? AS echo FROM notes WHERE id = ?', [body, insertId])
      expect(rows).toStrictEqual([{ body, echo: body }])
    }
    const named = await conn.execute('SELECT :s AS s', { s: samples.join('|') })
    expect(named.rows).toStrictEqual([{ s: samples.join('|') }])
  })
})

describe('planetscale server: transactions and sessions', () => {
  async function count(name: string): Promise<number> {
    const [rows] = await admin.query<mysql.RowDataPacket[]>('SELECT COUNT(*) AS c FROM items WHERE name LIKE ?', [`${name}%`])
    return Number(rows[0]?.c)
  }

  it('commits a transaction on one pinned connection, invisible to others until COMMIT', async () => {
    const seen = await conn.transaction(async (tx) => {
      await tx.execute('INSERT INTO items (name) VALUES (?)', ['tx-commit-1'])
      await tx.execute('INSERT INTO items (name) VALUES (?)', ['tx-commit-2'])
      expect(await count('tx-commit')).toBe(0) // not yet committed
      const { rows } = await tx.execute("SELECT COUNT(*) AS c FROM items WHERE name LIKE 'tx-commit%'")
      return rows
    })
    expect(seen).toStrictEqual([{ c: '2' }])
    expect(await count('tx-commit')).toBe(2)
  })

  it('rolls back when the callback throws', async () => {
    const failing = conn.transaction(async (tx) => {
      await tx.execute('INSERT INTO items (name) VALUES (?)', ['tx-rollback'])
      throw new Error('boom')
    })
    await expect(failing).rejects.toThrow('boom')
    expect(await count('tx-rollback')).toBe(0)
  })

  it('keeps the transaction open after an SQL error inside it', async () => {
    await conn.transaction(async (tx) => {
      await tx.execute('INSERT INTO items (name) VALUES (?)', ['tx-partial'])
      await expect(tx.execute('INSERT INTO items (name) VALUES (?)', ['tx-partial'])).rejects.toThrow('(errno 1062)')
    })
    expect(await count('tx-partial')).toBe(1)
  })

  it('marks the session in a transaction and refuses concurrent use of it', async () => {
    const begin = await post('Execute', { query: 'BEGIN', session: null })
    expect(begin.json.session.vitessSession.inTransaction).toBe(true)
    const session = begin.json.session
    const [slow, clash] = await Promise.all([
      post('Execute', { query: 'SELECT SLEEP(0.3) AS s', session }),
      new Promise((r) => setTimeout(r, 50)).then(() => post('Execute', { query: 'SELECT 1', session })),
    ])
    expect(slow.status).toBe(200)
    expect(clash.status).toBe(403)
    expect(clash.json).toMatchObject({ code: 'permission_denied', message: expect.stringContaining('session already in use') })
    const rollback = await post('Execute', { query: 'ROLLBACK', session: slow.json.session })
    expect(rollback.json.session.vitessSession).not.toHaveProperty('inTransaction')
  })

  it('rejects a session it did not sign', async () => {
    const { json } = await post('Execute', { query: 'BEGIN', session: null })
    const forged = { ...json.session, vitessSession: { ...json.session.vitessSession, SessionUUID: 'someone-else' } }
    const res = await post('Execute', { query: 'SELECT 1', session: forged })
    expect(res.status).toBe(400)
    expect(res.json.code).toBe('invalid_argument')
    await post('Execute', { query: 'ROLLBACK', session: json.session })
  })

  it('creates sessions via refresh()', async () => {
    const fresh = connect({ url: server.url })
    await fresh.refresh()
    expect((await fresh.execute('SELECT 3 AS n')).rows).toStrictEqual([{ n: 3 }])
  })

  it('serves concurrent executes on one connection and concurrent transactions', async () => {
    const results = await Promise.all(
      Array.from({ length: 25 }, (_, i) => conn.execute('SELECT ? AS n, SLEEP(0.02) AS s', [i])),
    )
    expect(results.map((r) => r.rows[0])).toStrictEqual(Array.from({ length: 25 }, (_, n) => ({ n, s: 0 })))
    await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        conn.transaction(async (tx) => {
          await tx.execute('INSERT INTO items (name) VALUES (?)', [`tx-par-${i}`])
          await tx.execute('SELECT SLEEP(0.05)')
        }),
      ),
    )
    expect(await count('tx-par-')).toBe(5)
  })
})

describe('planetscale server: errors', () => {
  it('surfaces a duplicate key as DatabaseError carrying errno and sqlstate', async () => {
    const error = await conn.execute('INSERT INTO items (name) VALUES (?)', ['alpha']).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(DatabaseError)
    const dbError = error as DatabaseError
    expect(dbError.status).toBe(400)
    expect(dbError.body.code).toBe('ALREADY_EXISTS')
    expect(dbError.message).toContain("Duplicate entry 'alpha' for key 'name'")
    expect(dbError.message).toContain('(errno 1062) (sqlstate 23000)')
  })

  it('answers SQL errors with HTTP 200 and an error object', async () => {
    const raw = await post('Execute', { query: 'SELEC 1', session: null })
    expect(raw.status).toBe(200)
    expect(raw.json).not.toHaveProperty('result')
    expect(raw.json.error.message).toMatch(/\(errno 1064\) \(sqlstate 42000\)/)
    expect(raw.json.session.signature).toEqual(expect.any(String))
  })

  it('rejects wrong credentials with 401', async () => {
    const bad = new URL(server.url)
    bad.password = 'wrong'
    await expect(connect({ url: bad.toString() }).execute('SELECT 1')).rejects.toMatchObject({ name: 'UnknownError', status: 401 })
    const raw = await post('Execute', { query: 'SELECT 1', session: null }, `Basic ${btoa('loupe:wrong')}`)
    expect(raw).toMatchObject({ status: 401, contentType: 'application/json', json: { code: 'unauthenticated' } })
    expect((await post('Execute', { query: 'SELECT 1', session: null }, '')).status).toBe(401)
  })

  it('answers unknown paths with 404', async () => {
    const raw = await post('StreamExecute', { query: 'SELECT 1', session: null })
    expect(raw).toMatchObject({ status: 404, json: { code: 'not_found' } })
  })

  it('answers 503 when MySQL is unreachable', async () => {
    const dead = await startPlanetscaleServer({ mysqlUrl: 'mysql://root@127.0.0.1:1/nowhere', username: 'u', password: 'p' })
    try {
      const error = await connect({ url: dead.url }).execute('SELECT 1').catch((e: unknown) => e)
      expect(error).toMatchObject({ name: 'UnknownError', status: 503 })
      expect(JSON.parse((error as { context: { body: string } }).context.body)).toMatchObject({ code: 'unavailable' })
    } finally {
      await dead.close()
    }
  })
})
