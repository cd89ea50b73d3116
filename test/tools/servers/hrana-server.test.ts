/**
 * The local Hrana-over-HTTP server, driven by the real `@libsql/client` 0.18.0 (web build, and the Node build,
 * which uses the same HTTP client for http: URLs): the authority on the protocol (wire-protocols.md §1.1/§5a).
 * What the client never sends (stale batons, Hrana 3, stored SQL by hand) is checked with raw fetch.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createClient as createNodeClient, LibsqlError, type Client } from '@libsql/client'
import { createClient as createWebClient } from '@libsql/client/web'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { startHranaServer, type RunningServer } from '../../../tools/servers/hrana-server.ts'

let dir: string
let server: RunningServer

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'loupe-hrana-test-'))
  server = await startHranaServer({ databasePath: join(dir, 'test.db') })
})

afterAll(async () => {
  await server?.close()
  rmSync(dir, { recursive: true, force: true })
})

async function rejection(promise: Promise<unknown>): Promise<LibsqlError> {
  const error: unknown = await promise.then(() => undefined, (e: unknown) => e)
  expect(error).toBeInstanceOf(LibsqlError)
  return error as LibsqlError
}

/** A pipeline posted by hand; answers are JSON or text, as the client reads them. */
async function post(body: unknown, path = '/v2/pipeline'): Promise<{ status: number; type: string | null; body: any }> {
  const res = await fetch(server.url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  const type = res.headers.get('content-type')
  return { status: res.status, type, body: type === 'application/json' ? await res.json() : await res.text() }
}

const clients = { '@libsql/client/web': createWebClient, '@libsql/client': createNodeClient }

describe.each(Object.entries(clients))('startHranaServer with %s', (name, createClient) => {
  const table = `t_${name.replace(/\W/g, '_')}`
  let db: Client

  beforeAll(async () => {
    db = createClient({ url: server.url, intMode: 'bigint' })
    await db.execute(`CREATE TABLE ${table} (id INTEGER PRIMARY KEY, name TEXT UNIQUE, i INTEGER, f REAL, b BLOB)`)
  })

  afterEach(async () => {
    await db.execute(`DELETE FROM ${table}`)
  })

  afterAll(() => db.close())

  it('binds positional and named arguments, with or without their prefix', async () => {
    // SQLite numbering: a bare ? takes the next index after the largest so far, ?NNN its own.
    const positional = await db.execute({ sql: 'SELECT ? AS a, ?1 AS again, ? AS b, ?3 AS c', args: [1n, 'two', 3.5] })
    expect(positional.columns).toEqual(['a', 'again', 'b', 'c'])
    expect({ ...positional.rows[0] }).toEqual({ a: 1n, again: 1n, b: 'two', c: 3.5 })
    const named = await db.execute({ sql: 'SELECT :x AS x, @y AS y, $z AS z, :x AS again', args: { x: 1n, '@y': 'y', $z: null } })
    expect({ ...named.rows[0] }).toEqual({ x: 1n, y: 'y', z: null, again: 1n })
  })

  it('round-trips integers beyond 2^53, floats, text, blobs and NULL exactly', async () => {
    const big = 2n ** 62n + 3n
    const blob = new Uint8Array([0, 1, 2, 253, 254, 255])
    await db.execute({ sql: `INSERT INTO ${table} (name, i, f, b) VALUES (?, ?, ?, ?)`, args: ['héllo ✓', big, 1.5, blob] })
    await db.execute({ sql: `INSERT INTO ${table} (name, i, f, b) VALUES (?, ?, ?, ?)`, args: ['nulls', -big, 2, null] })
    const rs = await db.execute(`SELECT name, i, typeof(i) AS ti, f, typeof(f) AS tf, b FROM ${table} ORDER BY id`)
    expect(rs.columnTypes).toEqual(['TEXT', 'INTEGER', '', 'REAL', '', 'BLOB'])
    const [first, second] = rs.rows
    expect(first).toMatchObject({ name: 'héllo ✓', i: big, ti: 'integer', f: 1.5, tf: 'real' })
    expect(new Uint8Array(first?.['b'] as ArrayBuffer)).toEqual(blob)
    // A JS number is sent as a Hrana float: SQLite stores REAL even for 2.
    expect(second).toMatchObject({ name: 'nulls', i: -big, f: 2, tf: 'real', b: null })
  })

  it('returns TEXT holding NUL whole, as sqld does (the libsql package alone cuts it)', async () => {
    const texts = ['a\u0000b', '\u0000', 'tail \u0000', 'plain']
    for (const [index, text] of texts.entries()) {
      await db.execute({ sql: `INSERT INTO ${table} (id, name, i) VALUES (?, ?, ?)`, args: [BigInt(index + 1), text, BigInt(10 - index)] })
    }
    const rs = await db.execute(`SELECT name, length(CAST(name AS BLOB)) AS bytes, typeof(name) AS t, i, b FROM ${table} ORDER BY i`)
    expect(rs.columns).toEqual(['name', 'bytes', 't', 'i', 'b'])
    expect(rs.columnTypes).toEqual(['TEXT', '', '', 'INTEGER', 'BLOB'])
    expect(rs.rows.map((row) => [row['name'], row['bytes'], row['t'], row['i'], row['b']])).toEqual(
      [...texts].reverse().map((text, index) => [text, BigInt(Buffer.byteLength(text)), 'text', BigInt(7 + index), null]),
    )
    const computed = await db.execute({ sql: "SELECT 'x' || char(0) || ? AS joined, ? AS echoed", args: ['y', 'p\u0000q'] })
    expect({ ...computed.rows[0] }).toEqual({ joined: 'x\u0000y', echoed: 'p\u0000q' })
    const values = await db.execute("VALUES ('v' || char(0), 1), (NULL, X'0001')")
    expect(values.rows.map((row) => [row[0], row[1]])).toEqual([['v\u0000', 1n], [null, expect.any(ArrayBuffer)]])
    const recursive = await db.execute("WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 3) SELECT char(0) || x AS s FROM n ORDER BY x DESC")
    expect(recursive.rows.map((row) => row['s'])).toEqual(['\u00003', '\u00002', '\u00001'])
  })

  it('reports rowsAffected and lastInsertRowid for writes only', async () => {
    const inserted = await db.execute({ sql: `INSERT INTO ${table} (id, name) VALUES (?, 'a'), (?, 'b')`, args: [41n, 42n] })
    expect([inserted.rowsAffected, inserted.lastInsertRowid]).toEqual([2, 42n])
    const updated = await db.execute(`UPDATE ${table} SET i = 7`)
    expect([updated.rowsAffected, updated.lastInsertRowid]).toEqual([2, undefined])
    const selected = await db.execute(`SELECT * FROM ${table}`)
    expect([selected.rowsAffected, selected.lastInsertRowid, selected.rows.length]).toEqual([0, undefined, 2])
    const returning = await db.execute(`DELETE FROM ${table} WHERE id = 41 RETURNING id`)
    expect([returning.rowsAffected, returning.rows[0]?.['id']]).toEqual([1, 41n])
  })

  it('runs a write batch atomically and rolls it back when a statement fails', async () => {
    const results = await db.batch(
      [{ sql: `INSERT INTO ${table} (name) VALUES (?)`, args: ['one'] }, `SELECT count(*) AS n FROM ${table}`],
      'write',
    )
    expect(results.map((r) => r.rowsAffected)).toEqual([1, 0])
    expect(results[1]?.rows[0]?.['n']).toBe(1n)
    const error = await rejection(
      db.batch([`INSERT INTO ${table} (name) VALUES ('two')`, `INSERT INTO ${table} (name) VALUES ('one')`], 'write'),
    )
    // sqld reports the primary result code (rusqlite's ErrorCode), not the extended SQLITE_CONSTRAINT_UNIQUE.
    expect(error.code).toBe('SQLITE_CONSTRAINT')
    expect((await db.execute(`SELECT name FROM ${table}`)).rows.map((r) => r['name'])).toEqual(['one'])
  })

  it('keeps an interactive transaction across pipelines, then rolls back or commits it', async () => {
    const rolledBack = await db.transaction('write')
    await rolledBack.execute(`INSERT INTO ${table} (name) VALUES ('rolled back')`)
    expect((await rolledBack.execute(`SELECT count(*) AS n FROM ${table}`)).rows[0]?.['n']).toBe(1n)
    await rolledBack.rollback()
    const committed = await db.transaction('write')
    await committed.execute(`INSERT INTO ${table} (name) VALUES ('committed')`)
    await committed.batch([`UPDATE ${table} SET i = 1`, `INSERT INTO ${table} (name, i) VALUES ('second', 2)`])
    await committed.commit()
    const rows = (await db.execute(`SELECT name, i FROM ${table} ORDER BY id`)).rows.map((r) => [r['name'], r['i']])
    expect(rows).toEqual([['committed', 1n], ['second', 2n]])
  })

  it('runs several statements with executeMultiple', async () => {
    await db.executeMultiple(`
      CREATE TABLE multi_${table} (x INTEGER); -- a comment; with a semicolon
      INSERT INTO multi_${table} VALUES (1);
      INSERT INTO multi_${table} VALUES (2);`)
    expect((await db.execute(`SELECT sum(x) AS s FROM multi_${table}`)).rows[0]?.['s']).toBe(3n)
    await db.execute(`DROP TABLE multi_${table}`)
  })

  it('surfaces SQL errors as LibsqlError with sqld codes', async () => {
    expect((await rejection(db.execute('SELECT * FROM no_such_table'))).code).toBe('SQLITE_UNKNOWN')
    expect((await rejection(db.execute('SELEC 1'))).code).toBe('SQL_PARSE_ERROR')
    expect((await rejection(db.execute('SELECT 1; SELECT 2'))).code).toBe('SQL_MANY_STATEMENTS')
    expect((await rejection(db.execute('-- nothing;'))).code).toBe('SQL_NO_STATEMENT')
    expect((await rejection(db.execute({ sql: 'SELECT :a, :b', args: { a: 1n } }))).code).toBe('ARGS_INVALID')
    expect((await rejection(db.execute({ sql: 'SELECT ?', args: [1n, 2n] }))).code).toBe('ARGS_INVALID')
    const fk = await rejection(db.executeMultiple('CREATE TABLE p (id INTEGER PRIMARY KEY); CREATE TABLE c (p INTEGER REFERENCES p(id)); INSERT INTO c VALUES (9)'))
    expect(fk.code).toBe('SQLITE_CONSTRAINT') // foreign_keys is ON on every connection
    await db.executeMultiple('DROP TABLE c; DROP TABLE p')
  })
})

describe('startHranaServer concurrency', () => {
  it('serves writes from two clients at once', async () => {
    const a = createWebClient({ url: server.url })
    const b = createWebClient({ url: server.url })
    await a.execute('CREATE TABLE concurrent (who TEXT, n INTEGER)')
    const writes = (client: Client, who: string) =>
      Array.from({ length: 20 }, (_, n) => client.execute({ sql: 'INSERT INTO concurrent VALUES (?, ?)', args: [who, n] }))
    await Promise.all([...writes(a, 'a'), ...writes(b, 'b'), b.batch(['INSERT INTO concurrent VALUES (\'b\', 99)'], 'write')])
    const rows = (await a.execute('SELECT who, count(*) AS n FROM concurrent GROUP BY who ORDER BY who')).rows
    expect(rows.map((r) => [r['who'], r['n']])).toEqual([['a', 20], ['b', 21]])
    a.close()
    b.close()
  })

  it('rolls back a transaction whose stream the client closes, freeing the write lock', async () => {
    const a = createWebClient({ url: server.url })
    await a.execute('CREATE TABLE abandoned (x INTEGER)')
    const tx = await a.transaction('write')
    await tx.execute('INSERT INTO abandoned VALUES (1)')
    tx.close()
    const started = Date.now()
    await a.execute('INSERT INTO abandoned VALUES (2)')
    expect(Date.now() - started).toBeLessThan(1_000) // not a 5 s busy wait
    expect((await a.execute('SELECT x FROM abandoned')).rows.map((r) => r['x'])).toEqual([2])
    a.close()
  })

  it('lets a write wait for another stream’s open transaction instead of blocking the server', async () => {
    const a = createWebClient({ url: server.url })
    const b = createWebClient({ url: server.url })
    await a.execute('CREATE TABLE waiting (x INTEGER)')
    const tx = await a.transaction('write')
    await tx.execute('INSERT INTO waiting VALUES (1)')
    const blocked = b.execute('INSERT INTO waiting VALUES (2)') // needs the write lock the transaction holds
    await new Promise((resolve) => setTimeout(resolve, 100))
    await tx.commit() // only reachable if the server kept serving while `blocked` waited
    expect((await blocked).rowsAffected).toBe(1)
    expect((await a.execute('SELECT x FROM waiting ORDER BY x')).rows.map((r) => r['x'])).toEqual([1, 2])
    a.close()
    b.close()
  })
})

describe('startHranaServer with an auth token and an in-memory database', () => {
  let secured: RunningServer

  beforeAll(async () => {
    secured = await startHranaServer({ databasePath: ':memory:', authToken: 'sekrit' })
  })

  afterAll(() => secured?.close())

  it('requires the bearer token, answering 401 as sqld does', async () => {
    for (const authToken of [undefined, 'wrong']) {
      const error = await rejection(createWebClient({ url: secured.url, ...(authToken ? { authToken } : {}) }).execute('SELECT 1'))
      expect([error.code, (error.cause as { status?: number }).status]).toEqual(['SERVER_ERROR', 401])
    }
    const db = createWebClient({ url: secured.url, authToken: 'sekrit' })
    expect((await db.execute('SELECT 1 AS one')).rows[0]?.['one']).toBe(1)
    db.close()
  })

  it('isolates streams of one in-memory database from each other', async () => {
    const a = createWebClient({ url: secured.url, authToken: 'sekrit' })
    const b = createWebClient({ url: secured.url, authToken: 'sekrit' })
    await a.execute('CREATE TABLE shared (x INTEGER)')
    const tx = await a.transaction('write')
    await tx.execute('INSERT INTO shared VALUES (1)')
    expect((await b.execute('SELECT count(*) AS n FROM shared')).rows[0]?.['n']).toBe(0)
    await tx.commit()
    expect((await b.execute('SELECT count(*) AS n FROM shared')).rows[0]?.['n']).toBe(1)
    a.close()
    b.close()
  })
})

describe('startHranaServer protocol details', () => {
  it('answers version probes, and 404 for protobuf so clients fall back to JSON', async () => {
    const status = async (path: string) => (await fetch(server.url + path)).status
    expect([await status('/v2'), await status('/v3'), await status('/v3-protobuf'), await status('/nope')]).toEqual([200, 200, 404, 404])
  })

  it('answers one result per request, keeps stored SQL per stream and drops the baton on close', async () => {
    const first = await post({
      requests: [
        { type: 'store_sql', sql_id: 1, sql: 'SELECT ? AS v' },
        { type: 'execute', stmt: { sql_id: 1, args: [{ type: 'integer', value: '-9223372036854775808' }], want_rows: true } },
        { type: 'execute', stmt: { sql_id: 1, args: [{ type: 'blob', base64: 'AP8=' }], want_rows: false } },
        { type: 'describe', sql: 'SELECT :a AS a, ?3' },
      ],
    })
    expect(first.status).toBe(200)
    expect(first.body.results.map((r: any) => [r.type, r.response.type])).toEqual([
      ['ok', 'store_sql'], ['ok', 'execute'], ['ok', 'execute'], ['ok', 'describe'],
    ])
    expect(first.body.results[1].response.result).toEqual({
      cols: [{ name: 'v', decltype: null }],
      rows: [[{ type: 'integer', value: '-9223372036854775808' }]],
      affected_row_count: 0,
      last_insert_rowid: null,
    })
    expect(first.body.results[2].response.result.rows).toEqual([])
    expect(first.body.results[3].response.result.params).toEqual([{ name: ':a' }, { name: null }, { name: '?3' }])
    const second = await post({
      baton: first.body.baton,
      requests: [
        { type: 'execute', stmt: { sql_id: 1, args: [{ type: 'blob', base64: 'AP8=' }] } },
        { type: 'close_sql', sql_id: 1 },
        { type: 'close' },
      ],
    })
    // sqld sends blobs as base64 without padding.
    expect(second.body.results[0].response.result.rows).toEqual([[{ type: 'blob', base64: 'AP8' }]])
    expect(second.body.baton).toBeNull()
  })

  it('keeps Hrana 3 requests and conditions out of v2, and serves them on v3', async () => {
    const v2 = await post({ requests: [{ type: 'get_autocommit' }] })
    expect([v2.status, v2.type]).toEqual([400, 'text/plain'])
    const steps = [
      { stmt: { sql: 'BEGIN' } },
      { condition: { type: 'is_autocommit' }, stmt: { sql: 'SELECT 1' } },
      { condition: { type: 'and', conds: [{ type: 'ok', step: 0 }, { type: 'not', cond: { type: 'is_autocommit' } }] }, stmt: { sql: 'SELECT 2' } },
      { condition: { type: 'or', conds: [{ type: 'error', step: 2 }, { type: 'error', step: 0 }] }, stmt: { sql: 'SELECT 3' } },
      { stmt: { sql: 'SELECT nope' } },
      { condition: { type: 'error', step: 4 }, stmt: { sql: 'ROLLBACK' } },
    ]
    const v3 = await post({ requests: [{ type: 'batch', batch: { steps } }, { type: 'get_autocommit' }, { type: 'close' }] }, '/v3/pipeline')
    const { step_results: results, step_errors: errors } = v3.body.results[0].response.result
    expect(results.map((r: unknown) => r !== null)).toEqual([true, false, true, false, false, true])
    expect(errors.map((e: { code?: string } | null) => e?.code ?? null)).toEqual([null, null, null, null, 'SQLITE_UNKNOWN', null])
    expect(v3.body.results[1].response.is_autocommit).toBe(true)
    const badStep = await post({ requests: [{ type: 'batch', batch: { steps: [{ condition: { type: 'ok', step: 0 }, stmt: { sql: 'SELECT 1' } }] } }] })
    expect(badStep.status).toBe(400)
  })

  it('limits stored SQL to 5,000 UTF-8 bytes, as sqld does', async () => {
    const sql = `SELECT '${'é'.repeat(2_600)}'` // under the client's 5,000-character cut-off, over 5,000 bytes
    const { body } = await post({ requests: [{ type: 'store_sql', sql_id: 1, sql }, { type: 'close' }] })
    expect(body.results[0]).toMatchObject({ type: 'error', error: { code: 'SQL_STORE_TOO_LARGE' } })
  })

  it('rejects reused and forged batons with 400, expired ones with 500 STREAM_EXPIRED, and rolls them back', async () => {
    const opened = await post({ requests: [{ type: 'execute', stmt: { sql: 'CREATE TABLE expiring (x)' } }] })
    const begun = await post({ baton: opened.body.baton, requests: [{ type: 'sequence', sql: 'BEGIN; INSERT INTO expiring VALUES (1)' }] })
    expect(begun.body.results[0]).toEqual({ type: 'ok', response: { type: 'sequence' } })
    const reused = await post({ baton: opened.body.baton, requests: [{ type: 'close' }] })
    expect([reused.status, reused.type]).toEqual([400, 'text/plain'])
    const forged = await post({ baton: `${begun.body.baton.split('.')[0]}.forged`, requests: [{ type: 'close' }] })
    expect([forged.status, forged.type]).toEqual([400, 'text/plain'])
    // Idle streams expire after 10 s (sqld's EXPIRATION); a reused baton is not an activity.
    const next = await post({ baton: begun.body.baton, requests: [{ type: 'get_autocommit' }] }, '/v3/pipeline')
    expect(next.body.results[0].response).toEqual({ type: 'get_autocommit', is_autocommit: false })
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    let idle
    try {
      idle = await post({ baton: next.body.baton, requests: [] }) // arms the idle timer under fake time
      vi.advanceTimersByTime(10_001)
    } finally {
      vi.useRealTimers()
    }
    const expired = await post({ baton: idle.body.baton, requests: [{ type: 'close' }] })
    expect(expired).toMatchObject({ status: 500, type: 'application/json', body: { code: 'STREAM_EXPIRED' } })
    // Rolled back, write lock included: another stream writes at once.
    const after = await post({
      requests: [
        { type: 'execute', stmt: { sql: 'INSERT INTO expiring VALUES (2)' } },
        { type: 'execute', stmt: { sql: 'SELECT x FROM expiring' } },
        { type: 'close' },
      ],
    })
    expect(after.body.results[0].type).toBe('ok')
    expect(after.body.results[1].response.result.rows).toEqual([[{ type: 'integer', value: '2' }]])
  })
})
