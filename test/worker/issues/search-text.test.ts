import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { postgresDialect } from '../../../drivers/dialect/postgres.ts'
import { MIGRATIONS } from '../../../drivers/migrations/index.ts'
import { LOCAL_ENGINES, dropPostgresDatabase, recreatePostgresDatabase } from '../../../tools/local-engines.ts'
import { mulberry32 } from '../../api/helpers/fuzz-requests.ts'
import { TARGETS } from '../../drivers/driver-targets.ts'
import { migratedScope, type MigratedScope } from '../digest/persist/migrated-scope.ts'
import { recordedSearch } from './recorded-search.ts'

// Both cases, digits, LIKE's own syntax and escape, the characters whose lower case is ASCII (KELVIN SIGN,
// I WITH DOT ABOVE), accented and final-sigma letters, a CJK character and an astral one.
const ALPHABET = [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .:/\\_%-()\'"', '\u212a', '\u0130', 'é', 'É', 'Σ', 'ς', 'ß', '中', '😀']

const pick = (next: () => number, length: number) => Array.from({ length }, () => ALPHABET[Math.floor(next() * ALPHABET.length)]).join('')

/**
 * `search_text` (PostgreSQL, migration 0022): each issue's searched text, lowered by PostgreSQL itself, under a
 * pg_trgm index. `q` reads the issues it admits instead of every issue; it must admit every issue the exact
 * test matches, and be kept by the engine whatever writes an issue.
 */
