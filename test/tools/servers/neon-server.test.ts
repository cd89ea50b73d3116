/**
 * The local Neon "SQL over HTTP" server, driven by the real `@neondatabase/serverless` 1.2.0 client (the
 * authority on the protocol, wire-protocols.md §1.2/§5b) and, for what the client never sends, by raw fetch.
 */
import { neon, neonConfig, NeonDbError, type NeonQueryFunction } from '@neondatabase/serverless'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { perRunDatabaseName } from '../../../tools/database-targets.ts'
import { LOCAL_ENGINES } from '../../../tools/local-engines.ts'
import { startNeonServer, type RunningServer } from '../../../tools/servers/neon-server.ts'

const DB = perRunDatabaseName('loupe_neon_server_test')
const ADMIN_URL = `${LOCAL_ENGINES.postgresUrl}/postgres`
const CONNECTION_STRING = LOCAL_ENGINES.neonConnectionString(DB)

let server: RunningServer
let sql: NeonQueryFunction<false, false>

async function admin(statement: string): Promise<Record<string, unknown>[]> {
  const client = new pg.Client(ADMIN_URL)
  await client.connect()
  try {
    return (await client.query(statement)).rows as Record<string, unknown>[]
  } finally {
    await client.end()
  }
}

/** A request the way the driver sends it (§5b), with header overrides; `null` removes a header. */
async function post(body: unknown, headers: Record<string, string | null> = {}): Promise<{ status: number; json: unknown; headers: Headers }> {
  const all: Record<string, string | null> = {
    'content-type': 'text/plain;charset=UTF-8',
    'Neon-Connection-String': CONNECTION_STRING,
    'Neon-Raw-Text-Output': 'true',
    'Neon-Array-Mode': 'true',
    ...headers,
  }
  const res = await fetch(server.url, {
    method: 'POST',
    body: typeof body === 'string' ? body : JSON.stringify(body),
    headers: Object.fromEntries(Object.entries(all).filter((e): e is [string, string] => e[1] !== null)),
  })
  expect(res.headers.get('content-type')).toBe('application/json')
  return { status: res.status, json: await res.json(), headers: res.headers }
}

async function rejection(promise: Promise<unknown>): Promise<NeonDbError> {
  const error: unknown = await promise.then(() => undefined, (e: unknown) => e)
  expect(error).toBeInstanceOf(NeonDbError)
  return error as NeonDbError
}

beforeAll(async () => {
  await admin(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`)
  await admin(`CREATE DATABASE ${DB}`)
  server = await startNeonServer({ port: 0 })
  neonConfig.fetchEndpoint = server.url
  sql = neon(CONNECTION_STRING)
})

afterAll(async () => {
  await server?.close()
  await admin(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`)
})

