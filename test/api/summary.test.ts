import { describe, expect, it } from 'vitest'
import { SEVERITIES } from '../../shared/constants.ts'
import { createTestApp, get, post } from './helpers/api.ts'
import { allowSeverities, appDatabase, laravelLines, ok, processIncoming, putIncoming, upload } from './ingestion-helpers.ts'
import access from '../fixtures/logs/reference/access.log?raw'
import horizon from '../fixtures/logs/reference/horizon.log?raw'
import laravel from '../fixtures/logs/reference/laravel.log?raw'
import console_ from '../fixtures/logs/reference/sync-command.log?raw'

async function summary(app: string) {
  const response = await get('summary', { query: { app } })
  expect(response.status, response.text).toBe(200)
  // One statement whatever the data (design.md §5 budget: ≤ 2), on every driver.
  expect(response.roundTrips).toBe(1)
  return response.body
}

describe('summary (reference §3.1)', { timeout: 60_000 }, () => {
  it('answers every section for an empty application', async () => {
    const app = await createTestApp('summary-empty')
    expect(await summary(app)).toEqual({
      total: { groups_count: 0, occurrences: 0, last_seen: null, last_event: null },
      severity: [],
      status: [],
      types: [],
      trend: [],
      daily_severity: [],
      files: [],
      modules: [],
      dashboard: { stale_after_hours: 24 },
    })
  })

  it('summarises the reference import: totals, severity, status and type breakdowns, trend, files', async () => {
    const app = await createTestApp('summary-reference')
    await allowSeverities(app, SEVERITIES)
    for (const [name, text] of [['laravel.log', laravel], ['horizon.log', horizon], ['access.log', access], ['sync-command.log', console_]] as const) {
      await putIncoming(app, name, text)
    }
    await ok(processIncoming(app))
    const body = await summary(app)
    expect(body.total).toEqual({ groups_count: 9, occurrences: 10, last_seen: '2026-01-01 13:01:00', last_event: '2026-01-01 13:01:00' })
    expect(body.severity).toEqual([
      { severity: 'ERROR', groups_count: 4, occurrences: 5 },
      { severity: 'WARNING', groups_count: 2, occurrences: 2 },
      { severity: 'INFO', groups_count: 2, occurrences: 2 },
      { severity: 'DEBUG', groups_count: 1, occurrences: 1 },
    ])
    expect(body.status).toEqual([{ status: 'open', groups_count: 9, occurrences: 10 }])
    expect(body.types).toEqual([
      { log_type: 'laravel', groups_count: 3, occurrences: 4 },
      { log_type: 'nginx_access', groups_count: 3, occurrences: 3 },
      { log_type: 'console', groups_count: 2, occurrences: 2 },
      { log_type: 'horizon', groups_count: 1, occurrences: 1 },
    ])
    expect(body.trend).toEqual([{ day: '2026-01-01', count: 10 }])
    expect(body.daily_severity).toEqual([
      { day: '2026-01-01', severity: 'DEBUG', count: 1 },
      { day: '2026-01-01', severity: 'ERROR', count: 5 },
      { day: '2026-01-01', severity: 'INFO', count: 2 },
      { day: '2026-01-01', severity: 'WARNING', count: 2 },
    ])
    expect(body.files).toHaveLength(4)
    expect(body.files[0]).toEqual({
      id: expect.any(Number),
      path: expect.stringMatching(new RegExp(`^processed/${app}/`)),
      size: expect.any(Number),
      imported_at: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
      log_type: expect.any(String),
      channel: expect.any(String),
      occurrence_count: expect.any(Number),
      module_id: null,
      module_name: null,
      module_slug: null,
      module_color: null,
    })
    expect(body.files.reduce((sum: number, file: { occurrence_count: number }) => sum + file.occurrence_count, 0)).toBe(10)
    expect(body.modules).toEqual([])
  })

  it('orders statuses open, in_progress, reoccurred, fixed, wont_fix', async () => {
    const app = await createTestApp('summary-status')
    for (const folder of ['a', 'b', 'c', 'd', 'e']) await upload(app, `${folder}/laravel.log`, laravelLines(1))
    const issues = (await ok(get('issues', { query: { app } }))).data
    const statuses = ['wont_fix', 'fixed', 'reoccurred', 'in_progress']
    for (const [i, status] of statuses.entries()) await ok(post('issue-status', { id: issues[i].id, status }, { query: { app } }))
    expect((await summary(app)).status.map((entry: { status: string }) => entry.status)).toEqual(['open', 'in_progress', 'reoccurred', 'fixed', 'wont_fix'])
  })

  it('charts every day in the trend, and daily severities for the 30 days ending at the newest day', async () => {
    const app = await createTestApp('summary-window')
    const text =
      laravelLines(1, { day: '2026-01-01' }) +
      laravelLines(2, { day: '2026-02-09', from: 10 }) +
      laravelLines(3, { day: '2026-02-10', from: 20, level: 'WARNING' }) +
      laravelLines(4, { day: '2026-03-11', from: 30 })
    await upload(app, 'x/laravel.log', text)
    const body = await summary(app)
    expect(body.trend).toEqual([
      { day: '2026-01-01', count: 1 },
      { day: '2026-02-09', count: 2 },
      { day: '2026-02-10', count: 3 },
      { day: '2026-03-11', count: 4 },
    ])
    expect(body.daily_severity).toEqual([
      { day: '2026-02-10', severity: 'WARNING', count: 3 },
      { day: '2026-03-11', severity: 'ERROR', count: 4 },
    ])
  })

  it('lists the 12 most recently imported files newest first, with their module', async () => {
    const app = await createTestApp('summary-files')
    for (let i = 0; i < 13; i++) await upload(app, `billing/file-${String(i).padStart(2, '0')}.log`, laravelLines(1, { from: i }))
    const db = await appDatabase(app)
    const ids = await db.rows<{ id: number; path: string }>(`SELECT id, path FROM ${db.t.sourceFiles} ORDER BY path`)
    for (const [i, row] of ids.entries()) {
      await db.db.execute({ sql: `UPDATE ${db.t.sourceFiles} SET imported_at = ? WHERE id = ?`, args: [`2026-05-01 00:00:${String(i).padStart(2, '0')}`, row.id] })
    }
    const files = (await summary(app)).files
    expect(files.map((file: { channel: string }) => file.channel)).toEqual(
      Array.from({ length: 12 }, (_, i) => `file-${String(12 - i).padStart(2, '0')}.log`),
    )
    expect(files[0]).toMatchObject({ module_name: 'Billing', module_slug: 'billing', module_color: '#6366f1', occurrence_count: 1 })
  })

  it('lists modules by name, case-insensitively, with their issue counts', async () => {
    const app = await createTestApp('summary-modules')
    for (const name of ['beta', 'Alpha', 'gamma']) await ok(post('modules', { name }, { query: { app } }), 201)
    await upload(app, 'alpha/laravel.log', laravelLines(3))
    const modules = (await summary(app)).modules
    expect(modules.map((m: { name: string; issue_count: number }) => [m.name, m.issue_count])).toEqual([
      ['Alpha', 1],
      ['beta', 0],
      ['gamma', 0],
    ])
    expect(modules[0]).toEqual({ id: expect.any(Number), name: 'Alpha', slug: 'alpha', color: '#6366f1', created_at: expect.any(String), issue_count: 1 })
  })

  it('carries config dashboard.stale_after_hours for the freshness warning (issue 17), and warns on a bad value', async () => {
    const app = await createTestApp('summary-freshness')
    const configured = await get('summary', { query: { app }, env: { SERVICE_CONFIG: '{"dashboard":{"stale_after_hours":2}}' } })
    expect(configured.status, configured.text).toBe(200)
    expect(configured.roundTrips).toBe(1)
    expect(configured.body.dashboard).toEqual({ stale_after_hours: 2 })
    const bad = { SERVICE_CONFIG: '{"dashboard.stale_after_hours":0}' }
    const fallback = await get('summary', { query: { app }, env: bad })
    expect(fallback.body.dashboard).toEqual({ stale_after_hours: 24 })
    const health = await get('health', { env: bad })
    expect(health.body.config_warnings).toContain('SERVICE_CONFIG dashboard.stale_after_hours must be an integer from 1 to 8760; using 24.')
  })

  it('tells the newest event apart from the newest issue: a manual issue moves last_seen, not last_event (issue 17)', async () => {
    const app = await createTestApp('summary-last-event')
    await upload(app, 'x/laravel.log', laravelLines(2, { day: '2026-02-03' }))
    const imported = (await summary(app)).total
    expect(imported.last_event).toMatch(/^2026-02-03 /)
    expect(imported.last_seen).toBe(imported.last_event)
    expect((await post('issues', { title: 'Written by hand', kind: 'task' }, { query: { app } })).status).toBe(201)
    const after = (await summary(app)).total
    expect(after.last_event).toBe(imported.last_event)
    expect(after.last_seen > imported.last_event).toBe(true)
    expect(after.groups_count).toBe(imported.groups_count + 1)
  })
})
