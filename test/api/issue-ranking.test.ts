import { beforeAll, describe, expect, it } from 'vitest'
import { SEVERITIES } from '../../shared/constants.ts'
import { call, createTestApp, get, post, type ApiCall } from './helpers/api.ts'
import { createIssue, expectRoundTrips } from './helpers/fixtures.ts'
import { allowSeverities, daysAgo, ok, upload } from './ingestion-helpers.ts'

/**
 * Issue 17 items 3 and 4 on every driver: the `priority` sort (severity band, then `heat`, the occurrences
 * decayed with a 7-day half-life — worker/issues/issue-heat.ts, migration 0013), `min_severity`, the per-row 14-day `trend` and `badges`, slim rows, and the list's round trips.
 */

/** `count` Laravel lines of one message on `day`, one second apart from `second`: one issue, `count` occurrences. */
function lines(day: string, level: string, message: string, count: number, second = 0): string {
  let text = ''
  for (let i = 0; i < count; i++) {
    const n = second + i
    text += `[${day} 00:${String(Math.floor(n / 60) % 60).padStart(2, '0')}:${String(n % 60).padStart(2, '0')}] production.${level}: ${message}\n`
  }
  return text
}

const EMERGENCY = 'Primary database unreachable'
const NOTICE = 'Cache warmed slowly'
const ERROR_OLD = 'Payment gateway timeout'
const ERROR_RECENT = 'Queue worker crashed'
const WARNING_ESCALATING = 'Disk nearly full'
const WARNING_STEADY = 'Cache miss storm'
const FRESH = 'Fresh import failure'
const MANUAL = 'Manual follow-up'

