import { beforeAll, describe, expect, it } from 'vitest'
import { call, createTestApp, get, post } from './helpers/api.ts'
import { expectRoundTrips } from './helpers/fixtures.ts'
import { daysAgo, ok, upload } from './ingestion-helpers.ts'

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64)'
const CURL = 'curl/8.5.0'
const BOT = 'Googlebot/2.1'

/** A combined-format line on the UTC day `ago` days back. */
function line(ago: number, request: string, status: number, agent: string): string {
  const [year, month, day] = daysAgo(ago).split('-')
  return `203.0.113.7 - - [${day}/${MONTHS[Number(month) - 1]}/${year}:00:30:00 +0000] "${request} HTTP/1.1" ${status} 512 "-" "${agent}"`
}

/** 15 lines: 8 of them 2xx/3xx, below the default allow-list (ERROR, WARNING), so never stored as occurrences. */
const ACCESS_LOG = `${[
  ...Array(3).fill(line(0, 'GET /home', 200, BROWSER)),
  line(0, 'GET /api/items?page=2', 500, CURL),
  line(0, 'POST /api/items', 201, CURL),
  ...Array(2).fill(line(0, 'GET /missing?from=mail', 404, BROWSER)),
  ...Array(2).fill(line(1, 'GET /home', 304, BROWSER)),
  line(1, 'POST /login', 302, CURL),
  line(1, 'GET /api/items', 503, BOT),
  line(3, 'HEAD /home', 200, BOT),
  line(3, 'GET /missing', 404, BOT),
  ...Array(2).fill(line(10, 'GET /old', 500, BROWSER)),
].join('\n')}\n`

const WEEK = {
  window_days: 7,
  total: 13,
  unique_paths: 4,
  error_rate: 0.3846,
  status_classes: [
    { class: '2xx', count: 5 },
    { class: '3xx', count: 3 },
    { class: '4xx', count: 3 },
    { class: '5xx', count: 2 },
  ],
  by_day: [
    { day: daysAgo(3), count: 2, errors: 1 },
    { day: daysAgo(1), count: 4, errors: 1 },
    { day: daysAgo(0), count: 7, errors: 3 },
  ],
  top_paths: [
    { path: '/home', count: 6, errors: 0 },
    { path: '/api/items', count: 3, errors: 2 },
    { path: '/missing', count: 3, errors: 3 },
    { path: '/login', count: 1, errors: 0 },
  ],
  error_paths: [
    { path: '/missing', errors: 3 },
    { path: '/api/items', errors: 2 },
  ],
  methods: [
    { method: 'GET', count: 10 },
    { method: 'POST', count: 2 },
    { method: 'HEAD', count: 1 },
  ],
  top_agents: [
    { agent: BROWSER, count: 7 },
    { agent: BOT, count: 3 },
    { agent: CURL, count: 3 },
  ],
}

const analytics = (app: string, query: Record<string, string> = {}) => get('access-analytics', { query: { app, ...query } })