describe.each(TARGETS)('search text on %s (migration 0022)', { timeout: 120_000 }, (target) => {
  let m: MigratedScope
  const now = '2026-10-01 00:00:00'
  type Text = { title: string; message?: string | null; exceptionClass?: string | null; frame?: string | null }
  const insertIssue = (fingerprint: string, text: Text) => m.scope.db.execute(issueRow(fingerprint, text))
  const issueRow = (fingerprint: string, text: Text) => {
    const { t } = m.scope
    return {
      sql: `INSERT INTO ${t.groups} (fingerprint, severity, title, sample_message, exception_class, source_frame, count, first_seen, last_seen, created_at, status, log_type, origin)
        VALUES (?, 'ERROR', ?, ?, ?, ?, 1, ?, ?, ?, 'open', 'laravel', 'ingested')`,
      args: [fingerprint, text.title, text.message ?? null, text.exceptionClass ?? null, text.frame ?? null, now, now, now],
    }
  }
  const haystackOf = async (fingerprint: string) =>
    (await m.rows<{ haystack: string; version: string }>(
      `SELECT st.haystack, st.xmin::text AS version FROM ${m.scope.t.searchText} st JOIN ${m.scope.t.groups} g ON g.id = st.group_id WHERE g.fingerprint = ?`,
      [fingerprint],
    ))[0]
  const found = async (q: string) => (await recordedSearch(m, { q }, 'newest')).page.items.map((item) => item.title).sort()

  beforeAll(async () => {
    m = await migratedScope(target, 'stext')
  })
  afterAll(() => m?.close())

  if (target !== 'neon') {
    it('is PostgreSQL\'s alone: this dialect keeps no search text', () => {
      expect(m.scope.db.dialect.searchTextMatch).toBeNull()
    })
    return
  }

  it('has the trigram index where pg_trgm could be created (the local engine: always)', async () => {
    const rows = await m.rows<{ indexdef: string }>(`SELECT indexdef FROM pg_indexes WHERE indexname = ?`, [`${m.prefix}search_text_trigrams`])
    expect(rows).toHaveLength(1)
    expect(rows[0]!.indexdef).toMatch(/USING gin \(haystack (\w+\.)?gin_trgm_ops\)/)
  })

  it('a new issue gets its row; a changed text rewrites it; a sample differing only in digits does not; a deleted issue takes it along', async () => {
    const { t, db } = m.scope
    await insertIssue('st-1', { title: 'Deadlock in ORDER 42', message: 'Σίσυφος waited 17 ms', exceptionClass: 'PDOException', frame: 'app/Db.php:9' })
    const first = await haystackOf('st-1')
    expect(first!.haystack).toBe('deadlock in order 00\nσίσυφος waited 00 ms\npdoexception\napp/db.php:0')
    // An import's sample with another order id and duration: the same folded text, so no write.
    await db.execute({ sql: `UPDATE ${t.groups} SET sample_message = ?, count = count + 1 WHERE fingerprint = ?`, args: ['Σίσυφος waited 93 ms', 'st-1'] })
    expect(await haystackOf('st-1')).toEqual(first)
    // Counts alone: no write either.
    await db.execute({ sql: `UPDATE ${t.groups} SET count = count + 5, last_seen = ? WHERE fingerprint = ?`, args: ['2026-10-02 00:00:00', 'st-1'] })
    expect(await haystackOf('st-1')).toEqual(first)
    // A new title (a tracker mirror, a merge): rewritten.
    await db.execute({ sql: `UPDATE ${t.groups} SET title = ?, source_frame = NULL WHERE fingerprint = ?`, args: ['Lock wait timeout', 'st-1'] })
    expect((await haystackOf('st-1'))!.haystack).toBe('lock wait timeout\nσίσυφος waited 00 ms\npdoexception')
    await db.execute({ sql: `DELETE FROM ${t.groups} WHERE fingerprint = ?`, args: ['st-1'] })
    expect(await m.rows(`SELECT group_id FROM ${t.searchText}`)).toEqual([])
  })

  it('admits every issue whose text the exact test matches: 400 random texts, 3,000 needles of any case', async () => {
    const { t, db } = m.scope
    const d = db.dialect
    const next = mulberry32(22)
    const texts = Array.from({ length: 400 }, () => [pick(next, 1 + Math.floor(next() * 120)), pick(next, Math.floor(next() * 60)), pick(next, Math.floor(next() * 12)), pick(next, Math.floor(next() * 20))])
    await db.batch(texts.map((columns, i) => issueRow(`rnd-${i}`, { title: columns[0]!, message: columns[1] || null, exceptionClass: columns[2] || null, frame: columns[3] || null })))
    const needles: string[] = []
    for (let round = 0; round < 3000; round++) {
      const column = [...texts[Math.floor(next() * texts.length)]![Math.floor(next() * 4)]!]
      const start = Math.floor(next() * column.length)
      const piece = column.slice(start, start + 1 + Math.floor(next() * 12)).join('')
      // Some needles change case (a text's `Σ` sought as `σ`, an `İ` as `i̇`): PostgreSQL's lower() decides.
      needles.push(next() < 0.5 ? piece.toUpperCase() : next() < 0.5 ? piece.toLowerCase() : piece)
    }
    // Per needle, the issues the exact test matches that the search text would not admit: there must be none.
    const exact = ['title', 'sample_message', 'exception_class', 'source_frame'].map((column) => d.containsCi(`g.${column}`, 'n.needle')).join(' OR ')
    const list = `{${needles.map((needle) => `"${needle.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`).join(',')}}`
    const fromNeedles = `FROM (SELECT unnest(?::text[]) AS needle) n JOIN ${t.groups} g ON ${exact}`
    const missed = await m.rows(`SELECT n.needle, g.title ${fromNeedles} JOIN ${t.searchText} st ON st.group_id = g.id WHERE NOT (${d.searchTextMatch!('st.haystack', 'n.needle')})`, [list])
    expect(missed).toEqual([])
    // And the needles do match: most find their own text.
    const matched = await m.rows<{ found: number }>(`SELECT COUNT(DISTINCT n.needle) AS found ${fromNeedles}`, [list])
    expect(Number(matched[0]!.found)).toBeGreaterThan(2000)
  })

  it('q reads the search text\'s trigram index and the issues it admits by key, never scanning the issues', async () => {
    // 20,000 issues of log-like text, so that the planner weighs an index against a scan as at scale.
    const { t } = m.scope
    await m.rows(`INSERT INTO ${t.groups} (fingerprint, severity, title, sample_message, count, first_seen, last_seen, created_at, status, log_type, origin)
      SELECT 'bulk-' || i, 'ERROR', 'Checkout failure in module ' || md5(i::text), 'order ' || i || ' for user ' || (i % 97), 1, ?, ?, ?, 'open', 'laravel', 'ingested'
      FROM generate_series(1, 20000) AS i`, [now, now, now])
    await insertIssue('dl-1', { title: 'Deadlock found when trying to get lock', message: 'SQLSTATE[40001]' })
    await insertIssue('dl-2', { title: 'Serialization failure', message: 'deadlock detected on order 77' })
    // As autovacuum leaves them: statistics taken, the index's pending list merged (the planner counts a long
    // pending list, which only a bulk insert builds, against the index).
    for (const table of [t.groups, t.searchText, t.modules, t.sourceFiles, t.groupSources]) await m.rows(`ANALYZE ${table}`)
    await m.rows(`SELECT gin_clean_pending_list(?::regclass)`, [`${m.prefix}search_text_trigrams`])
    expect(await found('DEADLOCK')).toEqual(['Deadlock found when trying to get lock', 'Serialization failure'])
    expect(await found('on order 77')).toEqual(['Serialization failure'])
    // A needle whose digits fold to another issue's: admitted, then refused by the exact test.
    expect(await found('on order 78')).toEqual([])
    const { statements } = await recordedSearch(m, { q: 'deadlock' }, 'newest')
    const { rows } = await m.scope.db.execute({ sql: `EXPLAIN ${statements[0]!.sql}`, args: statements[0]!.args })
    const plan = rows.map((row) => String(Object.values(row)[0])).join('\n')
    expect(plan, plan).toMatch(new RegExp(`Bitmap Index Scan on "?${m.prefix}search_text_trigrams`))
    expect(plan, plan).toMatch(new RegExp(`Index Scan using "?${m.prefix}error_groups_pkey"? on "?${m.prefix}error_groups"? g\\b`))
    expect(plan, plan).not.toMatch(/Seq Scan on \S*error_groups/)
  })

  it('a needle without three letters or digits in a row scans the issues, as pg_trgm could not narrow it', async () => {
    const { statements } = await recordedSearch(m, { q: 'a.b' }, 'newest')
    expect(statements[0]!.sql).not.toContain('search_text')
    expect((await recordedSearch(m, { q: 'abc' }, 'newest')).statements[0]!.sql).toContain('search_text')
  })
})

