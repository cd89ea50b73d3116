import { env } from 'cloudflare:test'
import { createHmac } from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import { call, createTestApp, type ApiCall, type ApiResponse } from './helpers/api.ts'

/**
 * The tracker plugin's second tracker, GitHub Issues (issue 16), against tools/servers/github-server.ts (GitHub's
 * REST API run locally): sync paged by `Link` headers, state mapping and write-back, push, the
 * `X-Hub-Signature-256` webhook, and GitHub's primary and secondary rate limits.
 */
const GITHUB = (env as unknown as { GITHUB_SERVER_URL: string }).GITHUB_SERVER_URL
const CONFIG = { tracker: { github_url: GITHUB, allow_local_targets: true, sync_page_size: 2, sync_pages: 2 } }
const ENV = { SERVICE_SECRET: 'tracker-github-secret', SERVICE_CONFIG: JSON.stringify(CONFIG) }

function trackerCall(method: string, api: string, app: string, options: ApiCall = {}): Promise<ApiResponse> {
  return call(method, api, { ...options, query: { app, ...options.query }, env: { ...ENV, ...options.env } })
}

async function ok(response: Promise<ApiResponse>, status = 200): Promise<any> {
  const resolved = await response
  expect(resolved.status, resolved.text).toBe(status)
  return resolved.body
}

async function control(path: string, body?: unknown): Promise<any> {
  const response = await fetch(`${GITHUB}/control/${path}`, body === undefined ? {} : { method: 'POST', body: JSON.stringify(body) })
  return response.json()
}

const LOUPE = { name: 'loupe', color: '0e8a16' }
const BUG = { name: 'bug', color: 'd73a4a' }

async function mirrored(app: string): Promise<any[]> {
  const list = await ok(trackerCall('GET', 'issues', app, { query: { limit: 200, origin: 'github' } }))
  return list.data.sort((a: any, b: any) => a.source_frame.localeCompare(b.source_frame))
}

/** Sync calls until the pass is done (assignees are matched here, so a page may hold none); totals of them all. */
async function syncAll(app: string): Promise<{ calls: number; pulled: number; created: number; updated: number; backfill_complete: boolean }> {
  const totals = { calls: 0, pulled: 0, created: 0, updated: 0, backfill_complete: false }
  for (let more = true; more; ) {
    const result = await ok(trackerCall('POST', 'tracker-sync', app))
    totals.calls++
    totals.pulled += result.pulled
    totals.created += result.created
    totals.updated += result.updated
    totals.backfill_complete = result.backfill_complete
    more = result.has_more
  }
  return totals
}

async function remote(token: string, number: number): Promise<any> {
  return (await control(token)).issues.find((issue: { number: number }) => issue.number === number)
}

