import { createClient, type Transaction } from '@libsql/client'
import mysql from 'mysql2/promise'
import pg from 'pg'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import type { Statement } from '../../../drivers/driver.ts'
import { postgresDialect } from '../../../drivers/dialect/postgres.ts'
import { applyMigrations, readMigrationState } from '../../../drivers/migrate.ts'
import { MIGRATIONS } from '../../../drivers/migrations/index.ts'
import { LOCAL_ACTOR } from '../../../worker/actor.ts'
import type { AppScope } from '../../../worker/apps/app-scope.ts'
import { tablesFor } from '../../../worker/apps/tables.ts'
import { rulePassStatements } from '../../../worker/digest/persist/persist-statements.ts'
import { createTag, tagWriteStatements, updateTagStatements } from '../../../worker/tags/tags.ts'
import { openDriver, TARGETS, type OpenedDriver } from '../../drivers/driver-targets.ts'

/**
 * Issue 10 defect 5, as a deterministic interleaving on each engine with a server behind it: an import's
 * batch (new issues, then its tag-rule pass: `rulePassStatements`) and a tag update changing the rule word
 * (`updateTagStatements`) run as two real transactions on two connections. One transaction is held open,
 * uncommitted, after its last statement while the other runs as far as the engine lets it; then the first
 * commits, the second finishes and commits. Both orders. Afterwards the rule-made assignments must be
 * exactly what the current rule produces (seed §4.2 rule 4): no assignment of the old word survives, and
 * the new word reaches the issues the import added.
 *
 * PostgreSQL and MySQL run the statements through `pg`/`mysql2` in explicit transactions (the engine's
 * default isolation, as Neon's and PlanetScale's batches get); libSQL through `@libsql/client` interactive
 * write transactions on the local Hrana server, where SQLite serialises them.
 */
const NOW = '2026-05-01 10:00:00'

interface Session {
  begin(): Promise<void>
  run(statement: Statement): Promise<void>
  commit(): Promise<void>
  rollback(): Promise<void>
  /** Whether the session is waiting for a lock now (undefined where the engine cannot tell). */
  waitingForLock(): Promise<boolean | undefined>
  close(): Promise<void>
}

async function postgresSession(url: string, monitor: pg.Client): Promise<Session> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  const pid = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid
  const query = async (sql: string, args: readonly unknown[] = []) => void (await client.query(postgresDialect.compile(sql), [...args]))
  return {
    begin: () => query('BEGIN'),
    run: (statement) => query(statement.sql, statement.args),
    commit: () => query('COMMIT'),
    rollback: () => query('ROLLBACK'),
    async waitingForLock() {
      const { rows } = await monitor.query<{ wait: string | null }>('SELECT wait_event_type AS wait FROM pg_stat_activity WHERE pid = $1', [pid])
      return rows[0]?.wait === 'Lock'
    },
    close: () => client.end(),
  }
}

async function mysqlSession(url: string, monitor: mysql.Connection): Promise<Session> {
  const connection = await mysql.createConnection(url)
  const query = async (sql: string, args: readonly unknown[] = []) => void (await connection.query(sql, [...args]))
  return {
    begin: () => query('BEGIN'),
    run: (statement) => query(statement.sql, statement.args),
    commit: () => query('COMMIT'),
    rollback: () => query('ROLLBACK'),
    async waitingForLock() {
      const [rows] = await monitor.query("SELECT COUNT(*) AS n FROM information_schema.INNODB_TRX WHERE trx_mysql_thread_id = ? AND trx_state = 'LOCK WAIT'", [connection.threadId])
      return Number((rows as { n: number }[])[0]!.n) > 0
    },
    close: () => connection.end(),
  }
}

function libsqlSession(url: string): Session {
  const client = createClient({ url, intMode: 'number' })
  let tx: Transaction | undefined
  return {
    async begin() {
      tx = await client.transaction('write')
      await tx.execute('SELECT 1') // the stream's BEGIN IMMEDIATE runs with its first statement
    },
    run: async (statement) => void (await tx!.execute({ sql: statement.sql, args: [...(statement.args ?? [])] as (string | number | null)[] })),
    commit: () => tx!.commit(),
    rollback: () => tx!.rollback(),
    waitingForLock: async () => undefined,
    close: async () => client.close(),
  }
}

function isDeadlock(error: unknown): boolean {
  const e = error as { code?: string; errno?: number }
  return e?.code === '40P01' || e?.code === '40001' || e?.errno === 1213
}

/**
 * Runs `first` to its end and holds it open; runs `second` until it finishes or waits for a lock; commits
 * `first`; lets `second` finish and commits it. A deadlock victim is rolled back and run again after the
 * other committed, as the drivers' retry does.
 */
async function interleave(sessions: [Session, Session], first: readonly Statement[], second: readonly Statement[]): Promise<{ secondWaited: boolean | undefined }> {
  const [a, b] = sessions
  await a.begin()
  for (const statement of first) await a.run(statement)
  let settled = false
  const running = (async () => {
    await b.begin()
    for (const statement of second) await b.run(statement)
  })().then(
    () => ({ ok: true as const }),
    (error: unknown) => ({ ok: false as const, error }),
  )
  void running.then(() => (settled = true))
  let waited: boolean | undefined = false
  for (let i = 0; i < 100 && !settled; i++) {
    const waiting = await b.waitingForLock()
    if (waiting === undefined && i >= 5) {
      waited = undefined // no way to ask: give it half a second
      break
    }
    if (waiting) {
      waited = true
      break
    }
    await sleep(100)
  }
  if (!settled && waited === false) throw new Error('the second transaction neither finished nor waited for a lock')
  await a.commit()
  const outcome = await running
  if (!outcome.ok) {
    if (!isDeadlock(outcome.error)) throw outcome.error
    await b.rollback()
    await b.begin()
    for (const statement of second) await b.run(statement)
  }
  await b.commit()
  return { secondWaited: waited }
}

