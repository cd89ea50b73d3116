import { createExecutionContext, env as baseEnv, waitOnExecutionContext } from 'cloudflare:test'
import { beforeAll, describe, expect, it } from 'vitest'
import worker from '../../worker/index.ts'
import type { CloudflareEnv as Env } from '../../worker/platform/cloudflare/cloudflare-env.ts'
import nodeException from '../fixtures/sentry/node-exception.envelope?raw'
import nodeMessage from '../fixtures/sentry/node-message.envelope?raw'
import nodeChained from '../fixtures/sentry/node-chained.envelope?raw'
import nodeLargeGzipBase64 from '../fixtures/sentry/node-large.envelope.gz.b64?raw'
import { ORIGIN, createTestApp, get, post } from './helpers/api.ts'
import { appDatabase } from './ingestion-helpers.ts'

/**
 * Sentry's store and envelope endpoints (issue 12) fed the envelopes the real `@sentry/node` SDK sent
 * (test/fixtures/sentry/capture-node.ts): authentication in its three forms, gzip, decompression bombs,
 * envelope items other than events, the mapping onto issues, `event_id` de-duplication, the rate limit's
 * Sentry headers, and CORS. `send` waits for the request's `waitUntil` work, so the digest has run.
 */
const SECRET = { SERVICE_SECRET: 'test-secret-for-ingest-keys' }

interface Sent {
  readonly status: number
  readonly headers: Headers
  readonly body: any
}

async function send(path: string, body: BodyInit | Uint8Array | null, headers: Record<string, string> = {}, extraEnv: Record<string, string> = {}, method = 'POST'): Promise<Sent> {
  const ctx = createExecutionContext()
  const response = await worker.fetch(new Request(`${ORIGIN}${path}`, { method, body: body as BodyInit | null, headers }) as Request<unknown, IncomingRequestCfProperties>, { ...baseEnv, ...SECRET, ...extraEnv } as Env, ctx)
  await waitOnExecutionContext(ctx)
  const text = await response.text()
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined }
}

const fromBase64 = (text: string) => Uint8Array.from(atob(text.trim()), (c) => c.charCodeAt(0))

async function gzip(text: string): Promise<Uint8Array> {
  return new Uint8Array(await new Response(new Blob([text]).stream().pipeThrough(new CompressionStream('gzip'))).arrayBuffer())
}

async function sentryApp(label: string, config?: Record<string, unknown>) {
  const app = await createTestApp(label)
  const extraEnv: Record<string, string> = config ? { SERVICE_CONFIG: JSON.stringify({ ingest: config }) } : {}
  await post('plugins', { id: 'http_ingest', enabled: true }, { query: { app }, env: { ...SECRET, ...extraEnv } })
  const settings = (await get('ingest-settings', { query: { app }, env: { ...SECRET, ...extraEnv } })).body
  const project = new URL(settings.dsn).pathname.slice(1)
  return { app, key: settings.key as string, project, extraEnv }
}

