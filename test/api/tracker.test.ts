import { env } from 'cloudflare:test'
import { createHmac } from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import { TRACKER_LOCAL_TARGETS_WARNING } from '../../worker/plugins/tracker/tracker-config.ts'
import { call, createTestApp, type ApiCall, type ApiResponse } from './helpers/api.ts'
import { appDatabase } from './ingestion-helpers.ts'

/**
 * The issue-tracker plugin (issue 16, reference §4.5) against tools/servers/linear-server.ts, Linear's GraphQL
 * API run locally: settings, test, sync (backfill, incremental, re-sync), write-back, push, webhook, rate limit.
 */
const LINEAR = (env as unknown as { LINEAR_SERVER_URL: string }).LINEAR_SERVER_URL
const CONFIG = { tracker: { linear_url: `${LINEAR}/graphql`, allow_local_targets: true, sync_page_size: 2, sync_pages: 2 } }
const ENV = { SERVICE_SECRET: 'tracker-test-secret', SERVICE_CONFIG: JSON.stringify(CONFIG) }
const DISABLED = { error: 'This plugin is disabled for the selected application.' }

function trackerCall(method: string, api: string, app: string, options: ApiCall = {}): Promise<ApiResponse> {
  return call(method, api, { ...options, query: { app, ...options.query }, env: { ...ENV, ...options.env } })
}

async function ok(response: Promise<ApiResponse>, status = 200): Promise<any> {
  const resolved = await response
  expect(resolved.status, resolved.text).toBe(status)
  return resolved.body
}

async function control(path: string, body?: unknown): Promise<any> {
  const response = await fetch(`${LINEAR}/control/${path}`, body === undefined ? {} : { method: 'POST', body: JSON.stringify(body) })
  return response.json()
}

const BUG = { name: 'Bug', color: '#EB5757' }
const LOUPE = { name: 'loupe', color: 'not-a-colour' }

/** A Linear workspace with three issues labelled `loupe` (one also `Bug`), one assigned to the viewer, one unrelated. */
async function workspace(): Promise<string> {
  const { api_key } = await control('workspaces', {
    teams: ['ENG', 'OPS'],
    users: [{ name: 'Ada', email: 'ada@example.com' }],
    issues: [
      { title: 'Checkout fails', description: 'Card declined loops', priority: 1, state: 'started', labels: [LOUPE, BUG], assignee: 'ada@example.com' },
      { title: 'Slow search', priority: 3, state: 'completed', labels: [LOUPE] },
      { title: 'Typo on page', priority: 0, state: 'canceled', labels: [LOUPE] },
      { title: 'Unrelated', priority: 2, labels: [{ name: 'other', color: '#000000' }] },
      { title: 'Other team', priority: 2, team: 'OPS', labels: [LOUPE] },
    ],
  })
  return api_key
}

async function linearIssues(key: string): Promise<any[]> {
  return (await control(key)).issues
}

async function mirrored(app: string): Promise<any[]> {
  const list = await ok(trackerCall('GET', 'issues', app, { query: { limit: 200 } }))
  return list.data.filter((issue: { origin: string }) => issue.origin === 'linear').sort((a: any, b: any) => a.source_frame.localeCompare(b.source_frame))
}

describe('tracker: the plugin switch (seed §4.1)', () => {
  it('is on by default and answers 404 on every endpoint while switched off', async () => {
    const app = await createTestApp('tracker-off')
    expect((await ok(trackerCall('GET', 'tracker-settings', app))).enabled).toBe(false)
    await ok(trackerCall('POST', 'plugins', app, { body: { id: 'tracker', enabled: false } }))
    for (const [method, api] of [['GET', 'tracker-settings'], ['PUT', 'tracker-settings'], ['POST', 'tracker-test'], ['POST', 'tracker-sync'], ['POST', 'tracker-webhook'], ['GET', 'tracker-issue'], ['POST', 'tracker-issue']]) {
      const response = await trackerCall(method!, api!, app, { body: method === 'GET' ? undefined : {} })
      expect([method, api, response.status, response.body]).toEqual([method, api, 404, DISABLED])
    }
  })

  it('has health warn while local targets are allowed', async () => {
    const health = await ok(trackerCall('GET', 'health', 'default'))
    expect(health.config_warnings).toContain(TRACKER_LOCAL_TARGETS_WARNING)
  })
})

