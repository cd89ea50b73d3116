import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test'
import { beforeAll, describe, expect, it } from 'vitest'
import worker from '../../worker/index.ts'
import type { CloudflareEnv as Env } from '../../worker/platform/cloudflare/cloudflare-env.ts'
import { createTestApp, DRIVER, get, ORIGIN, post } from './helpers/api.ts'
import { createIssue, createTag } from './helpers/fixtures.ts'
import { describeFuzzRequest, encodeQueryValue, FuzzGenerator, type FuzzRequest } from './helpers/fuzz-requests.ts'
import { topicLines } from './import-harness.ts'
import { upload } from './ingestion-helpers.ts'

/** Tracker calls go to the local Linear server (tools/servers/linear-server.ts), never to the internet. */
const TRACKER_CONFIG = JSON.stringify({ tracker: { linear_url: `${(env as unknown as { LINEAR_SERVER_URL: string }).LINEAR_SERVER_URL}/graphql`, allow_local_targets: true, timeout_ms: 2000 } })

/**
 * Issue 10's fuzz suite: ≥ 5,000 seeded malformed requests across every endpoint, on every driver. None may
 * answer 5xx; every 4xx is JSON with an `error` string; no body carries SQL engine text, a stack, a source
 * path or a runtime error name. The seed is fixed per driver (so CI is reproducible) and printed with every
 * failure; `LOUPE_FUZZ_SEED` would replay another (vitest passes env to workerd bindings only, so it is a
 * constant here).
 */
const REQUESTS = 5_000
const CONCURRENCY = 8
const SEED = { d1: 1001, libsql: 2002, neon: 3003, planetscale: 4004 }[DRIVER] ?? 99

/** Text that only an engine, a runtime or a stack trace would put in a body. */
const LEAKS = [
  /SQLITE_[A-Z]+/, /no such (table|column)/i, /syntax error at or near/i, /You have an error in your SQL syntax/i, /duplicate key value/i,
  /violates (unique|foreign key|not-null|check) constraint/i, /D1_[A-Z_]+/, /\bER_[A-Z_]{4,}/, /relation "[^"]+" does not exist/i,
  /\bat [\w$.<>]+ \(.*:\d+:\d+\)/, /\.ts:\d+:\d+/, /node_modules/, /\bworkerd\b/, /(TypeError|ReferenceError|RangeError|SyntaxError): /,
  /Internal Server Error/, /@neondatabase|@planetscale|@libsql/,
]

interface Outcome {
  readonly status: number
  readonly contentType: string
  readonly text: string
}

async function send(request: FuzzRequest): Promise<Outcome> {
  const url = new URL(`${ORIGIN}/`)
  const parts = [`api=${encodeQueryValue(request.api)}`]
  for (const [name, value, raw] of request.query) parts.push(`${name}=${raw ? value : encodeQueryValue(value)}`)
  url.search = `?${parts.join('&')}`
  const hasBody = request.body !== undefined && !['GET', 'HEAD'].includes(request.method.toUpperCase())
  const fetchRequest = new Request(url, { method: request.method, headers: request.headers, body: hasBody ? request.body : undefined })
  const ctx = createExecutionContext()
  const testEnv = { ...env, SERVICE_SECRET: 'fuzz-secret', SERVICE_CONFIG: TRACKER_CONFIG, ...(request.withToken ? { SERVICE_TOKEN: 'T' } : {}) } as Env
  const response = await worker.fetch(fetchRequest as Request<unknown, IncomingRequestCfProperties>, testEnv, ctx)
  await waitOnExecutionContext(ctx)
  return { status: response.status, contentType: response.headers.get('content-type') ?? '', text: await response.text() }
}