describe('issue ranking, trends and badges (issue 17)', () => {
  let app: string
  const byTitle = new Map<string, any>()

  beforeAll(async () => {
    app = await createTestApp('ranking')
    await allowSeverities(app, SEVERITIES)
    // Today's lines all fall at 00:00–00:01 UTC, before "now" (the trend ends today, UTC).
    let body = ''
    body += lines(daysAgo(3), 'EMERGENCY', EMERGENCY, 1)
    body += lines(daysAgo(2), 'NOTICE', NOTICE, 60)
    body += lines(daysAgo(10), 'ERROR', ERROR_OLD, 20) + lines(daysAgo(0), 'ERROR', ERROR_OLD, 2)
    body += lines(daysAgo(1), 'ERROR', ERROR_RECENT, 5)
    // 12 today against 1 a day over the previous week: escalating (≥ 10 and ≥ 3 × 1).
    for (let d = 1; d <= 7; d++) body += lines(daysAgo(d), 'WARNING', WARNING_ESCALATING, 1, 10)
    body += lines(daysAgo(0), 'WARNING', WARNING_ESCALATING, 12, 10)
    // 12 today against 5 a day: not escalating (needs 15).
    for (let d = 1; d <= 7; d++) body += lines(daysAgo(d), 'WARNING', WARNING_STEADY, 5, 30)
    body += lines(daysAgo(0), 'WARNING', WARNING_STEADY, 12, 30)
    body += lines(daysAgo(0), 'ERROR', FRESH, 1, 50)
    // Occurrences older than the 14-day window count in `count` but not in `trend`.
    body += lines(daysAgo(20), 'ERROR', ERROR_RECENT, 3, 55)
    await ok(upload(app, 'ranking/laravel.log', body))
    await createIssue(app, { title: MANUAL, severity: 'CRITICAL' })
    const list = await ok(get('issues', { query: { app, limit: 200 } }))
    for (const item of list.data) byTitle.set(item.title, item)
    expect(byTitle.size).toBe(8)
    // A fixed issue that occurs again becomes `reoccurred` (reference §2.8): regressed.
    await ok(post('issue-status', { id: byTitle.get(ERROR_RECENT).id, status: 'fixed' }, { query: { app } }))
    await ok(upload(app, 'ranking/again.log', lines(daysAgo(0), 'ERROR', ERROR_RECENT, 1, 58)))
  })

  const titles = (body: any): string[] => (body.data ?? body.items).map((item: { title: string }) => item.title)

  it('priority: most severe band first (EMERGENCY above NOTICE whatever the counts), then decayed frequency, then latest activity', async () => {
    const response = await get('issues', { query: { app, sort: 'priority' } })
    expect(response.status, response.text).toBe(200)
    expect(titles(response.body)).toEqual([
      EMERGENCY, // band 0, one occurrence
      MANUAL, // CRITICAL, no occurrences
      // Heat in today's events (weight 2^(−days ago / 7)):
      ERROR_OLD, // ERROR: 2 today + 20 ten days ago ≈ 2 + 7.4
      ERROR_RECENT, // ERROR: 1 today + 5 yesterday + 3 twenty days ago ≈ 1 + 4.5 + 0.4
      FRESH, // ERROR: 1 today
      WARNING_STEADY, // WARNING: 12 today + 5 a day over the week before ≈ 12 + 24.0
      WARNING_ESCALATING, // WARNING: 12 today + 1 a day over the week before ≈ 12 + 4.8
      NOTICE, // NOTICE: 60 — the most occurrences, last
    ])
    expect(response.body.meta.sort).toBe('priority')
    // The API's documented defaults are unchanged: most occurrences first puts the NOTICE on top.
    expect(titles((await get('groups', { query: { app } })).body)[0]).toBe(NOTICE)
    expect((await get('issues', { query: { app } })).body.meta.sort).toBe('newest')
    // One read batch (PlanetScale: two concurrent requests) — design.md §5.
    expectRoundTrips(response, 1, 2)
  })

  it('priority pages continue the same order', async () => {
    const first = await ok(get('groups', { query: { app, sort: 'priority', limit: 3, page: 1 } }))
    const third = await ok(get('groups', { query: { app, sort: 'priority', limit: 3, page: 3 } }))
    expect(titles(first)).toEqual([EMERGENCY, MANUAL, ERROR_OLD])
    expect(titles(third)).toEqual([WARNING_ESCALATING, NOTICE])
    expect(third.meta).toEqual({ total: 8, page: 3, limit: 3, pages: 3 })
  })

  it('min_severity keeps that severity and worse, combined with the other filters', async () => {
    const errors = await ok(get('issues', { query: { app, min_severity: 'error', sort: 'priority' } }))
    expect(titles(errors)).toEqual([EMERGENCY, MANUAL, ERROR_OLD, ERROR_RECENT, FRESH])
    expect(errors.meta.total).toBe(5)
    expect(titles(await ok(get('groups', { query: { app, min_severity: 'EMERGENCY' } })))).toEqual([EMERGENCY])
    expect((await ok(get('issues', { query: { app, min_severity: 'DEBUG' } }))).meta.total).toBe(8)
    const combined = await ok(get('issues', { query: { app, min_severity: 'ERROR', origin: 'ingested', status: 'reoccurred' } }))
    expect(titles(combined)).toEqual([ERROR_RECENT])
    expect((await ok(get('issues', { query: { app, min_severity: 'WARNING', severity: 'NOTICE' } }))).meta.total).toBe(0)
    const bad = await get('issues', { query: { app, min_severity: 'LOUD' } })
    expect(bad.status).toBe(422)
    expect(bad.body).toEqual({ error: 'Unsupported issue severity.' })
  })

  it('trend: 14 daily counts from the rollup, oldest first, ending today (UTC)', async () => {
    const list = await ok(get('issues', { query: { app, limit: 200 } }))
    const trend = (title: string) => list.data.find((item: { title: string }) => item.title === title).trend
    const zeros = () => Array.from({ length: 14 }, () => 0)
    const expected = (entries: Record<number, number>) => {
      const days = zeros()
      for (const [ago, count] of Object.entries(entries)) days[13 - Number(ago)] = count
      return days
    }
    expect(trend(EMERGENCY)).toEqual(expected({ 3: 1 }))
    expect(trend(NOTICE)).toEqual(expected({ 2: 60 }))
    expect(trend(ERROR_OLD)).toEqual(expected({ 10: 20, 0: 2 }))
    expect(trend(ERROR_RECENT)).toEqual(expected({ 1: 5, 0: 1 })) // the 3 of 20 days ago are outside
    expect(trend(WARNING_ESCALATING)).toEqual(expected({ 7: 1, 6: 1, 5: 1, 4: 1, 3: 1, 2: 1, 1: 1, 0: 12 }))
    expect(trend(MANUAL)).toEqual(zeros())
    expect(list.data.find((item: { title: string }) => item.title === ERROR_RECENT).count).toBe(9)
  })

  it('badges: new (first seen in 24 h), regressed (reoccurred), escalating (today ≥ 10 and ≥ 3 × the week’s daily average)', async () => {
    const list = await ok(get('groups', { query: { app, limit: 200, include_stack: 0, include_context: 0 } }))
    const badges = Object.fromEntries(list.items.map((item: { title: string; badges: string[] }) => [item.title, item.badges]))
    expect(badges).toEqual({
      [EMERGENCY]: [],
      [NOTICE]: [],
      [ERROR_OLD]: [],
      [ERROR_RECENT]: ['regressed'],
      [WARNING_ESCALATING]: ['escalating'],
      [WARNING_STEADY]: [],
      [FRESH]: ['new'],
      [MANUAL]: ['new'],
    })
  })

  it('slim rows: no samples unless asked; groups keep the reference samples by default', async () => {
    const slim = await get('groups', { query: { app, limit: 200, include_stack: 0, include_context: 0 } })
    const full = await get('groups', { query: { app, limit: 200 } })
    for (const item of slim.body.items) {
      expect(item).not.toHaveProperty('sample_stack')
      expect(item).not.toHaveProperty('sample_context')
      expect(item).not.toHaveProperty('sample_message')
    }
    expect(full.body.items[0]).toHaveProperty('sample_message')
    expect(full.body.items[0]).toHaveProperty('sample_context')
    expect(full.body.items[0]).toHaveProperty('sample_stack')
    expect(slim.text.length).toBeLessThan(full.text.length)
    // Only the stack asked for: the stack, not the context.
    const stackOnly = await ok(get('groups', { query: { app, include_context: 0 } }))
    expect(stackOnly.items[0]).toHaveProperty('sample_stack')
    expect(stackOnly.items[0]).not.toHaveProperty('sample_context')
    expectRoundTrips(slim, 1, 2)
  })
})