describe('tracker: GitHub Issues through the same interface (issue 16)', () => {
  let app: string
  let token: string
  beforeAll(async () => {
    app = await createTestApp('tracker-github')
    ;({ token } = await control('tokens', {
      repo: 'acme/shop',
      users: ['hubot'],
      issues: [
        { title: 'Checkout 500', body: 'Stack here', labels: [LOUPE, BUG], assignees: ['hubot'] },
        { title: 'Slow search', labels: [LOUPE], state: 'closed', state_reason: 'completed' },
        { title: 'Wontfix typo', labels: [LOUPE], state: 'closed', state_reason: 'not_planned' },
        { title: 'Back again', labels: [LOUPE], state_reason: 'reopened' },
        { title: 'A pull request', labels: [LOUPE], pull_request: true },
        { title: 'Unlabelled', labels: [] },
      ],
    }))
  })

  it('tests the token and refuses a bad one', async () => {
    await ok(trackerCall('PUT', 'tracker-settings', app, { body: { provider: 'github', api_key: token } }))
    expect(await ok(trackerCall('POST', 'tracker-test', app))).toEqual({ ok: true, provider: 'github', viewer: { id: expect.any(String), name: 'The Octocat', email: 'octocat@example.com' } })
    expect(await trackerCall('POST', 'tracker-test', app, { env: { TRACKER_API_KEY: 'ghp_wrong' } })).toMatchObject({ status: 400, body: { error: 'GitHub rejected the token (HTTP 401).' } })
    expect(await trackerCall('PUT', 'tracker-settings', app, { body: { repository: 'not a repo' } })).toMatchObject({ status: 422, body: { error: 'repository must be a GitHub repository as owner/name, or empty.' } })
  })

  it('needs a repository, then syncs page by page through Link headers, skipping pull requests', async () => {
    await ok(trackerCall('PUT', 'tracker-settings', app, { body: { enabled: true, labels: ['loupe'] } }))
    expect(await trackerCall('POST', 'tracker-sync', app)).toMatchObject({ status: 400, body: { error: 'Set the GitHub repository (owner/name) before syncing.' } })
    await ok(trackerCall('PUT', 'tracker-settings', app, { body: { repository: 'acme/shop' } }))
    // Five labelled items (four issues, one pull request), two per page, two pages per call.
    expect(await ok(trackerCall('POST', 'tracker-sync', app))).toMatchObject({ provider: 'github', pulled: 4, created: 4, tags_created: 2, phase: 'backfill', has_more: true, backfill_complete: false })
    expect(await ok(trackerCall('POST', 'tracker-sync', app))).toMatchObject({ pulled: 0, created: 0, phase: 'backfill', has_more: false, backfill_complete: true })
    const issues = await mirrored(app)
    expect(issues.map((issue) => [issue.source_frame, issue.title, issue.severity, issue.status, issue.channel, issue.assignee, issue.external_url])).toEqual([
      ['#1', 'Checkout 500', 'ERROR', 'open', 'acme/shop', 'hubot', 'https://github.com/acme/shop/issues/1'],
      ['#2', 'Slow search', 'WARNING', 'fixed', 'acme/shop', null, 'https://github.com/acme/shop/issues/2'],
      ['#3', 'Wontfix typo', 'WARNING', 'wont_fix', 'acme/shop', null, 'https://github.com/acme/shop/issues/3'],
      ['#4', 'Back again', 'WARNING', 'reoccurred', 'acme/shop', null, 'https://github.com/acme/shop/issues/4'],
    ])
    const detail = await ok(trackerCall('GET', 'error', app, { query: { id: issues[0].id } }))
    expect(detail.tags.map((tag: any) => [tag.name, tag.color, tag.source]).sort()).toEqual([['bug', '#d73a4a', 'tracker'], ['loupe', '#0e8a16', 'tracker']])
    expect(detail.status_history[0].note).toBe('Imported from GitHub (#1).')
  })

  it('filters by assignee and re-syncs without touching the local status', async () => {
    await ok(trackerCall('PUT', 'tracker-settings', app, { body: { assignees: ['HUBOT'] } }))
    const [first] = await mirrored(app)
    await ok(trackerCall('POST', 'issue-status', app, { body: { id: first.id, status: 'in_progress' } }))
    await control(`${token}/issues`, { issues: [{ number: 1, title: 'Checkout 500 on retry' }] })
    // A changed filter starts a new backfill; #1, updated last, is on its last page.
    expect(await syncAll(app)).toEqual({ calls: 2, pulled: 1, created: 0, updated: 1, backfill_complete: true })
    const [refreshed] = await mirrored(app)
    expect([refreshed.title, refreshed.status]).toEqual(['Checkout 500 on retry', 'in_progress'])
  })

  it('writes back: closed as completed / not planned, reopened; no state for in progress', async () => {
    await ok(trackerCall('PUT', 'tracker-settings', app, { body: { status_writeback: true } }))
    const [first] = await mirrored(app)
    const fixed = await ok(trackerCall('POST', 'issue-status', app, { body: { id: first.id, status: 'fixed', note: 'Deployed' } }))
    expect(fixed.tracker).toEqual({ written_back: true, state: 'closed', commented: true })
    expect(await remote(token, 1)).toMatchObject({ state: 'closed', state_reason: 'completed', comments: ['Marked **Fixed**.\n\n> Deployed'] })
    expect((await ok(trackerCall('POST', 'issue-status', app, { body: { id: first.id, status: 'wont_fix' } }))).tracker).toMatchObject({ state: 'closed (not planned)' })
    expect(await remote(token, 1)).toMatchObject({ state: 'closed', state_reason: 'not_planned' })
    expect((await ok(trackerCall('POST', 'issue-status', app, { body: { id: first.id, status: 'reoccurred' } }))).tracker).toMatchObject({ written_back: true, state: 'open' })
    expect(await remote(token, 1)).toMatchObject({ state: 'open', state_reason: 'reopened' })
    expect((await ok(trackerCall('POST', 'issue-status', app, { body: { id: first.id, status: 'in_progress' } }))).tracker).toEqual({ written_back: false, reason: 'GitHub has no state for In Progress.' })
  })

  it('pushes a Loupe issue to GitHub and links it', async () => {
    const manual = await ok(trackerCall('POST', 'issues', app, { body: { title: 'Queue stalls', severity: 'ERROR' } }), 201)
    const pushed = await ok(trackerCall('POST', 'tracker-issue', app, { body: { id: manual.data.id } }))
    expect(pushed).toEqual({ id: manual.data.id, created: true, link: { provider: 'github', external_id: 'acme/shop#7', identifier: '#7', url: 'https://github.com/acme/shop/issues/7', state: 'open', via: 'push', created_at: expect.any(String) } })
    expect((await remote(token, 7)).body).toContain(`Created from Loupe issue [#${manual.data.id}](http://loupe.test/?app=${app}&issue=${manual.data.id}).`)
  })

  it('verifies X-Hub-Signature-256 and syncs', async () => {
    await ok(trackerCall('PUT', 'tracker-settings', app, { body: { webhook_secret: 'gh-secret' } }))
    const body = JSON.stringify({ action: 'edited', issue: { number: 1 } })
    const hook = (signature: string) => trackerCall('POST', 'tracker-webhook', app, { body, headers: { 'content-type': 'application/json', 'X-Hub-Signature-256': signature } })
    const hex = createHmac('sha256', 'gh-secret').update(body).digest('hex')
    expect(await hook(hex)).toMatchObject({ status: 401, body: { error: 'Invalid GitHub webhook signature.' } })
    expect(await hook(`sha256=${createHmac('sha256', 'other').update(body).digest('hex')}`)).toMatchObject({ status: 401, body: { error: 'Invalid GitHub webhook signature.' } })
    expect(await ok(hook(`sha256=${hex}`))).toMatchObject({ ok: true, synced: { provider: 'github', phase: 'incremental' } })
  })

  it('answers 429 with Retry-After on the primary (403) and secondary (429) rate limits', async () => {
    await control(`${token}/rate-limit`, { remaining: 0 })
    const primary = await trackerCall('POST', 'tracker-test', app)
    expect(primary).toMatchObject({ status: 429, body: { error: 'GitHub rate limit reached. Try again shortly.' } })
    expect(Number(primary.headers.get('retry-after'))).toBeGreaterThan(3000)
    await control(`${token}/rate-limit`, { remaining: 0, secondary: true })
    const secondary = await trackerCall('POST', 'tracker-sync', app)
    expect(secondary).toMatchObject({ status: 429, body: { error: 'GitHub rate limit reached. Try again shortly.' } })
    expect(secondary.headers.get('retry-after')).toBe('60')
    await control(`${token}/rate-limit`, { remaining: 100 })
    expect(await ok(trackerCall('POST', 'tracker-test', app))).toMatchObject({ ok: true })
  })
})
