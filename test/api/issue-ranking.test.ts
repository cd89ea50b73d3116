import { beforeAll, describe, expect, it } from 'vitest'
import { SEVERITIES } from '../../shared/constants.ts'
import { createTestApp, get, post } from './helpers/api.ts'
import { createIssue, expectRoundTrips } from './helpers/fixtures.ts'
import { allowSeverities, daysAgo, ok, upload } from './ingestion-helpers.ts'

/**
 * Issue 17 items 3 and 4 on every driver: the `priority` sort (severity band, then the last 7 days'
 * occurrences), `min_severity`, the per-row 14-day `trend` and `badges`, slim rows, and the list's round trips.
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

  it('priority: most severe band first (EMERGENCY above NOTICE whatever the counts), then the last 7 days, then latest activity', async () => {
    const response = await get('issues', { query: { app, sort: 'priority' } })
    expect(response.status, response.text).toBe(200)
    expect(titles(response.body)).toEqual([
      EMERGENCY, // band 0, one occurrence
      MANUAL, // CRITICAL, no occurrences
      ERROR_RECENT, // ERROR: 6 in the last 7 days (count 9)
      ERROR_OLD, // ERROR: 2 in the last 7 days (count 22)
      FRESH, // ERROR: 1
      WARNING_STEADY, // WARNING: 12 + 30 in the last 7 days
      WARNING_ESCALATING, // WARNING: 12 + 6
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
    expect(titles(first)).toEqual([EMERGENCY, MANUAL, ERROR_RECENT])
    expect(titles(third)).toEqual([WARNING_ESCALATING, NOTICE])
    expect(third.meta).toEqual({ total: 8, page: 3, limit: 3, pages: 3 })
  })

  it('min_severity keeps that severity and worse, combined with the other filters', async () => {
    const errors = await ok(get('issues', { query: { app, min_severity: 'error', sort: 'priority' } }))
    expect(titles(errors)).toEqual([EMERGENCY, MANUAL, ERROR_RECENT, ERROR_OLD, FRESH])
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
