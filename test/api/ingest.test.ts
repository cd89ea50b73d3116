import { beforeAll, describe, expect, it } from 'vitest'
import { call, createTestApp, get, post, type ApiCall } from './helpers/api.ts'
import { expectRoundTrips } from './helpers/fixtures.ts'
import { appDatabase } from './ingestion-helpers.ts'
import { FRESH_MS, gateRead } from '../../worker/plugins/http-ingest/ingest-gate.ts'
import { countRateStatements, rateWindow } from '../../worker/plugins/http-ingest/rate-limit.ts'
import { httpIngestPlugin } from '../../worker/plugins/http-ingest/plugin.ts'

/**
 * `POST ?api=ingest` (reference §4.3, issue 12): the key in its three forms, payload shapes and their 422s
 * (nothing staged), the 202, the digest after the response (issues, occurrences, custom fingerprints, tags,
 * releases, context), the sliding-window rate limit, and CORS. `call` waits for the request's `waitUntil`
 * work, so the digest has run when it returns.
 */
const SECRET = { SERVICE_SECRET: 'test-secret-for-ingest-keys' }

async function ingestApp(label: string, config?: Record<string, unknown>): Promise<{ app: string; key: string; env: ApiCall['env'] }> {
  const app = await createTestApp(label)
  const env = { ...SECRET, ...(config ? { SERVICE_CONFIG: JSON.stringify({ ingest: config }) } : {}) }
  expect((await post('plugins', { id: 'http_ingest', enabled: true }, { query: { app }, env })).status).toBe(200)
  const settings = await get('ingest-settings', { query: { app }, env })
  expect(settings.status, settings.text).toBe(200)
  return { app, key: settings.body.key, env }
}

