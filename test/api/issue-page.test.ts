import { describe, expect, it } from 'vitest'
import { SEVERITIES } from '../../shared/constants.ts'
import { call, createTestApp, get, post, type ApiCall } from './helpers/api.ts'
import { expectRoundTrips } from './helpers/fixtures.ts'
import { allowSeverities, bucket, laravelLines, ok, upload } from './ingestion-helpers.ts'
import { NO_FILE_REASON } from '../../worker/issues/event-context.ts'
import { VALUES_PER_NAME } from '../../worker/digest/issue-value-rollup.ts'

/**
 * The issue page's reads (issue 17 items 5–7, docs/api.md "Issue page"): occurrence paging on `group`/`error`,
 * `event-context` (lines around an occurrence, from the real archived bytes), `issue-values` (the value
 * breakdown from the digest-time rollup, capped with `(other)`), and their round trips.
 */
const encoder = new TextEncoder()

async function issueWithTitle(app: string, title: string): Promise<{ id: number }> {
  const issues = (await ok(get('issues', { query: { app, limit: 100 } }))).data as { id: number; title: string }[]
  const issue = issues.find((candidate) => candidate.title === title)
  expect(issue, `issue "${title}" among ${issues.map((i) => i.title).join(', ')}`).toBeDefined()
  return issue!
}

describe('occurrence paging (group / error)', { timeout: 60_000 }, () => {
  it('pages an issue’s occurrences newest first, every occurrence exactly once, in one round trip', async () => {
    const app = await createTestApp('page-paging')
    await upload(app, 'shop/laravel.log', laravelLines(7))
    const issues = (await ok(get('issues', { query: { app } }))).data as { id: number }[]
    expect(issues).toHaveLength(1)
    const id = issues[0]!.id
    const seen: number[] = []
    for (const page of [1, 2, 3]) {
      const response = await get('group', { query: { app, id, page, limit: 3 } })
      expect(response.status).toBe(200)
      expectRoundTrips(response, 1, 2)
      expect(response.body.meta).toMatchObject({ total_occurrences: 7, page, limit: 3, pages: 3 })
      expect(response.body.occurrences).toHaveLength(page === 3 ? 1 : 3)
      seen.push(...response.body.occurrences.map((o: { byte_start: number }) => o.byte_start))
    }
    const lineStarts = laravelLines(7).split('\n').slice(0, 7).reduce<number[]>((starts, line, i, lines) => [...starts, i === 0 ? 0 : starts[i - 1]! + encoder.encode(lines[i - 1]! + '\n').length], [])
    expect(seen).toEqual([...lineStarts].reverse())
    expect((await ok(get('group', { query: { app, id, page: 4, limit: 3 } }))).occurrences).toEqual([])
    expect(await get('error', { query: { app, id, limit: 501 } })).toMatchObject({ status: 422, body: { error: 'limit must be an integer from 1 to 500.' } })
  })
})