/**
 * A role that may not create extensions (pg_trgm is trusted, so only a role without CREATE on the database):
 * every application migration still applies, `search_text` is kept without its index, and the LIKE test
 * finds the same issues by a scan. Node-side, over the pg client as that role, in a database of its own.
 */
describe.runIf(TARGETS.includes('neon'))('search text where pg_trgm cannot be created (migration 0022)', { timeout: 60_000 }, () => {
  const suffix = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`
  const database = `loupe_notrgm_${suffix}`
  const role = `loupe_plain_${suffix}`
  let admin: pg.Client
  let client: pg.Client

  beforeAll(async () => {
    await recreatePostgresDatabase(database)
    admin = new pg.Client({ connectionString: `${LOCAL_ENGINES.postgresUrl}/${database}` })
    await admin.connect()
    await admin.query(`CREATE ROLE ${role} LOGIN`)
    await admin.query(`GRANT CREATE, USAGE ON SCHEMA public TO ${role}`)
    const url = new URL(`${LOCAL_ENGINES.postgresUrl}/${database}`)
    url.username = role
    client = new pg.Client({ connectionString: url.toString() })
    await client.connect()
  })
  afterAll(async () => {
    await client?.end()
    await admin?.query(`DROP OWNED BY ${role}`).catch(() => {})
    await admin?.end()
    await dropPostgresDatabase(database)
    const server = new pg.Client({ connectionString: `${LOCAL_ENGINES.postgresUrl}/postgres` })
    await server.connect()
    await server.query(`DROP ROLE IF EXISTS ${role}`).finally(() => server.end())
  })

  it('migrates, keeps the text without an index, and the LIKE test still finds the issue', async () => {
    const p = 'plain_'
    await client.query('BEGIN')
    for (const migration of MIGRATIONS.postgres.application) for (const statement of migration.statements(p)) await client.query(statement)
    await client.query('COMMIT')
    expect((await admin.query(`SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm'`)).rowCount).toBe(0)
    expect((await admin.query(`SELECT indexname FROM pg_indexes WHERE tablename = '${p}search_text'`)).rows.map((row) => row.indexname)).toEqual([`${p}search_text_pkey`])
    await client.query(`INSERT INTO ${p}error_groups (fingerprint, severity, title, sample_message, count, first_seen, last_seen, created_at, status, log_type, origin)
      VALUES ('f', 'ERROR', 'Deadlock found', 'order 12', 1, 'x', 'x', 'x', 'open', 'laravel', 'ingested')`)
    const match = postgresDialect.searchTextMatch!('haystack', '$1')
    expect((await client.query(`SELECT haystack FROM ${p}search_text WHERE ${match}`, ['DEADLOCK'])).rows).toEqual([{ haystack: 'deadlock found\norder 00' }])
    expect((await client.query(`SELECT haystack FROM ${p}search_text WHERE ${match}`, ['livelock'])).rows).toEqual([])
  })
})