const ENGINES = TARGETS.filter((target) => target === 'neon' || target === 'planetscale' || target === 'libsql')

describe.each(ENGINES)('tag rule changes racing an import on %s', (target) => {
  let opened: OpenedDriver
  let monitorPg: pg.Client | undefined
  let monitorMysql: mysql.Connection | undefined
  const connections = () => inject('driverConnections')

  beforeAll(async () => {
    opened = await openDriver(target)
    await readMigrationState(opened.driver)
    if (target === 'neon') {
      monitorPg = new pg.Client({ connectionString: connections().neonUrl! })
      await monitorPg.connect()
    }
    if (target === 'planetscale') monitorMysql = await mysql.createConnection(connections().mysqlUrl!)
  })
  afterAll(async () => {
    await monitorPg?.end()
    await monitorMysql?.end()
    await opened.close()
  })

  async function session(): Promise<Session> {
    if (target === 'neon') return postgresSession(connections().neonUrl!, monitorPg!)
    if (target === 'planetscale') return mysqlSession(connections().mysqlUrl!, monitorMysql!)
    return libsqlSession(connections().libsqlUrl!)
  }

  /** A fresh application schema with tag "Race" (rule word `oldword`) and two issues from an earlier import. */
  async function prepare(label: string): Promise<{ scope: AppScope; tagId: number }> {
    const db = opened.driver
    const prefix = `race${label}${Date.now().toString(36)}_`
    await applyMigrations(db, prefix.slice(0, -1), prefix, MIGRATIONS[db.dialect.name].application, 0, NOW)
    const scope: AppScope = { app: { id: prefix, name: prefix, namespace: 0, created_at: NOW }, db, t: tablesFor(prefix, db.dialect) }
    await db.batch(['seed-old', 'seed-new'].map((fp) => insertIssue(scope, fp, fp === 'seed-old' ? 'Earlier oldword failure' : 'Earlier newword failure')))
    const tag = await createTag(scope, { name: 'Race', match_word: 'oldword' }, LOCAL_ACTOR, NOW)
    return { scope, tagId: tag.id }
  }

  function insertIssue(scope: AppScope, fingerprint: string, title: string): Statement {
    return {
      sql: `INSERT INTO ${scope.t.groups} (fingerprint, severity, title, count, first_seen, last_seen, sample_message, created_at) VALUES (?, 'ERROR', ?, 1, ?, ?, ?, ?)`,
      args: [fingerprint, title, NOW, NOW, title, NOW],
    }
  }

  /** The import's batch: two new issues, then its rule pass over them. */
  function importBatch(scope: AppScope): Statement[] {
    return [
      insertIssue(scope, 'import-old', 'Imported oldword failure'),
      insertIssue(scope, 'import-new', 'Imported NEWWORD failure'),
      ...rulePassStatements(scope, JSON.stringify([{ fp: 'import-old' }, { fp: 'import-new' }]), NOW),
    ]
  }

  /** Rule-made assignments as they are, and as the current rules produce them. */
  async function assignments(scope: AppScope) {
    const { t, db } = scope
    const has = (column: string) => db.dialect.containsCi(column, 'r.match_word')
    const [made, produced] = await db.batch([
      { sql: `SELECT g.fingerprint FROM ${t.groupTags} gt JOIN ${t.groups} g ON g.id = gt.group_id WHERE gt.source = 'rule' ORDER BY g.fingerprint` },
      {
        sql: `SELECT DISTINCT g.fingerprint FROM ${t.groups} g JOIN ${t.tagRules} r ON r.enabled = 1
          WHERE ${has('g.title')} OR ${has('g.sample_message')} OR ${has('g.exception_class')} ORDER BY g.fingerprint`,
      },
    ])
    return { made: made!.rows.map((row) => row.fingerprint), produced: produced!.rows.map((row) => row.fingerprint) }
  }

  it.each([
    ['the update commits while the import waits', 'update-first'],
    ['the import commits while the update waits', 'import-first'],
  ])('%s: rule-made assignments equal what the new rule produces', async (_title, order) => {
    const { scope, tagId } = await prepare(order === 'update-first' ? 'u' : 'i')
    expect((await assignments(scope)).made).toEqual(['seed-old'])
    const update = tagWriteStatements(updateTagStatements(scope, tagId, { name: 'Race', match_word: 'newword' }, LOCAL_ACTOR, NOW))
    const sessions: [Session, Session] = [await session(), await session()]
    let secondWaited: boolean | undefined
    try {
      const statements = order === 'update-first' ? ([update, importBatch(scope)] as const) : ([importBatch(scope), update] as const)
      secondWaited = (await interleave(sessions, statements[0], statements[1])).secondWaited
    } finally {
      await Promise.all(sessions.map((s) => s.close()))
    }
    const { made, produced } = await assignments(scope)
    expect(produced).toEqual(['import-new', 'seed-new'])
    expect(made).toEqual(produced)
    // Where the engine can tell, the second transaction really had to wait for the first.
    if (secondWaited !== undefined) expect(secondWaited).toBe(true)
  })
})