describe('POST ?api=ingest', () => {
  let app: string
  let key: string
  let env: ApiCall['env']
  const ingest = (body: unknown, options: ApiCall = {}) =>
    call('POST', 'ingest', { query: { app, ...options.query }, env, body, headers: { 'X-Loupe-Ingest-Key': key, ...options.headers }, ...(options.base ? { base: options.base } : {}) })
  const staged = async () => {
    const { t, value } = await appDatabase(app)
    return Number(await value(`SELECT COUNT(*) FROM ${t.ingestEvents}`))
  }
  beforeAll(async () => {
    ;({ app, key, env } = await ingestApp('ingest'))
  })

  it('is a 404 while the plugin is off, and refuses a missing or wrong key with 401', async () => {
    const off = await createTestApp('ingest-off')
    expect(await call('POST', 'ingest', { query: { app: off }, env, body: { message: 'x' } })).toMatchObject({ status: 404, body: { error: 'This plugin is disabled for the selected application.' } })
    const refused = { status: 401, body: { error: 'A valid ingest key is required (X-Loupe-Ingest-Key).' } }
    expect(await call('POST', 'ingest', { query: { app }, env, body: { message: 'x' } })).toMatchObject(refused)
    expect(await ingest({ message: 'x' }, { headers: { 'X-Loupe-Ingest-Key': `${key.slice(0, -1)}${key.endsWith('0') ? '1' : '0'}` } })).toMatchObject(refused)
    expect(await call('POST', 'ingest', { query: { app, key: 'lpk_nope' }, env, body: { message: 'x' } })).toMatchObject(refused)
    expect(await staged()).toBe(0)
  })

  it('refuses every key before anyone opened the settings (verification never mints one)', async () => {
    const fresh = await createTestApp('ingest-unminted')
    await post('plugins', { id: 'http_ingest', enabled: true }, { query: { app: fresh }, env })
    const response = await call('POST', 'ingest', { query: { app: fresh, key }, env, body: { message: 'x' } })
    expect(response.status).toBe(401)
  })

  it('takes the key from the header, a bearer token or ?key=, without the API token or a same origin', async () => {
    const guarded = { ...env, SERVICE_TOKEN: 'api-token' }
    const forms: ApiCall[] = [
      { headers: { 'X-Loupe-Ingest-Key': key } },
      { headers: { Authorization: `Bearer ${key}` } },
      { query: { app, key }, headers: { Origin: 'https://shop.example', 'Content-Type': 'text/plain' } },
    ]
    for (const form of forms) {
      const response = await call('POST', 'ingest', { query: { app }, ...form, env: guarded, body: JSON.stringify({ message: 'Keyed' }) })
      expect(response.status, response.text).toBe(202)
      expect(response.body).toEqual({ accepted: 1, received: 1, dropped: 0 })
      expect(response.headers.get('access-control-allow-origin')).toBe('*')
    }
  })

  const refusals: [unknown, string][] = [
    [[], 'No events supplied. Send {"events":[…]} or a single event object.'],
    [{ events: [] }, 'No events supplied. Send {"events":[…]} or a single event object.'],
    [{}, 'No events supplied. Send {"events":[…]} or a single event object.'],
    [{ events: Array.from({ length: 501 }, () => ({ message: 'm' })) }, 'A batch may contain at most 500 events.'],
    [{ events: [{ message: 'ok' }, { severity: 'error' }] }, 'Each event requires a non-empty "message".'],
    [{ events: [{ message: '   ' }] }, 'Each event requires a non-empty "message".'],
    [{ events: 'nope' }, '"events" must be an array of event objects.'],
    [[{ message: 'ok' }, 7], 'Event 2 must be a JSON object.'],
    [{ message: 'ok', context: [1] }, 'Event 1: "context" must be an object.'],
    [{ message: 'ok', tags: 'a,b' }, 'Event 1: "tags" must be an array of strings.'],
    [{ message: 'ok', breadcrumbs: {} }, 'Event 1: "breadcrumbs" must be an array.'],
    [{ message: 'ok', stack: 12 }, 'Event 1: "stack" must be a string or an array of strings.'],
    [{ message: 'ok', release: { v: 1 } }, 'Event 1: "release" must be a string.'],
  ]
  it.each(refusals.map(([body, message]) => [JSON.stringify(body).slice(0, 70), body, message] as const))('refuses %s with 422 and stages nothing of the batch', async (_label, body, message) => {
    const before = await staged()
    const response = await ingest(body)
    expect(response.status).toBe(422)
    expect(response.body).toEqual({ error: message })
    expect(await staged()).toBe(before)
  })

  it('answers 400 for a body that is not JSON and 413 past the body limit', async () => {
    expect(await ingest('{"message":')).toMatchObject({ status: 400, body: { error: 'Request body must be valid JSON.' } })
    const big = await ingest({ message: 'x'.repeat(1024 * 1024) })
    expect(big.status).toBe(413)
  })

  it('stores an event as an issue: composed title, class, stack culprit, channel, module, context, release, tags', async () => {
    const response = await ingest({
      events: [
        {
          message: 'Card declined for order 1234',
          exception_class: 'PaymentError',
          stack: ['    at charge (/srv/app/billing/charge.js:41:13)', '    at Router.handle (/srv/app/node_modules/express/lib/router.js:10:3)'],
          severity: 'warn',
          environment: 'staging',
          channel: '/var/log/Billing Worker!.log',
          module: 'billing',
          release: 'shop@2.4.1',
          occurred_at: '2026-11-20T10:15:30+02:00',
          user: { id: 'u-7', email: 'ada@example.com' },
          request: { url: 'https://shop.example/pay', method: 'POST' },
          breadcrumbs: Array.from({ length: 60 }, (_, i) => ({ message: `step ${i}` })),
          server_name: 'web-3',
          tags: ['payments', 'Payments', 'checkout'],
        },
      ],
    })
    expect(response.status, response.text).toBe(202)
    expect(response.body).toEqual({ accepted: 1, received: 1, dropped: 0 })

    const issues = await get('issues', { query: { app, q: 'Card declined' } })
    expect(issues.body.meta.total).toBe(1)
    const issue = issues.body.data[0]
    expect(issue).toMatchObject({
      title: 'PaymentError: Card declined for order 1234',
      exception_class: 'PaymentError',
      source_frame: '/srv/app/billing/charge.js:41:13',
      severity: 'WARNING',
      environment: 'staging',
      log_type: 'http',
      channel: 'Billing-Worker-.log',
      count: 1,
      first_seen: '2026-11-20 08:15:30',
      origin: 'ingested',
    })
    const { t, rows } = await appDatabase(app)
    const [occurrence] = await rows<{ id: number; release: string; context_preview: string; path: string }>(
      `SELECT o.*, s.path FROM ${t.occurrences} o JOIN ${t.sourceFiles} s ON s.id = o.source_file_id WHERE o.group_id = ${issue.id}`,
    )
    expect(occurrence!.path).toMatch(/^http-ingest\/[1-9]\d*\/Billing-Worker-\.log$/)
    expect(occurrence!.release).toBe('shop@2.4.1')
    const context = JSON.parse(occurrence!.context_preview)
    expect(context.user).toEqual({ id: 'u-7', email: 'ada@example.com' })
    expect(context.request).toEqual({ url: 'https://shop.example/pay', method: 'POST' })
    expect(context.server_name).toBe('web-3')
    expect(context.release).toBe('shop@2.4.1')
    expect(context.breadcrumbs).toHaveLength(50)
    expect(context.breadcrumbs[0]).toEqual({ message: 'step 10' })
    // There is no file behind an ingested event: its raw event is the context it was stored with.
    const raw = await get('source', { query: { app, occurrence: occurrence!.id } })
    expect(raw.status, raw.text).toBe(200)
    expect(JSON.parse(raw.body.content)).toEqual(context)
    expect(raw.body.path).toBe(occurrence!.path)

    const tags = (await get('tags', { query: { app } })).body.data.filter((tag: { name: string }) => ['payments', 'checkout'].includes(tag.name.toLowerCase()))
    expect(tags.map((tag: { name: string; color: string; icon: string; issue_count: number }) => [tag.name, tag.color, tag.icon, tag.issue_count]).sort()).toEqual([
      ['checkout', '#64748b', 'tag', 1],
      ['payments', '#64748b', 'tag', 1],
    ])
    const sources = await rows<{ source: string }>(`SELECT source FROM ${t.groupTags} WHERE group_id = ${issue.id}`)
    expect(sources.map((row) => row.source)).toEqual(['ingest', 'ingest'])
    const modules = (await get('modules', { query: { app } })).body.data.map((module: { slug: string }) => module.slug)
    expect(modules).toContain('billing')
  })

  it('groups by a custom fingerprint, and repeats of one event into one issue', async () => {
    const response = await ingest([
      { message: 'Timeout talking to ledger (attempt 1)', fingerprint: 'ledger-timeout' },
      { message: 'Ledger unreachable', fingerprint: 'ledger-timeout', severity: 'critical' },
      { message: 'Disk almost full on /var', severity: 'notice' },
      { message: 'Disk almost full on /var', severity: 'notice' },
    ])
    expect(response.body).toEqual({ accepted: 4, received: 4, dropped: 0 })
    const ledger = (await get('issues', { query: { app, q: 'ledger' } })).body
    expect(ledger.meta.total).toBe(1)
    expect(ledger.data[0].count).toBe(2)
    const disk = (await get('issues', { query: { app, q: 'Disk almost full' } })).body
    expect(disk.data.map((issue: { count: number; severity: string }) => [issue.count, issue.severity])).toEqual([[2, 'NOTICE']])
  })

  it('answers in two round trips on a cold gate, one while the gate view is fresh, and leaves no event pending', async () => {
    const cold = await ingestApp('ingest-round-trips')
    const send = (message: string) => call('POST', 'ingest', { query: { app: cold.app }, env: cold.env, body: { message }, headers: { 'X-Loupe-Ingest-Key': cold.key } })
    // The view answers only within the rate window it was read in (ingest-gate.ts `viewCovers`): the app's default
    // window is 60 s (ingest-config.ts), and a run that straddles its boundary reads the gate again.
    const bucket = () => rateWindow(new Date(), 60).bucket
    const startBucket = bucket()
    // Nothing read yet in this isolate: the switch, the key and the counters in one read; then the commit.
    const first = await send('Counted round trips')
    expect(first.status).toBe(202)
    expectRoundTrips(first, 2, 7) // PlanetScale: the gate read; BEGIN, stage, counters, old buckets swept, gate read, COMMIT
    // The commit read the gate again: the next request within FRESH_MS needs only its own commit.
    const sent = performance.now()
    const second = await send('Counted round trips again')
    expect(second.status).toBe(202)
    const gap = performance.now() - sent
    if (gap < FRESH_MS / 2 && bucket() === startBucket) expectRoundTrips(second, 1, 5) // BEGIN, stage, counters, gate read, COMMIT
    else if (gap > FRESH_MS + 100) expectRoundTrips(second, 2, 6)
    const { t, value } = await appDatabase(cold.app)
    expect(Number(await value(`SELECT COUNT(*) FROM ${t.ingestEvents} WHERE digested_at IS NULL`))).toBe(0)
    expect(Number(await value(`SELECT COUNT(*) FROM ${t.ingestEvents}`))).toBe(2)
  })

  it('commits concurrent requests together, each event staged and stored once', async () => {
    const busy = await ingestApp('ingest-group-commit')
    const responses = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        call('POST', 'ingest', { query: { app: busy.app }, env: busy.env, body: [{ message: `Concurrent ${i % 3}` }, { message: `Concurrent ${i % 3}` }], headers: { 'X-Loupe-Ingest-Key': busy.key } }),
      ),
    )
    expect(responses.map((response) => [response.status, response.body])).toEqual(responses.map(() => [202, { accepted: 2, received: 2, dropped: 0 }]))
    const { t, value } = await appDatabase(busy.app)
    expect(Number(await value(`SELECT COUNT(*) FROM ${t.ingestEvents}`))).toBe(48)
    expect(Number(await value(`SELECT COUNT(*) FROM ${t.occurrences}`))).toBe(48)
    expect(Number(await value(`SELECT SUM(count) FROM ${t.ingestRate} WHERE scope = 'app'`))).toBe(48)
    // Fewer round trips than requests: the requests in flight shared commits (a follower's are its leader's).
    expect(responses.reduce((sum, response) => sum + response.roundTrips, 0)).toBeLessThan(responses.length)
  })

  it('refuses at once after the key is regenerated or the plugin switched off, though the gate view was read a moment before', async () => {
    const gated = await ingestApp('ingest-gate-change')
    const send = (key: string, message: string) => call('POST', 'ingest', { query: { app: gated.app }, env: gated.env, body: { message }, headers: { 'X-Loupe-Ingest-Key': key } })
    expect((await send(gated.key, 'Before the change')).status).toBe(202)
    // The commit left a fresh view holding the old key; the regeneration does not touch it.
    const regenerated = await post('ingest-settings', { action: 'regenerate' }, { query: { app: gated.app }, env: gated.env })
    expect(await send(gated.key, 'With the old key')).toMatchObject({ status: 401, body: { error: 'A valid ingest key is required (X-Loupe-Ingest-Key).' } })
    expect((await send(regenerated.body.key, 'With the new key')).status).toBe(202)
    expect((await post('plugins', { id: 'http_ingest', enabled: false }, { query: { app: gated.app }, env: gated.env })).status).toBe(200)
    expect(await send(regenerated.body.key, 'Plugin off')).toMatchObject({ status: 404, body: { error: 'This plugin is disabled for the selected application.' } })
    expect((await post('plugins', { id: 'http_ingest', enabled: true }, { query: { app: gated.app }, env: gated.env })).status).toBe(200)
    expect((await send(regenerated.body.key, 'Plugin on again')).status).toBe(202)
    const { t, rows } = await appDatabase(gated.app)
    const messages = (await rows<{ payload: string }>(`SELECT payload FROM ${t.ingestEvents} ORDER BY id`)).map((row) => JSON.parse(row.payload).event.message)
    expect(messages).toEqual(['Before the change', 'With the new key', 'Plugin on again'])
  })

  it('answers a CORS preflight', async () => {
    const response = await call('OPTIONS', 'ingest', { query: { app }, env, headers: { Origin: 'https://shop.example', 'Access-Control-Request-Method': 'POST' } })
    expect(response.status).toBe(204)
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
    expect(response.headers.get('access-control-allow-headers')).toContain('x-loupe-ingest-key')
  })
})