describe('event-context: the archived lines around an occurrence', { timeout: 60_000 }, () => {
  // CRLF line ends throughout; the middle event has a stack line of its own.
  const lines = [
    '[2026-02-01 10:00:00] production.ERROR: First failure',
    '[2026-02-01 10:00:01] production.INFO: one',
    '[2026-02-01 10:00:02] production.INFO: two',
    '[2026-02-01 10:00:03] production.INFO: three',
    '[2026-02-01 10:00:04] production.ERROR: Middle failure',
    '#0 /var/www/app/Http/Controller.php(12): handle()',
    '[2026-02-01 10:00:05] production.INFO: four',
    '[2026-02-01 10:00:06] production.INFO: five',
    '[2026-02-01 10:00:07] production.INFO: six',
    '[2026-02-01 10:00:08] production.ERROR: Last failure',
  ]
  const file = lines.map((line) => `${line}\r\n`).join('')
  const starts = lines.map((_, i) => encoder.encode(lines.slice(0, i).map((line) => `${line}\r\n`).join('')).length)
  const at = (...indexes: number[]) => indexes.map((i) => ({ byte_start: starts[i], text: lines[i] }))

  async function seeded(label: string) {
    const app = await createTestApp(label)
    await allowSeverities(app, SEVERITIES)
    await upload(app, 'shop/crlf.log', file)
    const occurrence = async (title: string) => (await ok(get('group', { query: { app, id: (await issueWithTitle(app, title)).id } }))).occurrences[0] as { id: number }
    return { app, occurrence }
  }

  it('returns the lines before and after an event (CRLF dropped), the event’s own lines, from one ranged read', async () => {
    const { app, occurrence } = await seeded('page-context')
    const middle = await occurrence('Middle failure')
    const response = await get('event-context', { query: { app, id: middle.id, lines: 2 } })
    expect(response.status, response.text).toBe(200)
    expectRoundTrips(response, 1, 1)
    expect(response.body).toEqual({
      occurrence_id: middle.id,
      path: `processed/${app}/shop/crlf.log`,
      byte_start: starts[4],
      byte_end: starts[6],
      available: true,
      reason: null,
      before: at(2, 3),
      lines: at(4, 5),
      after: at(6, 7),
      start_of_file: false,
      end_of_file: false,
    })
    const wide = await ok(get('event-context', { query: { app, id: middle.id, lines: 50 } }))
    expect(wide.before).toEqual(at(0, 1, 2, 3))
    expect(wide.after).toEqual(at(6, 7, 8, 9))
    expect([wide.start_of_file, wide.end_of_file]).toEqual([true, true])
    const none = await ok(get('event-context', { query: { app, id: middle.id, lines: 0 } }))
    expect([none.before, none.after, none.lines]).toEqual([[], [], at(4, 5)])
    // Default: five lines each side.
    expect((await ok(get('event-context', { query: { app, id: middle.id } }))).before).toEqual(at(0, 1, 2, 3))
  })

  it('stops at the first and the last line of the file', async () => {
    const { app, occurrence } = await seeded('page-context-edges')
    const first = await ok(get('event-context', { query: { app, id: (await occurrence('First failure')).id, lines: 3 } }))
    expect(first).toMatchObject({ before: [], lines: at(0), after: at(1, 2, 3), start_of_file: true, end_of_file: false })
    const last = await ok(get('event-context', { query: { app, id: (await occurrence('Last failure')).id, lines: 3 } }))
    expect(last).toMatchObject({ before: at(6, 7, 8), lines: at(9), after: [], start_of_file: false, end_of_file: true })
  })

  it('answers 422 for a bad id or line count, 404 for an unknown occurrence, 400 once the archive is gone', async () => {
    const { app, occurrence } = await seeded('page-context-errors')
    for (const id of ['', 'abc', '0', '-3', '1.5']) expect((await get('event-context', { query: { app, id } })).status, id).toBe(422)
    expect(await get('event-context', { query: { app, id: 1, lines: 51 } })).toMatchObject({ status: 422, body: { error: 'lines must be an integer from 0 to 50.' } })
    expect(await get('event-context', { query: { app, id: 999_999 } })).toMatchObject({ status: 404, body: { error: 'Occurrence not found.' } })
    const middle = await occurrence('Middle failure')
    await bucket.delete(`processed/${app}/shop/crlf.log`)
    expect(await get('event-context', { query: { app, id: middle.id } })).toMatchObject({ status: 400, body: { error: 'The archived source file is unavailable.' } })
  })
})

const SECRET = { SERVICE_SECRET: 'test-secret-for-ingest-keys' }

async function ingestApp(label: string): Promise<{ app: string; ingest: (body: unknown) => Promise<void>; env: ApiCall['env'] }> {
  const app = await createTestApp(label)
  const env = { ...SECRET }
  expect((await post('plugins', { id: 'http_ingest', enabled: true }, { query: { app }, env })).status).toBe(200)
  const key = (await ok(get('ingest-settings', { query: { app }, env }))).key
  const ingest = async (body: unknown) => {
    const response = await call('POST', 'ingest', { query: { app }, env, body, headers: { 'X-Loupe-Ingest-Key': key } })
    expect(response.status, response.text).toBe(202)
  }
  return { app, ingest, env }
}