/** What is wrong with one answer, or null. */
function problem(request: FuzzRequest, outcome: Outcome): string | null {
  if (outcome.status >= 500) return `answered ${outcome.status}: ${outcome.text.slice(0, 300)}`
  for (const leak of LEAKS) if (leak.test(outcome.text)) return `body leaks ${leak}: ${outcome.text.slice(0, 300)}`
  const bodiless = request.method === 'HEAD' || outcome.status === 204
  if (bodiless) return null
  if (!outcome.contentType.startsWith('application/json')) return `content-type ${JSON.stringify(outcome.contentType)} (status ${outcome.status})`
  if (outcome.status >= 400) {
    let parsed: unknown
    try {
      parsed = JSON.parse(outcome.text)
    } catch {
      return `${outcome.status} body is not JSON: ${outcome.text.slice(0, 200)}`
    }
    const error = typeof parsed === 'object' && parsed !== null && 'error' in parsed ? parsed.error : undefined
    if (typeof error !== 'string' || error.trim() === '') return `${outcome.status} without an error string: ${outcome.text.slice(0, 200)}`
  }
  return null
}

describe(`fuzz: ${REQUESTS} malformed requests across every endpoint on ${DRIVER} (seed ${SEED})`, { timeout: 600_000 }, () => {
  let app: string
  let known: { app: string; issueIds: number[]; tagIds: number[]; occurrenceIds: number[]; sourceIds: number[] }
  beforeAll(async () => {
    app = await createTestApp('fuzz')
    expect((await post('plugins', { id: 'alerts', enabled: true }, { query: { app } })).status).toBe(200)
    expect((await post('plugins', { id: 'access_analytics', enabled: true }, { query: { app } })).status).toBe(200)
    expect((await post('plugins', { id: 'releases', enabled: true }, { query: { app } })).status).toBe(200)
    const issues = [await createIssue(app, { title: 'Fuzz target one' }), await createIssue(app, { title: 'Fuzz target two' })]
    const tags = [await createTag(app, { name: 'fuzzed', match_word: 'checkout' }), await createTag(app, { name: 'plain' })]
    const imported = await upload(app, 'fuzz/app.log', topicLines('fuzz', 6))
    expect(imported.status, imported.text).toBe(200)
    const list = await get('issues', { query: { app, limit: 100 } })
    const ingested = list.body.data.find((item: { origin: string }) => item.origin === 'ingested')
    const detail = await get('error', { query: { app, id: ingested.id } })
    const sources = await get('sources', { query: { app } })
    known = {
      app,
      issueIds: [...issues.map((issue) => issue.id), ingested.id],
      tagIds: tags.map((tag) => tag.id),
      occurrenceIds: detail.body.occurrences.map((occurrence: { id: number }) => occurrence.id).slice(0, 3),
      sourceIds: sources.body.data.map((source: { id: number }) => source.id),
    }
  })

  it('never answers 5xx, and every error is a JSON {error} without internals', async () => {
    const generator = new FuzzGenerator(SEED, known)
    const requests = Array.from({ length: REQUESTS }, (_, index) => generator.next(index))
    const failures: string[] = []
    const statuses = new Map<number, number>()
    let cursor = 0
    const lane = async () => {
      while (cursor < requests.length) {
        const request = requests[cursor++]!
        let outcome: Outcome
        try {
          outcome = await send(request)
        } catch (error) {
          failures.push(`${describeFuzzRequest(request)}\n    threw ${error instanceof Error ? error.message : String(error)}`)
          continue
        }
        statuses.set(outcome.status, (statuses.get(outcome.status) ?? 0) + 1)
        const found = problem(request, outcome)
        if (found) failures.push(`${describeFuzzRequest(request)}\n    ${found}`)
      }
    }
    await Promise.all(Array.from({ length: CONCURRENCY }, lane))
    const distribution = JSON.stringify(Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])))
    expect(failures.slice(0, 15), `seed ${SEED}: ${failures.length} of ${REQUESTS} requests failed (statuses ${distribution})`).toEqual([])
    // The run did reach the handlers, not only the router's refusals.
    expect(statuses.get(200) ?? 0).toBeGreaterThan(REQUESTS / 10)
    expect(statuses.get(422) ?? 0).toBeGreaterThan(REQUESTS / 20)
    expect([...statuses.keys()].every((status) => status < 500)).toBe(true)
  })

  it('leaves the application and the service working', async () => {
    expect((await get('health')).body.checks.database).toBe('ok')
    const issues = await get('issues', { query: { app } })
    expect(issues.status).toBe(200)
    expect((await post('issue-status', { id: known.issueIds[0], status: 'fixed' }, { query: { app } })).status).toBe(200)
  })
})