describe('ingest rate limit (reference §4.3)', () => {
  it('accepts up to the limit, drops the rest of a batch, then answers 429 with Retry-After', async () => {
    const { app, key, env } = await ingestApp('ingest-rate', { rate_max_events: 5, rate_window_seconds: 3600 })
    const send = (count: number) => call('POST', 'ingest', { query: { app, key }, env, body: Array.from({ length: count }, (_, i) => ({ message: `Rated event ${i}` })) })
    expect((await send(3)).body).toEqual({ accepted: 3, received: 3, dropped: 0 })
    expect((await send(4)).body).toEqual({ accepted: 2, received: 4, dropped: 2 })
    const limited = await send(1)
    expect(limited.status).toBe(429)
    expect(limited.body).toEqual({ error: 'Ingest rate limit reached for this application. Retry after the window rolls over.', rate_limited: true, retry_after: expect.any(Number) })
    expect(limited.body.retry_after).toBeGreaterThan(0)
    expect(limited.body.retry_after).toBeLessThanOrEqual(3600)
    expect(limited.headers.get('retry-after')).toBe(String(limited.body.retry_after))
    const { t, value } = await appDatabase(app)
    expect(Number(await value(`SELECT COUNT(*) FROM ${t.occurrences}`))).toBe(5)
  })

  it('caps each client address separately when the per-IP limit is on', async () => {
    const { app, key, env } = await ingestApp('ingest-ip', { rate_max_events: 100, rate_max_events_per_ip: 2, trust_forwarded_for: true })
    const send = (ip: string) => call('POST', 'ingest', { query: { app, key }, env, headers: { 'X-Forwarded-For': `${ip}, 10.0.0.1` }, body: [{ message: 'a' }, { message: 'b' }, { message: 'c' }] })
    expect((await send('203.0.113.7')).body).toEqual({ accepted: 2, received: 3, dropped: 1 })
    expect((await send('203.0.113.7')).status).toBe(429)
    expect((await send('198.51.100.4')).body).toEqual({ accepted: 2, received: 3, dropped: 1 })
  })

  it('counts and reads the caps of a commit carrying 150 client addresses in one statement each (D1 binds at most 100)', async () => {
    // A commit carries the caps of every request queued behind it: with the per-IP cap on, one scope per client
    // address. Three placeholders per count (and one per scope in the gate read) passed D1's limit at 34 addresses.
    const { app } = await ingestApp('ingest-many-ips', { rate_max_events: 100_000, rate_max_events_per_ip: 10 })
    const { db, t } = await appDatabase(app)
    const scope = { app: { id: app, name: app, namespace: 1, created_at: '' }, db, t }
    const window = rateWindow(new Date(), 60)
    const scopes = ['app', ...Array.from({ length: 150 }, (_, i) => `ip:203.0.113.${i}`)]
    await db.batch(countRateStatements(scope, scopes.map((name, i) => ({ scope: name, bucket: window.bucket, count: i + 1 })), null))
    await db.batch(countRateStatements(scope, scopes.map((name) => ({ scope: name, bucket: window.bucket, count: 1 })), null))
    const { rows } = await db.execute(gateRead(scope, httpIngestPlugin, scopes.map((name) => ({ scope: name, max: 10 })), window))
    const counters = rows.filter((row) => row.kind === 'counter').map((row) => [row.name, Number(row.count)])
    expect(counters).toHaveLength(151)
    expect(new Map(counters as [string, number][])).toEqual(new Map(scopes.map((name, i) => [name, i + 2])))
  })
})