describe('tracker-settings and tracker-test (reference §4.5)', () => {
  let app: string
  let key: string
  beforeAll(async () => {
    app = await createTestApp('tracker-settings')
    key = await workspace()
  })

  it('stores secrets sealed, never returns them, and refuses bad input with 422', async () => {
    const initial = await ok(trackerCall('GET', 'tracker-settings', app))
    expect(initial).toMatchObject({ provider: 'linear', enabled: false, labels: [], api_key_configured: false, api_key_source: 'none', webhook_configured: false, at_rest_encrypted: true, env_key_locked: false })
    expect(initial.webhook_url).toBe(`http://loupe.test/?api=tracker-webhook&app=${app}`)
    expect(await trackerCall('PUT', 'tracker-settings', app, { body: { enabled: true } })).toMatchObject({ status: 422, body: { error: 'Add a Linear API key (or set TRACKER_API_KEY) before enabling the integration.' } })
    for (const [body, error] of [
      [{ team_key: 'eng team' }, 'team_key must be 1–20 capital letters or digits (a Linear team key such as ENG), or empty.'],
      [{ labels: 'loupe' }, 'labels must be a list of at most 50 names of 1–80 characters.'],
      [{ labels: ['x'.repeat(81)] }, 'labels must be a list of at most 50 names of 1–80 characters.'],
      [{ provider: 'jira' }, 'provider must be one of: linear, github.'],
      [{ status_writeback: 'yes' }, 'status_writeback must be true or false.'],
      [{ api_key: 42 }, 'api_key must be a string of at most 500 characters, or null to remove it.'],
    ] as const) {
      expect(await trackerCall('PUT', 'tracker-settings', app, { body })).toMatchObject({ status: 422, body: { error } })
    }
    const saved = await ok(trackerCall('PUT', 'tracker-settings', app, { body: { api_key: key, webhook_secret: 'whsec-1', labels: [' loupe ', 'Loupe'], team_key: 'eng', enabled: true } }))
    expect(saved).toMatchObject({ enabled: true, labels: ['loupe'], team_key: 'ENG', api_key_configured: true, api_key_source: 'stored', webhook_configured: true })
    const text = (await trackerCall('GET', 'tracker-settings', app)).text
    expect(text).not.toContain(key)
    expect(text).not.toContain('whsec-1')
    const db = await appDatabase(app)
    const [row] = await db.rows<{ value: string }>(`SELECT value FROM ${db.t.settings} WHERE value LIKE '%api_key_sealed%'`)
    expect(row!.value).not.toContain(key)
    expect(JSON.parse(row!.value).api_key_sealed).toMatch(/^v1\./)
  })

  it('lets the environment lock the key, and tests the connection', async () => {
    const locked = await trackerCall('PUT', 'tracker-settings', app, { body: { api_key: 'other' }, env: { TRACKER_API_KEY: key } })
    expect(locked).toMatchObject({ status: 422, body: { error: 'The Linear API key is set by the environment (TRACKER_API_KEY) and cannot be changed here.' } })
    expect(await ok(trackerCall('GET', 'tracker-settings', app, { env: { TRACKER_API_KEY: key } }))).toMatchObject({ api_key_source: 'env', env_key_locked: true })
    expect(await ok(trackerCall('POST', 'tracker-test', app))).toEqual({ ok: true, provider: 'linear', viewer: { id: expect.any(String), name: 'Test Viewer', email: 'viewer@example.com' } })
    expect(await trackerCall('POST', 'tracker-test', app, { env: { TRACKER_API_KEY: 'lin_api_wrong' } })).toMatchObject({ status: 400, body: { error: 'Linear rejected the API key (HTTP 401).' } })
  })

  it('refuses loopback trackers unless local targets are allowed', async () => {
    const strict = JSON.stringify({ tracker: { linear_url: `${LINEAR}/graphql` } })
    const response = await trackerCall('POST', 'tracker-test', app, { env: { SERVICE_CONFIG: strict } })
    expect(response).toMatchObject({ status: 400, body: { error: 'Linear could not be reached: only https:// URLs can be called.' } })
  })
})

