import { afterAll, describe, expect, inject, it } from 'vitest'
import { DRIVER, get, post } from './helpers/api.ts'
import { mulberry32 } from './helpers/fuzz-requests.ts'
import { deliver, letters, recordingQueue, topicLines } from './import-harness.ts'
import { appDatabase, processIncoming, upload } from './ingestion-helpers.ts'

/**
 * Issue 10's fault suite. Defect 4: with the database's connections held open and silent, requests hung forever. Every
 * database call has a deadline (`database.timeout_ms`); past it the request is a JSON 503, `health` says
 * `timeout`, and nothing is half-written. A TCP fault proxy (tools/fault-proxy.ts) stalls the leg's
 * database: between the worker and the Hrana server on libsql, between the local protocol server and
 * PostgreSQL/MySQL on neon and planetscale. D1 has no network to stall; its deadline is shown with a slow
 * statement in test/drivers/conformance.test.ts.
 *
 * The same proxy then drops and stalls connections in the middle of imports (between and during batches)
 * and of writes: requests get JSON 503s within the deadline, nothing is half-written, and the imports —
 * resumed the way a deployment resumes them (the queue's retry, the lock's lease running out, "Process logs")
 * — end with exact counts. One file, so no other test flips the proxy meanwhile.
 */
const TIMEOUT_MS = 1500
/** Generous room for the 503 to travel back once the deadline fires: the point is that it comes at all. */
const SLACK_MS = 6000
const TIMEOUT_BODY = { error: 'The database did not answer in time. Try again shortly.' }

const fault = inject('driverConnections').faultTargets?.[DRIVER]

describe.each(fault ? [DRIVER] : [])('a stalled %s database', () => {
  const env = { ...fault!.bindings, SERVICE_CONFIG: JSON.stringify({ database: { timeout_ms: TIMEOUT_MS } }) }
  const app = `stalled-${Date.now().toString(36)}`
  const setMode = async (mode: 'pass' | 'stall' | 'drop') => {
    const response = await fetch(`${fault!.control}/mode/${mode}`, { method: 'POST' })
    expect(response.status).toBe(200)
  }
  const timed = async (request: () => ReturnType<typeof get>) => {
    const started = Date.now()
    const response = await request()
    return { response, elapsed: Date.now() - started }
  }
  afterAll(async () => {
    await setMode('drop')
    await setMode('pass')
  })

  it('answers health, issues and tags POST with a 503 within the deadline, writes nothing, and recovers', async () => {
    expect((await post('applications', { name: 'Stalled', id: app }, { env })).status).toBe(201)
    expect((await get('health', { env })).status).toBe(200)
    await setMode('stall')
    const [health, issues, tags] = await Promise.all([
      timed(() => get('health', { env })),
      timed(() => get('issues', { query: { app }, env })),
      timed(() => post('tags', { name: 'Written while stalled', match_word: 'stall' }, { query: { app }, env })),
    ])
    expect(health.response.status).toBe(503)
    expect(health.response.body).toMatchObject({ status: 'degraded', checks: { database: 'timeout' } })
    expect(issues.response.status).toBe(503)
    expect(issues.response.body).toEqual(TIMEOUT_BODY)
    expect(tags.response.status).toBe(503)
    expect(tags.response.body).toEqual(TIMEOUT_BODY)
    for (const { elapsed } of [health, issues, tags]) {
      expect(elapsed).toBeGreaterThanOrEqual(TIMEOUT_MS - 50)
      expect(elapsed).toBeLessThan(TIMEOUT_MS + SLACK_MS)
    }
    // The stalled connections are reset; the database answers again and the stalled write never happened.
    await setMode('drop')
    await setMode('pass')
    expect((await get('health', { env })).body.checks.database).toBe('ok')
    const list = await get('tags', { query: { app }, env })
    expect(list.status, list.text).toBe(200)
    expect(list.body.data).toEqual([])
  })
})

describe('database.timeout_ms', () => {
  it('is validated like every setting: out of range keeps the default and warns', async () => {
    const response = await get('health', { env: { SERVICE_CONFIG: JSON.stringify({ database: { timeout_ms: 5 } }) } })
    expect(response.body.config_warnings).toContain('SERVICE_CONFIG database.timeout_ms must be an integer from 100 to 300000; using 10000.')
    expect(response.body.checks.database).toBe('ok')
  })
})

