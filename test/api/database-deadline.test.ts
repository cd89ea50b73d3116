import { afterAll, describe, expect, inject, it } from 'vitest'
import { DRIVER, get, post } from './helpers/api.ts'

/**
 * Issue 10 defect 4: with the database's connections held open and silent, requests hung forever. Every
 * database call has a deadline (`database.timeout_ms`); past it the request is a JSON 503, `health` says
 * `timeout`, and nothing is half-written. A TCP fault proxy (tools/fault-proxy.ts) stalls the leg's
 * database: between the worker and the Hrana server on libsql, between the local protocol server and
 * PostgreSQL/MySQL on neon and planetscale. D1 has no network to stall; its deadline is shown with a slow
 * statement in test/drivers/conformance.test.ts.
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
