import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DriverError } from '../../drivers/driver-error.ts'
import type { Driver } from '../../drivers/index.ts'
import { openDriver, TARGETS, type OpenedDriver } from './driver-targets.ts'

/**
 * Issue 10 defect 4 at the driver level, on every driver: a call that outlasts `timeoutMs` fails with a
 * `timeout` DriverError at the deadline, is not retried, and a write batch cut off by it is applied wholly or
 * not at all. D1 has no network connection to stall, so a slow statement shows its deadline here: the
 * binding call cannot be aborted, but the driver stops waiting for it. (The API-level stall tests with the
 * TCP fault proxy are in test/api/database-deadline.test.ts.)
 */
const TIMEOUT_MS = 300

/** A statement that takes well over two seconds on each engine (the recursive count about 2.4 s here). */
function slowStatement(db: Driver): string {
  if (db.dialect.name === 'postgres') return 'SELECT pg_sleep(3) AS slept'
  if (db.dialect.name === 'mysql') return 'SELECT SLEEP(3) AS slept'
  return 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 20000000) SELECT count(*) AS slept FROM c'
}

/** Retries a quick call until the engine is free again (a SQLite server is busy until the slow statement ends). */
async function whenFree<T>(call: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await call()
    } catch (error) {
      if (!(error instanceof DriverError && error.code === 'timeout') || attempt > 100) throw error
      await sleep(100)
    }
  }
}

describe.each(TARGETS)('driver %s under a deadline', (target) => {
  let opened: OpenedDriver
  let db: Driver
  const table = `deadline_${target}_${Date.now().toString(36)}`

  beforeAll(async () => {
    opened = await openDriver(target, { timeoutMs: TIMEOUT_MS })
    db = opened.driver
    await db.execute({ sql: `CREATE TABLE ${table} (name VARCHAR(50) NOT NULL)` })
  })
  afterAll(async () => {
    await opened.close()
  })

  it('fails a call that outlasts the deadline with a timeout, once, at the deadline', async () => {
    const before = opened.roundTrips()
    const started = Date.now()
    const error = await db.execute({ sql: slowStatement(db) }).then(() => undefined, (e: unknown) => e)
    const elapsed = Date.now() - started
    expect(error).toBeInstanceOf(DriverError)
    expect(error).toMatchObject({ code: 'timeout', driver: target, message: `The database did not answer within ${TIMEOUT_MS} ms.` })
    expect(elapsed).toBeGreaterThanOrEqual(TIMEOUT_MS - 20)
    expect(elapsed).toBeLessThan(TIMEOUT_MS + 1500) // well short of the statement itself
    expect(opened.roundTrips() - before).toBe(1) // never retried
    expect((await whenFree(() => db.execute({ sql: 'SELECT 1 AS one' }))).rows).toEqual([{ one: 1 }])
  })

  it('leaves a write batch cut off by the deadline wholly applied or not at all', async () => {
    await expect(
      db.batch([
        { sql: `INSERT INTO ${table} (name) VALUES (?)`, args: ['before'] },
        { sql: slowStatement(db) },
        { sql: `INSERT INTO ${table} (name) VALUES (?)`, args: ['after'] },
      ]),
    ).rejects.toMatchObject({ name: 'DriverError', code: 'timeout' })
    await sleep(3500) // the server finishes (or abandons) the batch on its own
    const { rows } = await whenFree(() => db.execute<{ name: string }>({ sql: `SELECT name FROM ${table} ORDER BY name` }))
    expect([[], [{ name: 'after' }, { name: 'before' }]]).toContainEqual(rows)
  })
})