describe('tracker-sync, write-back, push and webhook (reference §4.5, issue 16)', () => {
  let app: string
  let key: string
  beforeAll(async () => {
    app = await createTestApp('tracker-sync')
    key = await workspace()
  })

  it('needs a filter, then backfills page by page and maps Linear issues onto Loupe issues', async () => {
    await ok(trackerCall('PUT', 'tracker-settings', app, { body: { api_key: key, enabled: true } }))
    expect(await trackerCall('POST', 'tracker-sync', app)).toMatchObject({
      status: 400,
      body: { error: 'Configure at least one Linear filter (labels, assigned to me, assignees or a team key): a workspace is never pulled wholesale.' },
    })
    await ok(trackerCall('PUT', 'tracker-settings', app, { body: { labels: ['loupe'], team_key: 'ENG' } }))
    // Page size 2, two pages per call: the three matching issues take two pages, so one call finishes the backfill.
    const first = await ok(trackerCall('POST', 'tracker-sync', app))
    expect(first).toEqual({ ok: true, provider: 'linear', pulled: 3, created: 3, updated: 0, tags_created: 2, synced_at: expect.any(String), phase: 'backfill', has_more: false, backfill_complete: true })
    const issues = await mirrored(app)
    expect(issues.map((issue) => [issue.source_frame, issue.title, issue.severity, issue.status, issue.channel, issue.kind, issue.external_source, issue.assignee, issue.count])).toEqual([
      ['ENG-1', 'Checkout fails', 'CRITICAL', 'in_progress', 'ENG', 'issue', 'linear', 'Ada', 0],
      ['ENG-2', 'Slow search', 'WARNING', 'fixed', 'ENG', 'issue', 'linear', null, 0],
      ['ENG-3', 'Typo on page', 'INFO', 'wont_fix', 'ENG', 'issue', 'linear', null, 0],
    ])
    expect(issues[0].external_url).toBe('https://linear.app/loupe-test/issue/ENG-1/checkout-fails')
    const detail = await ok(trackerCall('GET', 'error', app, { query: { id: issues[0].id } }))
    expect(detail.data.sample_message).toBe('Card declined loops')
    expect(JSON.parse(detail.data.sample_context)).toEqual({ origin: 'linear', identifier: 'ENG-1', state: 'In Progress', priority: 1, team: 'ENG', assignee: 'Ada', url: issues[0].external_url })
    expect(detail.status_history.map((row: any) => [row.from_status, row.to_status, row.note, row.actor])).toEqual([[null, 'in_progress', 'Imported from Linear (ENG-1).', 'Linear']])
    expect(detail.tags.map((tag: any) => [tag.name, tag.color, tag.source]).sort()).toEqual([['Bug', '#eb5757', 'tracker'], ['loupe', '#64748b', 'tracker']])
    expect(await ok(trackerCall('GET', 'tracker-issue', app, { query: { id: issues[0].id } }))).toEqual({
      id: issues[0].id,
      link: { provider: 'linear', external_id: expect.any(String), identifier: 'ENG-1', url: issues[0].external_url, state: 'In Progress', via: 'sync', created_at: expect.any(String) },
    })
    expect((await ok(trackerCall('GET', 'tracker-settings', app))).sync).toMatchObject({ phase: 'incremental', backfill_complete: true })
  })

  it('re-syncs incrementally: mirrored fields refresh, the local status stays', async () => {
    const [checkout, search] = await mirrored(app)
    await ok(trackerCall('POST', 'issue-status', app, { body: { id: checkout.id, status: 'fixed' } }))
    await control(`${key}/issues`, { issues: [{ identifier: 'ENG-1', title: 'Checkout fails on retry', state: 'canceled', priority: 2 }] })
    const again = await ok(trackerCall('POST', 'tracker-sync', app))
    expect(again).toMatchObject({ pulled: 1, created: 0, updated: 1, tags_created: 0, phase: 'incremental', has_more: false })
    const [refreshed, untouched] = await mirrored(app)
    expect([refreshed.title, refreshed.severity, refreshed.status]).toEqual(['Checkout fails on retry', 'ERROR', 'fixed'])
    expect(untouched.last_seen).toBe(search.last_seen)
    expect(await ok(trackerCall('POST', 'tracker-sync', app))).toMatchObject({ pulled: 0, created: 0, updated: 0 })
  })

  it('writes status changes back with the optional comment', async () => {
    const [, search] = await mirrored(app)
    const off = await ok(trackerCall('POST', 'issue-status', app, { body: { id: search.id, status: 'in_progress' } }))
    expect(off.tracker).toEqual({ written_back: false, reason: 'Status write-back is off.' })
    await ok(trackerCall('PUT', 'tracker-settings', app, { body: { status_writeback: true } }))
    const on = await ok(trackerCall('POST', 'issue-status', app, { body: { id: search.id, status: 'wont_fix', note: 'Not worth it\nfor now' } }))
    expect(on).toMatchObject({ id: search.id, status: 'wont_fix', tracker: { written_back: true, state: 'Canceled', commented: true } })
    const remote = (await linearIssues(key)).find((issue) => issue.identifier === 'ENG-2')
    expect([remote.state, remote.comments]).toEqual([{ name: 'Canceled', type: 'canceled' }, ["Marked **Won't Fix**.\n\n> Not worth it\n> for now"]])
    await ok(trackerCall('PUT', 'tracker-settings', app, { body: { status_writeback_comment: false } }))
    const quiet = await ok(trackerCall('POST', 'issue-status', app, { body: { id: search.id, status: 'fixed' } }))
    expect(quiet.tracker).toEqual({ written_back: true, state: 'Done', commented: false })
    expect((await linearIssues(key)).find((issue) => issue.identifier === 'ENG-2').comments).toHaveLength(1)
    expect((await ok(trackerCall('GET', 'tracker-issue', app, { query: { id: search.id } }))).link.state).toBe('Done')
  })

  it('pushes a Loupe issue to Linear once, links it, and keeps its state on sync', async () => {
    const manual = await ok(trackerCall('POST', 'issues', app, { body: { title: 'Queue stalls', description: 'Jobs wait forever', severity: 'ERROR' } }), 201)
    const id = manual.data?.id ?? manual.issue?.id ?? manual.id
    const pushed = await ok(trackerCall('POST', 'tracker-issue', app, { body: { id } }))
    expect(pushed).toEqual({ id, created: true, link: { provider: 'linear', external_id: expect.any(String), identifier: 'ENG-5', url: 'https://linear.app/loupe-test/issue/ENG-5/queue-stalls', state: 'Todo', via: 'push', created_at: expect.any(String) } })
    const remote = (await linearIssues(key)).find((issue) => issue.identifier === 'ENG-5')
    expect(remote.title).toBe('Queue stalls')
    expect(remote.description).toContain(`Created from Loupe issue [#${id}](http://loupe.test/?app=${app}&issue=${id}).`)
    expect(remote.description).toContain('> Jobs wait forever')
    expect(await ok(trackerCall('POST', 'tracker-issue', app, { body: { id } }))).toEqual({ ...pushed, created: false })
    expect((await linearIssues(key)).filter((issue) => issue.title === 'Queue stalls')).toHaveLength(1)
    // Labelled in Linear, it matches the sync filter: found by its link, not mirrored a second time. (ENG-2,
    // changed by the write-back above, comes along: it was updated after the last sync.)
    await control(`${key}/issues`, { issues: [{ identifier: 'ENG-5', labels: [LOUPE], state: 'started' }] })
    expect(await ok(trackerCall('POST', 'tracker-sync', app))).toMatchObject({ pulled: 2, created: 0, updated: 2 })
    expect((await mirrored(app)).map((issue) => issue.source_frame)).toEqual(['ENG-1', 'ENG-2', 'ENG-3'])
    expect((await ok(trackerCall('GET', 'tracker-issue', app, { query: { id } }))).link.state).toBe('In Progress')
    expect(await trackerCall('POST', 'tracker-issue', app, { body: { id: 999999 } })).toMatchObject({ status: 404, body: { error: 'Issue not found.' } })
    expect(await trackerCall('POST', 'tracker-issue', app, { body: { id: 'x' } })).toMatchObject({ status: 422, body: { error: 'A valid issue id is required.' } })
  })

  it('verifies webhook signatures over the raw body, then syncs', async () => {
    const body = JSON.stringify({ action: 'update', type: 'Issue', data: { id: 'x' } })
    const sign = (secret: string, text: string) => createHmac('sha256', secret).update(text).digest('hex')
    const hook = (signature: string | null, options: ApiCall = {}) =>
      trackerCall('POST', 'tracker-webhook', app, { body, headers: { 'content-type': 'application/json', ...(signature === null ? {} : { 'Linear-Signature': signature }), origin: 'https://linear.app' }, ...options, env: { SERVICE_TOKEN: 'locked-down', ...options.env } })
    expect(await hook(sign('whsec-2', body))).toMatchObject({ status: 400, body: { error: 'No Linear webhook secret is configured.' } })
    await ok(trackerCall('PUT', 'tracker-settings', app, { body: { webhook_secret: 'whsec-2' } }))
    expect(await hook(null)).toMatchObject({ status: 401, body: { error: 'Invalid Linear webhook signature.' } })
    expect(await hook(sign('wrong', body))).toMatchObject({ status: 401, body: { error: 'Invalid Linear webhook signature.' } })
    expect(await hook(sign('whsec-2', body + ' '))).toMatchObject({ status: 401, body: { error: 'Invalid Linear webhook signature.' } })
    await control(`${key}/issues`, { issues: [{ identifier: 'ENG-3', title: 'Typo on the pricing page' }] })
    const good = await ok(hook(sign('whsec-2', body)))
    expect(good).toMatchObject({ ok: true, synced: { ok: true, pulled: 1, updated: 1, phase: 'incremental' } })
    expect((await mirrored(app))[2].title).toBe('Typo on the pricing page')
    expect(await ok(hook(sign('env-secret', body), { env: { TRACKER_WEBHOOK_SECRET: 'env-secret' } }))).toMatchObject({ ok: true })
    await ok(trackerCall('PUT', 'tracker-settings', app, { body: { enabled: false } }))
    expect(await hook(sign('whsec-2', body))).toMatchObject({ status: 404, body: { error: 'The issue-tracker integration is not enabled.' } })
    await ok(trackerCall('PUT', 'tracker-settings', app, { body: { enabled: true } }))
  })

  it('answers 429 with Retry-After when Linear rate-limits, and writes nothing', async () => {
    await control(`${key}/issues`, { issues: [{ identifier: 'ENG-1', title: 'Changed while limited' }] })
    await control(`${key}/rate-limit`, { remaining: 0 })
    const limited = await trackerCall('POST', 'tracker-sync', app)
    expect(limited).toMatchObject({ status: 429, body: { error: 'Linear rate limit reached. Try again shortly.' } })
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(3000)
    expect((await mirrored(app))[0].title).toBe('Checkout fails on retry')
    await control(`${key}/rate-limit`, { remaining: 100 })
    expect(await ok(trackerCall('POST', 'tracker-sync', app))).toMatchObject({ pulled: 1, updated: 1 })
    expect((await mirrored(app))[0].title).toBe('Changed while limited')
  })
})