describe.each(fault ? [DRIVER] : [])('%s connections dropped and stalled during imports and writes', () => {
  const config = { database: { timeout_ms: TIMEOUT_MS }, ingestion: { request_budget_bytes: 64 * 1024, job_budget_bytes: 64 * 1024, import_batch_events: 400 } }
  const recorder = recordingQueue()
  const bindings = { ...fault!.bindings, SERVICE_CONFIG: JSON.stringify(config), IMPORT_QUEUE: recorder.queue }
  /** The API helpers type bindings as strings; the queue is an object binding. */
  const env = bindings as never
  const app = `faults-${Date.now().toString(36)}`
  const setMode = async (mode: 'pass' | 'stall' | 'drop') => {
    const response = await fetch(`${fault!.control}/mode/${mode}`, { method: 'POST' })
    expect(response.status).toBe(200)
  }
  /** Holds `mode` for `windowMs` from `delayMs` on, then resets what it stalled and passes again. */
  const faultWindow = async (mode: 'stall' | 'drop', delayMs: number, windowMs: number) => {
    await sleep(delayMs)
    await setMode(mode)
    await sleep(windowMs)
    await setMode('drop')
    await setMode('pass')
  }
  afterAll(async () => {
    await setMode('drop')
    await setMode('pass')
  })

  it('answers writes with a JSON 503 while connections drop, and writes nothing', async () => {
    // A connection the previous test's drop left dead in a pool can fail the first request once: a client retries.
    let created = await post('applications', { name: 'Faults', id: app }, { env })
    if (created.status === 503) created = await post('applications', { name: 'Faults', id: app }, { env })
    expect(created.status, created.text).toBe(201)
    await setMode('drop')
    const started = Date.now()
    const [tags, status] = await Promise.all([
      post('tags', { name: 'Written while dropped', match_word: 'drop' }, { query: { app }, env }),
      post('issue-status', { id: 1, status: 'fixed' }, { query: { app }, env }),
    ])
    for (const response of [tags, status]) {
      expect(response.status, response.text).toBe(503)
      expect(response.body.error).toMatch(/^The database (is unavailable|did not answer in time)\. Try again shortly\.$/)
    }
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS + SLACK_MS)
    await setMode('pass')
    expect((await get('tags', { query: { app }, env })).body.data).toEqual([])
  })

  it('resumes imports hit by dropped and stalled connections to exact counts', { timeout: 240_000 }, async () => {
    const expected: Record<string, number> = {}
    let body = ''
    // About 3 MiB: the upload's request and each job step read one 1 MiB chunk (the budgets are the minimum).
    for (let i = 0; i < 40; i++) {
      const topic = `fault${letters(i)}`
      const lines = 1000 + ((i * 37) % 200)
      body += topicLines(topic, lines, i * 1300)
      expected[`Checkout failed in ${topic} service`] = lines
    }
    const total = Object.values(expected).reduce((sum, count) => sum + count, 0)
    const random = mulberry32(7)
    const first = await upload(app, 'faults/app.log', body, { env })
    expect([200, 202, 503], first.text).toContain(first.status)

    const { db, t, rows, value } = await appDatabase(app)
    const pending = async () => (await get('import-incoming', { query: { app }, env })).body
    let faults = 0
    // Every other step — a queue delivery, or a resume when nothing is queued — meets a fault somewhere
    // inside it: connections dropped or stalled, early or late in the step.
    const withFault = async <T,>(round: number, step: () => Promise<T>): Promise<T> => {
      const planned = round % 2 === 0 ? faultWindow(random() < 0.5 ? 'drop' : 'stall', Math.floor(random() * 400), TIMEOUT_MS + 300) : null
      if (planned) faults++
      const result = await step()
      await planned
      return result
    }
    for (let round = 0; round < 80; round++) {
      const message = recorder.sent.shift()
      if (message) {
        const result = await withFault(round, () => deliver(message.body, bindings))
        // The queue retries a message whose step threw (the database went away under it).
        if (result.retryMessages.length > 0 || result.retryBatch.retry) recorder.sent.push(message)
        continue
      }
      const state = await pending()
      if (state?.pending?.files === 0 && (state.data ?? []).every((job: { status: string }) => job.status !== 'running' && job.status !== 'queued')) break
      // Nothing queued but work pending: a step failed and marked its job failed, or lost its lock release.
      // Let the lock's lease run out (as 120 s would) and resume as a user or the cron trigger does.
      await rows(`UPDATE ${t.settings} SET updated_at = '2000-01-01 00:00:00' WHERE ${db.dialect.quote('key')} = 'import.lock'`)
      const resumed = await withFault(round, () => processIncoming(app, { env }))
      expect([200, 202, 400, 503], resumed.text).toContain(resumed.status)
    }
    expect(faults).toBeGreaterThan(2)
    const state = await pending()
    expect(state.pending).toEqual({ files: 0, bytes: 0 })
    expect(state.failed).toEqual([])

    expect(await value(`SELECT COUNT(*) FROM ${t.occurrences}`)).toBe(total)
    const groups = await rows<{ title: string; count: number }>(`SELECT title, count FROM ${t.groups}`)
    expect(Object.fromEntries(groups.map((group) => [group.title, Number(group.count)]))).toEqual(expected)
    expect(await value(`SELECT SUM(count) FROM ${t.groupDays}`)).toBe(total)
    expect(await value(`SELECT SUM(occurrence_count) FROM ${t.fileImports}`)).toBe(total)
  })
})

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
