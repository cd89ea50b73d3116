import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DIGEST_LINGER_MS, digestIngested } from '../../../../worker/plugins/http-ingest/digest-ingested.ts'
import type { IngestEvent } from '../../../../worker/plugins/http-ingest/ingest-event.ts'
import { stagedRow, stageStatements } from '../../../../worker/plugins/http-ingest/staged-events.ts'
import { sql } from '../../../../drivers/sql.ts'
import { TARGETS } from '../../../drivers/driver-targets.ts'
import { testHookServices } from '../hook-services.ts'
import { migratedScope, type MigratedScope } from '../../digest/persist/migrated-scope.ts'

const NOW = new Date('2026-11-25T12:00:00Z')

function events(count: number, from = 0): IngestEvent[] {
  return Array.from({ length: count }, (_, i) => ({
    message: `Checkout failed for basket ${(from + i) % 40}`,
    severity: 'ERROR',
    environment: 'production',
    channel: i % 2 === 0 ? 'web' : 'worker',
    exceptionClass: 'CheckoutError',
    stack: `    at checkout (/srv/app/checkout.js:${10 + ((from + i) % 40)}:5)`,
    culprit: null,
    occurredAt: '2026-11-25 11:00:00',
    release: i % 3 === 0 ? 'shop@1.0.0' : null,
    context: { user: { id: `u${i}` } },
    fingerprint: null,
    tags: i % 5 === 0 ? ['checkout'] : [],
    module: null,
    eventId: null,
  }))
}

/**
 * The HTTP/Sentry ingest digest against every engine (issue 12): batches of staged events within the round
 * trip budget (≤ 4 per 100 events; PlanetScale pays one per statement), each event stored exactly once —
 * after a write that failed before or after its commit, and with two digests running at once.
 */
describe.each(TARGETS)('digestIngested on %s', { timeout: 120_000 }, (target) => {
  let m: MigratedScope
  const stage = (list: IngestEvent[]) => m.scope.db.batch(stageStatements(m.scope, list.map((event) => stagedRow(event, 'http')), '2026-11-25 12:00:00', sql`1 = 1`))
  const stored = async () => {
    const { t } = m.scope
    const [row] = await m.rows<{ occurrences: number; counted: number; pending: number }>(
      `SELECT (SELECT COUNT(*) FROM ${t.occurrences}) AS occurrences, (SELECT COALESCE(SUM(count), 0) FROM ${t.groups}) AS counted,
        (SELECT COUNT(*) FROM ${t.ingestEvents} WHERE digested_at IS NULL) AS pending`,
    )
    return { occurrences: Number(row!.occurrences), counted: Number(row!.counted), pending: Number(row!.pending) }
  }
  const digest = () => digestIngested({ scope: m.scope, plugins: [], services: testHookServices(), now: () => NOW })
  beforeAll(async () => {
    m = await migratedScope(target, 'digest')
  })
  afterAll(() => m.close())

  it('stores 1,000 staged events in batches of 200 within the round-trip budget', async () => {
    await stage(events(500))
    await stage(events(500, 500))
    const before = m.opened.roundTrips()
    expect(await digest()).toEqual({ events: 1000, batches: 5, more: false })
    const roundTrips = m.opened.roundTrips() - before
    // Per batch: the pending read, the source files, the write; one more read finds nothing left. PlanetScale
    // pays per statement: four of a batch's register the releases its events name (release-registration.ts),
    // one counts the issues' values (issue-value-rollup.ts).
    if (target === 'planetscale') expect(roundTrips).toBeLessThanOrEqual(5 * 35 + 1)
    else {
      expect(roundTrips).toBe(5 * 3 + 1)
      expect(roundTrips / 10).toBeLessThanOrEqual(4)
    }
    expect(await stored()).toEqual({ occurrences: 1000, counted: 1000, pending: 0 })
    const { t } = m.scope
    expect(await m.rows(`SELECT path, log_type, channel FROM ${t.sourceFiles} ORDER BY path`)).toEqual([
      { path: 'http-ingest/0/web', log_type: 'http', channel: 'web' },
      { path: 'http-ingest/0/worker', log_type: 'http', channel: 'worker' },
    ])
    const [releases] = await m.rows<{ n: number }>(`SELECT COUNT(*) AS n FROM ${t.occurrences} WHERE ${m.scope.db.dialect.quote('release')} = 'shop@1.0.0'`)
    expect(Number(releases!.n)).toBe(334)
    const [tagged] = await m.rows<{ n: number }>(`SELECT COUNT(*) AS n FROM ${t.groupTags} gt JOIN ${t.tags} tg ON tg.id = gt.tag_id WHERE tg.name = 'checkout' AND gt.source = 'ingest'`)
    // Basket numbers normalise away (reference §2.4), so all 1,000 events are one issue, tagged once.
    expect(Number(tagged!.n)).toBe(1)
    // The sample is the latest event (reference §2.6): basket 999 % 40.
    const groups = await m.rows<{ title: string; count: number }>(`SELECT title, count FROM ${t.groups}`)
    expect(groups.map((group) => [group.title, Number(group.count)])).toEqual([['CheckoutError: Checkout failed for basket 39', 1000]])
    const [days] = await m.rows<{ n: number }>(`SELECT COALESCE(SUM(count), 0) AS n FROM ${t.dailyCounts}`)
    expect(Number(days!.n)).toBe(1000)
    expect(await digest()).toEqual({ events: 0, batches: 0, more: false })
  })

  it.each([false, true])('stores each event once when the write fails (after its commit: %s) and the digest runs again', async (afterCommit) => {
    const start = await stored()
    await stage(events(150, 1000))
    m.driver.failBatch(2, afterCommit) // the first batch call finds the source files; the second is the write
    await expect(digest()).rejects.toThrow(/connection lost/)
    await digest()
    expect(await stored()).toEqual({ occurrences: start.occurrences + 150, counted: start.counted + 150, pending: 0 })
  })

  it('lingers after a small batch only while events keep arriving, then takes them in one batch', async () => {
    const start = await stored()
    await stage(events(5, 3000))
    const sleeps: number[] = []
    let arrivals = 1
    const outcome = await digestIngested({
      scope: m.scope,
      plugins: [],
      services: testHookServices(),
      now: () => NOW,
      // One more burst arrives while the first batch is written; after it, nothing.
      arrived: () => arrivals-- > 0,
      sleep: async (ms) => {
        sleeps.push(ms)
        await stage(events(30, 3100))
      },
    })
    expect(sleeps).toEqual([DIGEST_LINGER_MS])
    expect(outcome).toEqual({ events: 35, batches: 2, more: false })
    expect(await stored()).toEqual({ occurrences: start.occurrences + 35, counted: start.counted + 35, pending: 0 })
  })

  it('stores each event once when digests run at once', async () => {
    const start = await stored()
    await stage(events(450, 2000))
    // A digest may lose a deadlock to another (PlanetScale, after its retries); the next run finishes the work.
    await Promise.allSettled([digest(), digest(), digest()])
    await digest()
    expect(await stored()).toEqual({ occurrences: start.occurrences + 450, counted: start.counted + 450, pending: 0 })
  })
})