describe('neon-server through @neondatabase/serverless', () => {
  it('listens on an ephemeral port at /sql', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/sql$/)
  })

  it('returns values the driver parses into the right JS types', async () => {
    const rows = await sql.query('SELECT $1::int AS a, $2::text AS b, $3::bool AS c, NULL::text AS d, $4::float8 AS e', [42, 'x', true, 1.5])
    expect(rows).toEqual([{ a: 42, b: 'x', c: true, d: null, e: 1.5 }])
  })

  it('leaves int8 (COUNT(*)) as a string, as the driver does', async () => {
    const rows = await sql.query('SELECT COUNT(*) AS n FROM generate_series(1, 3)')
    expect(rows).toEqual([{ n: '3' }])
  })

  it('round-trips jsonb, bytea, timestamptz and arrays', async () => {
    const bytes = Buffer.from([0, 1, 254, 255])
    const [row] = await sql.query('SELECT $1::jsonb AS j, $2::bytea AS b, $3::timestamptz AS t, $4::text[] AS arr', [
      { k: [1, 'two'], n: null }, bytes, '2024-05-06T07:08:09.123Z', ['a', 'b "c"', null],
    ])
    expect(row?.['j']).toEqual({ k: [1, 'two'], n: null })
    expect(Buffer.from(row?.['b'] as Uint8Array).equals(bytes)).toBe(true)
    expect((row?.['t'] as Date).toISOString()).toBe('2024-05-06T07:08:09.123Z')
    expect(row?.['arr']).toEqual(['a', 'b "c"', null])
  })

  it('creates a table, inserts with RETURNING and reports command and rowCount in fullResults', async () => {
    const created = await sql.query('CREATE TABLE items (id serial PRIMARY KEY, name text UNIQUE NOT NULL)', [], { fullResults: true })
    expect(created).toMatchObject({ command: 'CREATE', rowCount: null, rows: [] })
    const inserted = await sql.query("INSERT INTO items (name) VALUES ($1), ($2) RETURNING id", ['a', 'b'], { fullResults: true })
    expect(inserted.command).toBe('INSERT')
    expect(inserted.rowCount).toBe(2)
    expect(inserted.rows).toEqual([{ id: 1 }, { id: 2 }])
    expect(inserted.fields.map((f) => [f.name, f.dataTypeID])).toEqual([['id', 23]])
    const updated = await sql.query('UPDATE items SET name = name', [], { fullResults: true })
    expect([updated.command, updated.rowCount]).toEqual(['UPDATE', 2])
  })

  it('honours arrayMode', async () => {
    expect(await sql.query('SELECT 1 AS x, $1 AS y', ['z'], { arrayMode: true })).toEqual([[1, 'z']])
  })

  it('commits a transaction', async () => {
    const results = await sql.transaction([
      sql.query('INSERT INTO items (name) VALUES ($1) RETURNING id', ['tx1']),
      sql.query('INSERT INTO items (name) VALUES ($1) RETURNING id', ['tx2']),
      sql`SELECT COUNT(*)::int AS n FROM items WHERE name LIKE 'tx%'`,
    ])
    expect(results).toEqual([[{ id: 3 }], [{ id: 4 }], [{ n: 2 }]])
    expect(await sql.query("SELECT name FROM items WHERE name LIKE 'tx%' ORDER BY id")).toEqual([{ name: 'tx1' }, { name: 'tx2' }])
  })

  it('rolls a failing transaction back and throws NeonDbError with the SQLSTATE', async () => {
    const error = await rejection(sql.transaction([
      sql.query('INSERT INTO items (name) VALUES ($1)', ['rolled-back']),
      sql.query('INSERT INTO items (name) VALUES ($1)', ['a']),
    ]))
    expect(error.code).toBe('23505')
    expect(error.constraint).toBe('items_name_key')
    expect(error.table).toBe('items')
    expect(error.message).toBe('duplicate key value violates unique constraint "items_name_key"')
    expect(error.detail).toBe('Key (name)=(a) already exists.')
    expect(await sql.query("SELECT COUNT(*)::int AS n FROM items WHERE name = 'rolled-back'")).toEqual([{ n: 0 }])

    const missing = await rejection(sql.transaction([sql`SELECT 1`, sql`SELECT * FROM nope`]))
    expect(missing.code).toBe('42P01')
    expect(missing.position).toBe('15')
    expect(missing.severity).toBe('ERROR')
  })

  it('applies the read-only and isolation options of a transaction', async () => {
    const readOnly = await rejection(sql.transaction([sql`INSERT INTO items (name) VALUES ('ro')`], { readOnly: true }))
    expect(readOnly.code).toBe('25006')
    const settings = await sql.transaction(
      [sql`SHOW transaction_isolation`, sql`SHOW transaction_read_only`, sql`SHOW transaction_deferrable`],
      { isolationLevel: 'Serializable', readOnly: true, deferrable: true },
    )
    expect(settings).toEqual([[{ transaction_isolation: 'serializable' }], [{ transaction_read_only: 'on' }], [{ transaction_deferrable: 'on' }]])
  })

  it('serves concurrent queries, more than the pool size', async () => {
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => sql.query('SELECT $1::int * 2 AS v, pg_sleep(0.02)', [i])))
    expect(results.map((r) => r[0]?.['v'])).toEqual(Array.from({ length: 20 }, (_, i) => i * 2))
  })

  it('surfaces a single-statement error as NeonDbError', async () => {
    const error = await rejection(sql.query('SELECT * FROM nope'))
    expect(error).toMatchObject({ code: '42P01', message: 'relation "nope" does not exist', severity: 'ERROR', position: '15' })
  })
})