describe('priority heat (migration 0013): decay, bands, merges and re-reads', () => {
  let app: string
  const idOf = async (title: string): Promise<number> => {
    const list = await ok(get('issues', { query: { app, q: title, limit: 200 } }))
    return list.data.find((item: { title: string }) => item.title === title).id
  }
  const priority = async (query: Record<string, string | number> = {}) => titles(await ok(get('issues', { query: { app, sort: 'priority', limit: 200, ...query } })))
  const titles = (body: any): string[] => body.data.map((item: { title: string }) => item.title)

  beforeAll(async () => {
    app = await createTestApp('heat')
    await allowSeverities(app, SEVERITIES)
  })

  it('many events three weeks ago rank below fewer events today in the same band; a band above wins whatever the heat', async () => {
    // 20 three weeks ago weigh 20 / 8 = 2.5 of today's events: below 3 today, though 20 is the larger count
    // and the old burst is the newer issue id.
    await ok(upload(app, 'heat/today.log', lines(daysAgo(0), 'CRITICAL', 'Today few', 3)))
    await ok(upload(app, 'heat/old.log', lines(daysAgo(21), 'CRITICAL', 'Old burst', 20) + lines(daysAgo(21), 'EMERGENCY', 'Old emergency', 1)))
    await ok(upload(app, 'heat/notice.log', lines(daysAgo(0), 'NOTICE', 'Loud notice', 50)))
    expect(await priority()).toEqual(['Old emergency', 'Today few', 'Old burst', 'Loud notice'])
    // Heat is frequency, not count: by occurrences the old burst leads its band.
    const byCount = titles(await ok(get('issues', { query: { app, sort: 'occurrences', min_severity: 'CRITICAL' } })))
    expect(byCount.indexOf('Old burst')).toBeLessThan(byCount.indexOf('Today few'))
  })

  it('a merge target ranks by the summed heat', async () => {
    await ok(upload(app, 'heat/merge.log', lines(daysAgo(0), 'ERROR', 'Merge A', 3) + lines(daysAgo(0), 'ERROR', 'Merge B', 2, 10) + lines(daysAgo(0), 'ERROR', 'Merge C', 2, 20)))
    expect(await priority({ severity: 'ERROR' })).toEqual(['Merge A', 'Merge C', 'Merge B'])
    const merged = await ok(post('merge-issues', { target: await idOf('Merge B'), ids: [await idOf('Merge C')] }, { query: { app } }))
    expect(merged.count).toBe(4)
    // 2 + 2 today above A's 3: B's own heat alone (2) would keep it below A.
    expect(await priority({ severity: 'ERROR' })).toEqual(['Merge B', 'Merge A'])
  })

  it('reading a file again never counts its heat twice (deletion scales heat with count)', async () => {
    // P: 2 today in each of two files; Q: 5 today. A rotated file is cleared and read again (register-incoming.ts).
    await ok(upload(app, 'heat/p1.log', lines(daysAgo(0), 'WARNING', 'Issue P', 2)))
    await ok(upload(app, 'heat/pq.log', lines(daysAgo(0), 'WARNING', 'Issue P', 2, 10) + lines(daysAgo(0), 'WARNING', 'Issue Q', 5, 20)))
    expect(await priority({ severity: 'WARNING' })).toEqual(['Issue Q', 'Issue P'])
    await ok(upload(app, 'heat/p1.log', lines(daysAgo(0), 'WARNING', 'Issue P', 2, 30)))
    const after = await ok(get('issues', { query: { app, severity: 'WARNING', sort: 'priority' } }))
    // Doubled, P's heat would be 6 and lead Q's 5.
    expect(titles(after)).toEqual(['Issue Q', 'Issue P'])
    expect(after.data.map((item: { count: number }) => item.count)).toEqual([5, 4])
    // And a reindex (every file cleared and read again) leaves the same order and counts.
    await ok(post('reindex', {}, { query: { app } }))
    const reindexed = await ok(get('issues', { query: { app, severity: 'WARNING', sort: 'priority' } }))
    expect(titles(reindexed)).toEqual(['Issue Q', 'Issue P'])
    expect(reindexed.data.map((item: { count: number }) => item.count)).toEqual([5, 4])
  })

  it('HTTP ingest keeps heat too (the same digest statements as file imports)', async () => {
    const env: ApiCall['env'] = { SERVICE_SECRET: 'test-secret-for-heat' }
    expect((await post('plugins', { id: 'http_ingest', enabled: true }, { query: { app }, env })).status).toBe(200)
    const key = (await get('ingest-settings', { query: { app }, env })).body.key
    const at = (day: string, second: number) => `${day}T00:00:${String(second).padStart(2, '0')}Z`
    const events = [
      ...Array.from({ length: 20 }, (_, i) => ({ message: 'HTTP old burst', occurred_at: at(daysAgo(21), i) })),
      ...Array.from({ length: 3 }, (_, i) => ({ message: 'HTTP today few', occurred_at: at(daysAgo(0), i) })),
    ]
    const ingested = await call('POST', 'ingest', { query: { app }, env, body: { events }, headers: { 'X-Loupe-Ingest-Key': key } })
    expect(ingested.status, ingested.text).toBe(202)
    expect(titles(await ok(get('issues', { query: { app, sort: 'priority', q: 'HTTP' }, env })))).toEqual(['HTTP today few', 'HTTP old burst'])
  })
})