describe('access-analytics (reference §4.6, issue 14)', () => {
  let app: string
  beforeAll(async () => {
    app = await createTestApp('access')
    // Imported while the plugin is off: the rollup is kept anyway, so switching it on shows this history.
    const imported = await ok(upload(app, 'edge/access.log', ACCESS_LOG))
    expect(imported.file_results).toEqual([
      { path: 'edge/access.log', format: 'nginx_access', read: 15, stored: 7, skipped: { INFO: 8 }, already_stored: 0, unparseable: 0 },
    ])
  })

  it('answers 404 while the plugin is off', async () => {
    const response = await analytics(app)
    expect([response.status, response.body]).toEqual([404, { error: 'This plugin is disabled for the selected application.' }])
  })

  it('counts every access line of the last 7 days — those below the allow-list too — in 2 round trips', async () => {
    expect((await post('plugins', { id: 'access_analytics', enabled: true }, { query: { app } })).status).toBe(200)
    const response = await analytics(app)
    expect(response.status, response.text).toBe(200)
    expect(response.body).toEqual(WEEK)
    expectRoundTrips(response, 2, 2)
  })

  it('takes days (clamped to 1..90 as the reference does) and refuses a non-integer with 422', async () => {
    const month = await ok(analytics(app, { days: '30' }))
    expect([month.window_days, month.total, month.unique_paths, month.error_rate]).toEqual([30, 15, 5, 0.4667])
    expect(month.by_day[0]).toEqual({ day: daysAgo(10), count: 2, errors: 2 })
    expect(month.error_paths).toEqual([
      { path: '/missing', errors: 3 },
      { path: '/api/items', errors: 2 },
      { path: '/old', errors: 2 },
    ])
    const today = await ok(analytics(app, { days: '0' }))
    expect([today.window_days, today.total, today.by_day]).toEqual([1, 7, [{ day: daysAgo(0), count: 7, errors: 3 }]])
    expect((await ok(analytics(app, { days: '1000' }))).window_days).toBe(90)
    expect((await ok(analytics(app, { days: '' }))).window_days).toBe(7)
    for (const days of ['abc', '7.5', '1e3']) {
      const response = await analytics(app, { days })
      expect([days, response.status, response.body]).toEqual([days, 422, { error: 'days must be an integer from 1 to 90.' }])
    }
    const post = await call('POST', 'access-analytics', { query: { app }, body: {} })
    expect(post.status).toBe(405)
  })

  it('never doubles the counts when the logs are read again (reindex)', async () => {
    const reindexed = await ok(post('reindex', {}, { query: { app } }))
    expect(reindexed.events).toBe(7)
    expect(await ok(analytics(app))).toEqual(WEEK)
  })

  it('replaces a rotated file`s counts with its new content', async () => {
    const rotated = await createTestApp('access-rotated')
    expect((await post('plugins', { id: 'access_analytics', enabled: true }, { query: { app: rotated } })).status).toBe(200)
    await ok(upload(rotated, 'web/access.log', ACCESS_LOG))
    expect((await ok(analytics(rotated))).total).toBe(13)
    // The same name with other, shorter content: a rotated log, read again from byte 0.
    await ok(upload(rotated, 'web/access.log', `${line(0, 'GET /after-rotation', 200, CURL)}\n`))
    const after = await ok(analytics(rotated))
    expect([after.total, after.top_paths]).toEqual([1, [{ path: '/after-rotation', count: 1, errors: 0 }]])
  })

  it('keeps a batch whose rollup spans more JSON parameters than one D1 statement may read (several upserts)', async () => {
    // 1,000 long paths × 4 methods × 2 status classes: 8,000 rollup rows (~20 JSON parameters) from one batch.
    // One upsert of them all was a compound SELECT D1 refuses ("too many terms"), and the file failed (issue 11).
    const wide = await createTestApp('access-wide')
    expect((await post('plugins', { id: 'access_analytics', enabled: true }, { query: { app: wide } })).status).toBe(200)
    const lines: string[] = []
    for (let i = 0; i < 1000; i++) {
      for (const method of ['GET', 'POST', 'PUT', 'DELETE']) for (const status of [200, 301]) lines.push(line(0, `${method} /p/${'x'.repeat(170)}/${i}`, status, CURL))
    }
    const imported = await ok(upload(wide, 'edge/wide-access.log', `${lines.join('\n')}\n`))
    expect(imported).toMatchObject({ errors: [], file_results: [{ path: 'edge/wide-access.log', format: 'nginx_access', read: 8000, stored: 0 }] })
    const week = await ok(analytics(wide))
    expect([week.total, week.unique_paths, week.status_classes, week.methods]).toEqual([
      8000,
      1000,
      [{ class: '2xx', count: 4000 }, { class: '3xx', count: 4000 }],
      [{ method: 'DELETE', count: 2000 }, { method: 'GET', count: 2000 }, { method: 'POST', count: 2000 }, { method: 'PUT', count: 2000 }],
    ])
  })

  it('answers zeros and empty lists without traffic', async () => {
    const empty = await createTestApp('access-empty')
    expect((await post('plugins', { id: 'access_analytics', enabled: true }, { query: { app: empty } })).status).toBe(200)
    expect(await ok(analytics(empty, { days: '14' }))).toEqual({
      window_days: 14,
      total: 0,
      unique_paths: 0,
      error_rate: 0,
      status_classes: [],
      by_day: [],
      top_paths: [],
      error_paths: [],
      methods: [],
      top_agents: [],
    })
  })
})