describe('neon-server wire format', () => {
  it('answers a single query with exactly the proxy result keys, values as Postgres text', async () => {
    const { status, json } = await post({ query: 'SELECT $1::int AS x, $2 AS s, NULL::int AS n, 2::int8 AS big', params: ['42', 'x'] })
    expect(status).toBe(200)
    expect(json).toEqual({
      rowAsArray: true,
      fields: [
        { name: 'x', dataTypeID: 23, tableID: 0, columnID: 0, dataTypeSize: 4, dataTypeModifier: -1, format: 'text' },
        { name: 's', dataTypeID: 25, tableID: 0, columnID: 0, dataTypeSize: -1, dataTypeModifier: -1, format: 'text' },
        { name: 'n', dataTypeID: 23, tableID: 0, columnID: 0, dataTypeSize: 4, dataTypeModifier: -1, format: 'text' },
        { name: 'big', dataTypeID: 20, tableID: 0, columnID: 0, dataTypeSize: 8, dataTypeModifier: -1, format: 'text' },
      ],
      rows: [['42', 'x', null, '2']],
      command: 'SELECT',
      rowCount: 1,
    })
  })

  it('reports table and column ids for table columns', async () => {
    const { json } = await post({ query: 'SELECT name FROM items WHERE id = 1' })
    const [field] = (json as { fields: { tableID: number; columnID: number }[] }).fields
    expect(field?.tableID).toBeGreaterThan(0)
    expect(field?.columnID).toBe(2)
  })

  it('converts to JSON types without Neon-Raw-Text-Output, and to objects without Neon-Array-Mode', async () => {
    const { json } = await post(
      { query: "SELECT 1::int2 AS i, 't'::bool AS b, 1.5::float8 AS f, 'NaN'::float8 AS nan, 10::int8 AS big, 1.10::numeric AS num, '{\"a\":[1]}'::jsonb AS j, ARRAY[[1,2],[3,NULL]]::int[] AS arr, '{}'::text[] AS empty, ARRAY['x,y', NULL] AS txt" },
      { 'Neon-Raw-Text-Output': null, 'Neon-Array-Mode': null },
    )
    expect(json).toMatchObject({
      rowAsArray: false,
      rows: [{ i: 1, b: true, f: 1.5, nan: 'NaN', big: '10', num: '1.10', j: { a: [1] }, arr: [[1, 2], [3, null]], empty: [], txt: ['x,y', null] }],
    })
  })

  it('lets a per-query arrayMode override the header', async () => {
    const { json } = await post({ query: 'SELECT 1 AS one', arrayMode: false })
    expect(json).toMatchObject({ rowAsArray: false, rows: [{ one: '1' }] })
  })

  it('encodes JSON params like the proxy: numbers, booleans and objects as JSON text, arrays as array literals', async () => {
    const { json } = await post({
      query: 'SELECT $1::int AS n, $2::bool AS b, $3::jsonb AS o, $4::text[] AS a, $5::int[] AS ia, $6::text AS nul',
      params: [7, false, { x: 'y' }, ['p', 'q"r', null], [[1, 2], [3, 4]], null],
    })
    expect((json as { rows: unknown[] }).rows).toEqual([['7', 'f', '{"x": "y"}', '{p,"q\\"r",NULL}', '{{1,2},{3,4}}', null]])
  })

  it('runs a batch as one transaction and echoes the transaction headers', async () => {
    const { status, json, headers } = await post(
      { queries: [{ query: 'SELECT 1 AS a', params: [] }, { query: "SELECT current_setting('transaction_isolation') AS l" }] },
      { 'Neon-Batch-Isolation-Level': 'RepeatableRead', 'Neon-Batch-Read-Only': 'true', 'Neon-Batch-Deferrable': 'false' },
    )
    expect(status).toBe(200)
    const { results } = json as { results: { rows: unknown[]; command: string }[] }
    expect(results.map((r) => [r.command, r.rows])).toEqual([['SELECT', [['1']]], ['SELECT', [['repeatable read']]]])
    expect(headers.get('neon-batch-isolation-level')).toBe('RepeatableRead')
    expect(headers.get('neon-batch-read-only')).toBe('true')
    expect(headers.get('neon-batch-deferrable')).toBeNull()
  })

  it('answers Postgres errors with 400 and the DbError fields', async () => {
    const { status, json } = await post({ query: 'SELECT 1/0' })
    expect(status).toBe(400)
    expect(json).toMatchObject({ message: 'division by zero', code: '22012', severity: 'ERROR', routine: 'int4div' })
    expect(Object.keys(json as object).every((k) => typeof (json as Record<string, unknown>)[k] === 'string')).toBe(true)
  })

  it('rejects several statements in one query, as the extended protocol does', async () => {
    const { status, json } = await post({ query: 'SELECT 1; SELECT 2' })
    expect(status).toBe(400)
    expect(json).toMatchObject({ code: '42601' })
  })

  it('does not return a connection left inside a transaction to the pool', async () => {
    const opened = await post({ query: 'BEGIN' })
    expect(opened.json).toMatchObject({ command: 'BEGIN', rowCount: null })
    // A pooled connection would sit "idle in transaction" and hand its open transaction to the next request.
    const idleInTransaction = `SELECT COUNT(*)::int AS n FROM pg_stat_activity WHERE datname = '${DB}' AND state LIKE 'idle in transaction%'`
    await expect.poll(async () => (await admin(idleInTransaction))[0]?.['n'], { timeout: 5_000 }).toBe(0)
  })

  it('rejects bad requests with 400 and a message', async () => {
    expect(await post('{not json')).toMatchObject({ status: 400, json: { message: expect.any(String) } })
    expect(await post({ nothing: true })).toMatchObject({ status: 400, json: { message: expect.any(String) } })
    expect(await post({ query: 'SELECT 1' }, { 'Neon-Connection-String': null })).toMatchObject({ status: 400, json: { message: 'missing connection string' } })
    expect(await post({ queries: [] }, { 'Neon-Batch-Isolation-Level': 'Chaos' })).toMatchObject({ status: 400, json: { message: 'invalid isolation level' } })
  })

  it('answers 400 with the Postgres error for an unknown database, 502 when nothing listens', async () => {
    const unknownDb = await post({ query: 'SELECT 1' }, { 'Neon-Connection-String': 'postgresql://postgres:pw@127.0.0.1:5432/loupe_no_such_db' })
    expect(unknownDb).toMatchObject({ status: 400, json: { code: '3D000' } })
    const down = await post({ query: 'SELECT 1' }, { 'Neon-Connection-String': 'postgresql://postgres:pw@127.0.0.1:1/db' })
    expect(down.status).toBe(502)
    expect(down.json).toEqual({ message: expect.stringContaining('ECONNREFUSED') })
  })

  it('answers CORS preflight like the proxy', async () => {
    const res = await fetch(server.url, { method: 'OPTIONS' })
    expect(res.status).toBe(200)
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
    expect(res.headers.get('access-control-allow-headers')).toContain('Neon-Connection-String')
  })
})

describe('startNeonServer with databases', () => {
  it('serves only the databases it fronts, like an endpoint of one project', async () => {
    const only = await startNeonServer({ databases: [DB] })
    try {
      const ask = (database: string) =>
        fetch(only.url, {
          method: 'POST',
          body: JSON.stringify({ query: 'SELECT 1 AS one', params: [] }),
          headers: { 'Neon-Connection-String': `postgresql://postgres:pw@127.0.0.1:5432/${database}`, 'Neon-Raw-Text-Output': 'true', 'Neon-Array-Mode': 'true' },
        })
      const served = await ask(DB)
      expect(served.status).toBe(200)
      expect(((await served.json()) as { rows: unknown }).rows).toEqual([['1']])
      const refused = await ask('postgres')
      expect(refused.status).toBe(400)
      expect(await refused.json()).toEqual({ message: 'database "postgres" does not exist', code: '3D000', severity: 'FATAL' })
    } finally {
      await only.close()
    }
  })
})