describe('Sentry envelope and store endpoints', () => {
  let app: string
  let key: string
  let project: string
  const envelope = (body: BodyInit | Uint8Array, headers: Record<string, string> = {}, query = `?sentry_key=${key}&sentry_version=7`) => send(`/api/${project}/envelope/${query}`, body, headers)

  beforeAll(async () => {
    ;({ app, key, project } = await sentryApp('sentry'))
  })

  it('stores a real @sentry/node exception as an issue with its class, culprit frame, release, environment, user, tags and breadcrumbs', async () => {
    const response = await envelope(nodeException, { 'content-type': 'application/x-sentry-envelope' })
    expect(response.status).toBe(200)
    const eventId = JSON.parse(nodeException.split('\n')[0]!).event_id
    expect(response.body).toEqual({ id: eventId })
    expect(response.headers.get('access-control-allow-origin')).toBe('*')

    const issues = (await get('issues', { query: { app, q: 'Cannot read properties' } })).body
    expect(issues.meta.total).toBe(1)
    const issue = issues.data[0]
    expect(issue).toMatchObject({
      title: "TypeError: Cannot read properties of undefined (reading 'amount')",
      exception_class: 'TypeError',
      severity: 'ERROR',
      environment: 'staging',
      log_type: 'sentry',
      channel: 'sentry',
      count: 1,
    })
    // The innermost in-app frame: chargeCard in the capture script.
    expect(issue.source_frame).toMatch(/test\/fixtures\/sentry\/capture-node\.ts:\d+:\d+$/)
    const { t, rows } = await appDatabase(app)
    const [occurrence] = await rows<{ release: string; context_preview: string }>(`SELECT o.* FROM ${t.occurrences} o WHERE o.group_id = ${issue.id}`)
    expect(occurrence!.release).toBe('shop@2.4.1')
    const context = JSON.parse(occurrence!.context_preview)
    expect(context).toMatchObject({ event_id: eventId, platform: 'node', server_name: 'web-3', release: 'shop@2.4.1', user: { id: 'u-7', email: 'ada@example.com' }, tags: { region: 'eu-west' } })
    expect(context.breadcrumbs.map((crumb: { message?: string }) => crumb.message)).toContain('pressed pay')
    expect(context.sdk).toEqual({ name: 'sentry.javascript.node', version: '11.12.0' })
    expect(context.culprit_source.line).toContain('order.total!.amount')
    const detail = (await get('error', { query: { app, id: issue.id } })).body
    expect(detail.data, JSON.stringify(detail).slice(0, 300)).toBeDefined()
    expect(detail.data.sample_stack.split('\n')[0]).toMatch(/^ {4}at chargeCard \(.*capture-node\.ts:\d+:\d+\)$/)
  })

  it('stores the same event_id once, however often it is sent', async () => {
    for (let i = 0; i < 3; i++) expect((await envelope(nodeException)).status).toBe(200)
    const issues = (await get('issues', { query: { app, q: 'Cannot read properties' } })).body
    expect(issues.data[0].count).toBe(1)
  })

  it('maps captureMessage (warning) and a chained exception, the cause after the main stack', async () => {
    expect((await envelope(nodeMessage, { 'X-Sentry-Auth': `Sentry sentry_version=7, sentry_client=sentry.javascript.node/11.12.0, sentry_key=${key}` }, '')).status).toBe(200)
    expect((await envelope(nodeChained)).status).toBe(200)
    const message = (await get('issues', { query: { app, q: 'Inventory sync' } })).body.data[0]
    expect(message).toMatchObject({ title: 'Inventory sync finished late', severity: 'WARNING', exception_class: null })
    const chained = (await get('issues', { query: { app, q: 'price list' } })).body.data[0]
    expect(chained).toMatchObject({ title: 'Error: Could not load the price list', exception_class: 'Error' })
    const stack: string = (await get('error', { query: { app, id: chained.id } })).body.data.sample_stack
    expect(stack).toMatch(/\nCaused by: SyntaxError: Expected property name/)
  })

  it('reads a gzip body as the SDK compressed it, and refuses a decompression bomb with 413', async () => {
    const response = await envelope(fromBase64(nodeLargeGzipBase64), { 'content-encoding': 'gzip' })
    expect(response.status).toBe(200)
    expect((await get('issues', { query: { app, q: 'Quota exceeded' } })).body.data[0]).toMatchObject({ exception_class: 'RangeError' })
    const bomb = await gzip(`{}\n{"type":"event"}\n{"message":"${'0'.repeat(3 * 1024 * 1024)}"}\n`)
    expect(bomb.length).toBeLessThan(20_000)
    const refused = await envelope(bomb, { 'content-encoding': 'gzip' })
    expect(refused.status).toBe(413)
    expect(refused.body).toEqual({ error: 'Request body is too large (limit 1 MiB).' })
    expect((await envelope('x', { 'content-encoding': 'br' })).status).toBe(415)
    expect((await envelope(new Uint8Array([1, 2, 3]), { 'content-encoding': 'gzip' })).status).toBe(400)
  })

  it('accepts sessions, client reports, transactions and attachments without storing them', async () => {
    const items = [
      '{"type":"session"}\n{"sid":"a","status":"ok","init":true}',
      '{"type":"client_report"}\n{"timestamp":1,"discarded_events":[]}',
      '{"type":"transaction"}\n{"type":"transaction","transaction":"/checkout"}',
      '{"type":"attachment","length":4,"filename":"a.bin"}\n\u0001\u0002\u0003\u0004',
    ]
    const { t, value } = await appDatabase(app)
    const before = Number(await value(`SELECT COUNT(*) FROM ${t.ingestEvents}`))
    const response = await envelope(`{"sent_at":"2026-11-25T00:00:00Z"}\n${items.join('\n')}\n`)
    expect(response.status).toBe(200)
    expect(response.body).toEqual({})
    expect(Number(await value(`SELECT COUNT(*) FROM ${t.ingestEvents}`))).toBe(before)
  })

  it('serves the store endpoint and takes the key from the envelope header DSN', async () => {
    const event = { event_id: 'aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee', message: 'Stored via store', level: 'error', platform: 'python', logger: 'billing.jobs' }
    const stored = await send(`/api/${project}/store/?sentry_key=${key}`, JSON.stringify(event))
    expect(stored).toMatchObject({ status: 200, body: { id: 'aaaaaaaabbbbccccddddeeeeeeeeeeee' } })
    expect((await get('issues', { query: { app, q: 'Stored via store' } })).body.data[0]).toMatchObject({ channel: 'billing.jobs', severity: 'ERROR' })
    const dsn = `http://${key}@loupe.test/${project}`
    const viaDsn = await envelope(`{"dsn":"${dsn}"}\n{"type":"event"}\n{"message":"Keyed by DSN"}\n`, {}, '')
    expect(viaDsn.status).toBe(200)
    expect((await get('issues', { query: { app, q: 'Keyed by DSN' } })).body.meta.total).toBe(1)
  })

  it('refuses a wrong key (401), an unknown or disabled project (404) and a malformed envelope (422), with CORS headers', async () => {
    const wrong = await envelope(nodeMessage, {}, '?sentry_key=lpk_wrong')
    expect(wrong.status).toBe(401)
    expect(wrong.headers.get('access-control-allow-origin')).toBe('*')
    expect((await send(`/api/999999999/envelope/?sentry_key=${key}`, nodeMessage)).status).toBe(404)
    const off = await sentryApp('sentry-off')
    await post('plugins', { id: 'http_ingest', enabled: false }, { query: { app: off.app }, env: SECRET })
    expect(await send(`/api/${off.project}/envelope/?sentry_key=${off.key}`, nodeMessage)).toMatchObject({ status: 404, body: { error: 'This plugin is disabled for the selected application.' } })
    expect((await envelope('not json at all')).status).toBe(422)
    expect((await envelope('{}\n{"type":"event","length":999}\n{}')).body.error).toBe('Envelope item 1 states a length its payload does not have.')
    const preflight = await send(`/api/${project}/envelope/`, null, { Origin: 'https://shop.example', 'Access-Control-Request-Method': 'POST' }, {}, 'OPTIONS')
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('access-control-allow-headers')).toContain('x-sentry-auth')
  })
})

describe('Sentry rate limit', () => {
  it('answers 429 with Retry-After and X-Sentry-Rate-Limits once the window is used up', async () => {
    const { key, project } = await sentryApp('sentry-rate', { rate_max_events: 1, rate_window_seconds: 600 })
    const config = { SERVICE_CONFIG: JSON.stringify({ ingest: { rate_max_events: 1, rate_window_seconds: 600 } }) }
    const one = (message: string) => send(`/api/${project}/envelope/?sentry_key=${key}`, `{}\n{"type":"event"}\n{"message":"${message}"}\n`, {}, config)
    expect((await one('first')).status).toBe(200)
    const limited = await one('second')
    expect(limited.status).toBe(429)
    const retryAfter = Number(limited.headers.get('retry-after'))
    expect(retryAfter).toBeGreaterThan(0)
    expect(retryAfter).toBeLessThanOrEqual(600)
    expect(limited.headers.get('x-sentry-rate-limits')).toBe(`${retryAfter}::organization:rate_limit`)
    expect(limited.headers.get('access-control-allow-origin')).toBe('*')
  })
})