/** Laravel lines with a trailing JSON context (the reference's §2.3 step 2). */
function contextLines(count: number, context: (i: number) => Record<string, unknown>, from = 0): string {
  let text = ''
  for (let i = 0; i < count; i++) {
    const n = from + i
    text += `[2026-02-01 ${String(Math.floor(n / 3600) % 24).padStart(2, '0')}:${String(Math.floor(n / 60) % 60).padStart(2, '0')}:${String(n % 60).padStart(2, '0')}] production.ERROR: Checkout failed ${JSON.stringify(context(n))}\n`
  }
  return text
}

describe('issue-values: the value breakdown from the digest-time rollup', { timeout: 90_000 }, () => {
  it('counts url, user, ip and environment per issue, most frequent first, in one round trip', async () => {
    const app = await createTestApp('page-values')
    await upload(app, 'shop/laravel.log', contextLines(6, (i) => ({ url: i < 4 ? '/checkout' : '/cart', userId: i % 2 === 0 ? 7 : 8, ip: '10.0.0.1' })))
    const { id } = await issueWithTitle(app, 'Checkout failed')
    const response = await get('issue-values', { query: { app, id } })
    expect(response.status, response.text).toBe(200)
    expectRoundTrips(response, 1, 2)
    expect(response.body).toEqual({
      data: [
        { name: 'url', total: 6, values: [{ value: '/checkout', count: 4 }, { value: '/cart', count: 2 }] },
        { name: 'user', total: 6, values: [{ value: '7', count: 3 }, { value: '8', count: 3 }] },
        { name: 'ip', total: 6, values: [{ value: '10.0.0.1', count: 6 }] },
        { name: 'environment', total: 6, values: [{ value: 'production', count: 6 }] },
      ],
      meta: { id, top: 10, cap: VALUES_PER_NAME },
    })
    // A second file adds to the same rows.
    await upload(app, 'shop/laravel-2.log', contextLines(2, () => ({ url: '/cart' }), 100))
    const after = await ok(get('issue-values', { query: { app, id } }))
    expect(after.data[0]).toEqual({ name: 'url', total: 8, values: [{ value: '/cart', count: 4 }, { value: '/checkout', count: 4 }] })
  })

  it('reads the context of a Laravel exception, whose JSON holds the stack with raw line breaks', async () => {
    const app = await createTestApp('page-values-laravel')
    const event = (n: number) =>
      `[2026-02-01 10:00:0${n}] production.ERROR: Checkout failed {"userId":${n},"url":"/pay","exception":"[object] (RuntimeException(code: 0): Checkout failed at /app/app/Pay.php:9)\n[stacktrace]\n#0 /app/vendor/laravel/framework/src/Illuminate/Routing/Controller.php(54): App\\\\Pay->run()\n#1 {main}\n\"}\n`
    await upload(app, 'shop/laravel.log', event(1) + event(2))
    const { id } = await issueWithTitle(app, 'Checkout failed')
    const values = await ok(get('issue-values', { query: { app, id } }))
    expect(values.data.slice(0, 2)).toEqual([
      { name: 'url', total: 2, values: [{ value: '/pay', count: 2 }] },
      { name: 'user', total: 2, values: [{ value: '1', count: 1 }, { value: '2', count: 1 }] },
    ])
  })

  it('keeps the counts through a reindex (the file\'s issues drop to zero, then count afresh) and scales them on deletion', async () => {
    const app = await createTestApp('page-values-reindex')
    await upload(app, 'shop/laravel.log', contextLines(10, (i) => ({ url: i < 6 ? '/checkout' : '/cart' })))
    // A reindex empties the issue (deleted with its rows) and imports it again: look it up by title each time.
    const url = async () => (await ok(get('issue-values', { query: { app, id: (await issueWithTitle(app, 'Checkout failed')).id } }))).data[0]
    const expected = { name: 'url', total: 10, values: [{ value: '/checkout', count: 6 }, { value: '/cart', count: 4 }] }
    expect(await url()).toEqual(expected)
    expect(await ok(post('reindex', undefined, { query: { app } }))).toMatchObject({ events: 10 })
    expect(await url()).toEqual(expected)
    // Deleting one of two days (5 of 10 occurrences): every value keeps half its count, rounded down.
    await upload(app, 'shop/day2.log', contextLines(10, (i) => ({ url: i % 2 === 0 ? '/checkout' : '/cart' })).replaceAll('2026-02-01', '2026-02-02'))
    expect(await url()).toEqual({ name: 'url', total: 20, values: [{ value: '/checkout', count: 11 }, { value: '/cart', count: 9 }] })
    expect((await post('delete-logs', { date: '2026-02-01', confirmation: 'DELETE LOGS' }, { query: { app } })).status).toBe(200)
    expect(await url()).toEqual({ name: 'url', total: 9, values: [{ value: '/checkout', count: 5 }, { value: '/cart', count: 4 }] })
  })

  it('caps the distinct values per issue and key: later new values count as (other), in the run and across runs', async () => {
    const app = await createTestApp('page-values-cap')
    const cap = VALUES_PER_NAME
    // One run with cap + 10 distinct users: the last 10 become (other).
    await upload(app, 'shop/a.log', contextLines(cap + 10, (i) => ({ user_id: `u${String(i).padStart(3, '0')}` })))
    const { id } = await issueWithTitle(app, 'Checkout failed')
    const first = await ok(get('issue-values', { query: { app, id, top: 100 } }))
    const users = first.data.find((entry: { name: string }) => entry.name === 'user')
    expect(users.total).toBe(cap + 10)
    expect(users.values).toHaveLength(cap + 1)
    expect(users.values.at(-1)).toEqual({ value: '(other)', count: 10 })
    expect(users.values.slice(0, cap).every((entry: { count: number }) => entry.count === 1)).toBe(true)
    // A later run: a stored value still counts as itself, a new one only as (other).
    await upload(app, 'shop/b.log', contextLines(3, (i) => ({ user_id: i === 1000 ? 'u000' : `new${i}` }), 1000))
    const second = await ok(get('issue-values', { query: { app, id, top: 100 } }))
    const again = second.data.find((entry: { name: string }) => entry.name === 'user')
    expect(again.total).toBe(cap + 13)
    expect(again.values).toHaveLength(cap + 1)
    expect(again.values[0]).toEqual({ value: 'u000', count: 2 })
    expect(again.values.at(-1)).toEqual({ value: '(other)', count: 12 })
    // `top` folds the rest into (other) too.
    const top = await ok(get('issue-values', { query: { app, id, top: 3 } }))
    expect(top.data.find((entry: { name: string }) => entry.name === 'user')).toEqual({
      name: 'user',
      total: cap + 13,
      values: [{ value: 'u000', count: 2 }, { value: 'u001', count: 1 }, { value: 'u002', count: 1 }, { value: '(other)', count: cap + 13 - 4 }],
    })
  })

  it('stores a file whose breakdown spans more JSON parameters than one D1 statement may read (several upserts)', async () => {
    // Issue 11: 64 issues × 50 distinct long urls and users is ~6,500 rollup rows, about 16 JSON parameters —
    // one upsert of them all was a compound SELECT D1 refuses ("too many terms"), and the whole file failed.
    // Half the contexts are followed by a stack block, as Laravel writes them: their values count too.
    const app = await createTestApp('page-values-wide')
    const stage = (k: number) => `${String.fromCharCode(97 + (k % 26))}${String.fromCharCode(97 + Math.floor(k / 26))}`
    let text = ''
    for (let i = 0; i < 64 * 50; i++) {
      const k = i % 64
      const time = `2026-02-01 ${String(Math.floor(i / 3600) % 24).padStart(2, '0')}:${String(Math.floor(i / 60) % 60).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}`
      const context = JSON.stringify({ url: `/checkout/${stage(k)}/${'x'.repeat(120)}/${i}`, userId: `user-${i}` })
      text += `[${time}] production.ERROR: Checkout failed at stage ${stage(k)} ${context}${i % 2 === 0 ? '\n[stacktrace]\n#0 /app/app/Pay.php(9): run()' : ''}\n`
    }
    const imported = await ok(upload(app, 'shop/wide.log', text))
    expect(imported).toMatchObject({ events: 64 * 50, errors: [] })
    const { id } = await issueWithTitle(app, 'Checkout failed at stage ab')
    const values = await ok(get('issue-values', { query: { app, id, top: 100 } }))
    const byName = new Map(values.data.map((entry: { name: string; total: number; values: unknown[] }) => [entry.name, entry]))
    expect(byName.get('url')).toMatchObject({ total: 50 })
    expect((byName.get('url') as { values: unknown[] }).values).toHaveLength(50)
    expect(byName.get('user')).toMatchObject({ total: 50 })
    expect(byName.get('environment')).toEqual({ name: 'environment', total: 50, values: [{ value: 'production', count: 50 }] })
  })

  it('answers 404 for an unknown issue and 422 for a bad id or top', async () => {
    const app = await createTestApp('page-values-errors')
    expect(await get('issue-values', { query: { app, id: 999_999 } })).toMatchObject({ status: 404, body: { error: 'Issue not found.' } })
    for (const id of ['', 'x', '0']) expect((await get('issue-values', { query: { app, id } })).status, id).toBe(422)
    expect(await get('issue-values', { query: { app, id: 1, top: 0 } })).toMatchObject({ status: 422, body: { error: 'top must be an integer from 1 to 100.' } })
  })

  it('fills the breakdown from HTTP ingest (request url, user, server, release), whose events have no file context', async () => {
    const { app, ingest, env } = await ingestApp('page-values-ingest')
    await ingest({
      events: [
        { message: 'Payment declined', environment: 'staging', release: 'shop@1.2.0', server_name: 'web-1', request: { url: 'https://shop.test/pay' }, user: { id: 'u-1', ip_address: '192.0.2.5' } },
        { message: 'Payment declined', environment: 'staging', release: 'shop@1.2.0', server_name: 'web-2', request: { url: 'https://shop.test/pay' }, user: { email: 'b@shop.test' } },
      ],
    })
    const issues = (await ok(get('issues', { query: { app }, env }))).data as { id: number; title: string }[]
    const issue = issues.find((candidate) => candidate.title === 'Payment declined')!
    const values = await ok(get('issue-values', { query: { app, id: issue.id }, env }))
    expect(values.data).toEqual([
      { name: 'url', total: 2, values: [{ value: 'https://shop.test/pay', count: 2 }] },
      { name: 'user', total: 2, values: [{ value: 'b@shop.test', count: 1 }, { value: 'u-1', count: 1 }] },
      { name: 'ip', total: 1, values: [{ value: '192.0.2.5', count: 1 }] },
      { name: 'environment', total: 2, values: [{ value: 'staging', count: 2 }] },
      { name: 'release', total: 2, values: [{ value: 'shop@1.2.0', count: 2 }] },
      { name: 'server', total: 2, values: [{ value: 'web-1', count: 1 }, { value: 'web-2', count: 1 }] },
    ])
    const occurrence = (await ok(get('group', { query: { app, id: issue.id }, env }))).occurrences[0]
    const context = await ok(get('event-context', { query: { app, id: occurrence.id }, env }))
    expect(context).toMatchObject({ available: false, reason: NO_FILE_REASON, before: [], lines: [], after: [] })
  })
})
