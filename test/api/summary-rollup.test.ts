import { createExecutionContext, env as baseEnv, waitOnExecutionContext } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import worker from '../../worker/index.ts'
import type { CloudflareEnv as Env } from '../../worker/platform/cloudflare/cloudflare-env.ts'
import { ORIGIN, call, createTestApp, get, post } from './helpers/api.ts'
import { createIssue } from './helpers/fixtures.ts'
import { allowSeverities, appDatabase, laravelLines, ok, upload } from './ingestion-helpers.ts'
import { expectIssueRollupExact } from './summary-rollup-helpers.ts'

/**
 * `issue_rollup` (migration 0016, issue 18) is kept by triggers on the issues table, so every write path must
 * leave it equal to a GROUP BY of the issues: each test below drives one family of writes through the API and
 * compares after each step, on every driver. The summary itself reads the rollup (summary.test.ts).
 */
const SECRET = { SERVICE_SECRET: 'test-secret-for-summary-rollup' }

describe('issue_rollup stays equal to the issues after every write (migration 0016)', { timeout: 120_000 }, () => {
  it('file imports: new issues, count-only upserts of known ones, modules, fixed issues reoccurring', async () => {
    const app = await createTestApp('rollup-import')
    await upload(app, 'billing/laravel.log', laravelLines(3))
    expect(await expectIssueRollupExact(app)).toEqual([{ module: 'billing', severity: 'ERROR', status: 'open', log_type: 'laravel', issues: 1, occurrences: 3 }])
    // The same issue again (an UPDATE of count alone), a warning and an issue without a module.
    await upload(app, 'billing/again.log', laravelLines(2, { day: '2026-02-02' }) + laravelLines(1, { level: 'WARNING', from: 40 }))
    await upload(app, 'laravel.log', laravelLines(4, { day: '2026-02-03' }))
    expect(await expectIssueRollupExact(app)).toEqual([
      { module: null, severity: 'ERROR', status: 'open', log_type: 'laravel', issues: 1, occurrences: 4 },
      { module: 'billing', severity: 'ERROR', status: 'open', log_type: 'laravel', issues: 1, occurrences: 5 },
      { module: 'billing', severity: 'WARNING', status: 'open', log_type: 'laravel', issues: 1, occurrences: 1 },
    ])
    // A fixed issue that occurs again moves to `reoccurred` in the import's own UPDATE (key and count at once).
    const issues = (await ok(get('issues', { query: { app, module: 'billing', severity: 'ERROR' } }))).data
    await ok(post('issue-status', { id: issues[0].id, status: 'fixed' }, { query: { app } }))
    await expectIssueRollupExact(app)
    await upload(app, 'billing/third.log', laravelLines(2, { day: '2026-02-04' }))
    const after = await expectIssueRollupExact(app)
    expect(after).toContainEqual({ module: 'billing', severity: 'ERROR', status: 'reoccurred', log_type: 'laravel', issues: 1, occurrences: 7 })
    expect(after.some((row) => row.status === 'fixed')).toBe(false)
    // The summary reads the same figures: its per-module count and totals.
    const summary = (await ok(get('summary', { query: { app } })))
    expect(summary.total).toMatchObject({ groups_count: 3, occurrences: 12 })
    expect(summary.modules.map((m: { slug: string; issue_count: number }) => [m.slug, m.issue_count])).toEqual([['billing', 2]])
    // So does the modules list (its per-module count is the rollup's too), and it equals the module's issue list.
    const modules = (await ok(get('modules', { query: { app } }))).data
    expect(modules.map((m: { slug: string; issue_count: number }) => [m.slug, m.issue_count])).toEqual([['billing', 2]])
    expect((await ok(get('issues', { query: { app, module: 'billing' } }))).meta.total).toBe(2)
  })

  it('HTTP and Sentry ingest, then merging issues', async () => {
    const app = await createTestApp('rollup-ingest')
    const q = { query: { app }, env: SECRET }
    expect((await post('plugins', { id: 'http_ingest', enabled: true }, q)).status).toBe(200)
    const settings = (await get('ingest-settings', q)).body
    const ingest = (events: unknown[]) => call('POST', 'ingest', { ...q, body: { events }, headers: { 'X-Loupe-Ingest-Key': settings.key } })
    expect((await ingest([{ message: 'Rollup alpha failure' }, { message: 'Rollup beta failure' }, { message: 'Rollup alpha failure' }])).status).toBe(202)
    expect((await ingest([{ message: 'Rollup beta failure', level: 'warning' }])).status).toBe(202)
    await expectIssueRollupExact(app)
    const project = new URL(settings.dsn).pathname.slice(1)
    for (const message of ['Rollup sentry failure', 'Rollup sentry failure', 'Rollup other sentry failure']) {
      const ctx = createExecutionContext()
      const request = new Request(`${ORIGIN}/api/${project}/store/?sentry_key=${settings.key}`, { method: 'POST', body: JSON.stringify({ message, level: 'error', logger: 'jobs' }) })
      const response = await worker.fetch(request as Request<unknown, IncomingRequestCfProperties>, { ...baseEnv, ...SECRET } as Env, ctx)
      await waitOnExecutionContext(ctx)
      expect(response.status).toBe(200)
    }
    const before = await expectIssueRollupExact(app)
    expect(before.reduce((sum, row) => sum + row.occurrences, 0)).toBe(7)
    // Merging deletes the merged issues and adds their counts to the target.
    const list = (await ok(get('issues', { query: { app, limit: 50 }, env: SECRET }))).data as { id: number; title: string; severity: string }[]
    const target = list.find((issue) => issue.title === 'Rollup alpha failure')!
    const merged = list.filter((issue) => issue.title !== 'Rollup alpha failure').map((issue) => issue.id)
    expect(merged.length).toBeGreaterThanOrEqual(3)
    expect((await post('merge-issues', { target: target.id, ids: merged }, q)).status).toBe(200)
    const after = await expectIssueRollupExact(app)
    expect(after.map((row) => [row.severity, row.issues, row.occurrences])).toEqual([[target.severity, 1, 7]])
  })

  it('manual issues, single and bulk status changes', async () => {
    const app = await createTestApp('rollup-triage')
    const one = await createIssue(app, { title: 'Rollup manual one' })
    const two = await createIssue(app, { title: 'Rollup manual two', kind: 'task' })
    await ok(post('modules', { name: 'Payments' }, { query: { app } }), 201)
    const modules = (await ok(get('modules', { query: { app } }))).data
    await createIssue(app, { title: 'Rollup manual three', module_id: modules[0].id })
    await expectIssueRollupExact(app)
    await ok(post('issue-status', { id: one.id, status: 'in_progress' }, { query: { app } }))
    await expectIssueRollupExact(app)
    await ok(post('bulk-issues', { ids: [one.id, two.id], action: 'status', status: 'wont_fix' }, { query: { app } }))
    const rollup = await expectIssueRollupExact(app)
    expect(rollup.filter((row) => row.status === 'wont_fix').reduce((sum, row) => sum + row.issues, 0)).toBe(2)
    expect(rollup.find((row) => row.module === 'payments')).toMatchObject({ status: 'open', issues: 1, occurrences: 0 })
    const listed = (await ok(get('modules', { query: { app } }))).data
    expect(listed.map((m: { slug: string; issue_count: number }) => [m.slug, m.issue_count])).toEqual([['payments', 1]])
  })

  it('deleting logs by day and by file, retention and reindex (count decrements, emptied issues deleted)', async () => {
    const app = await createTestApp('rollup-maintenance')
    const twoDays = laravelLines(3, { day: '2026-02-01' }) + '[2026-02-01 12:00:00] production.ERROR: Only on the first day\n' + laravelLines(2, { day: '2026-02-02', from: 100 })
    await upload(app, 'shop/a.log', twoDays)
    await upload(app, 'shop/b.log', laravelLines(2, { day: '2026-02-03', from: 500 }))
    await createIssue(app, { title: 'Rollup manual kept' })
    await expectIssueRollupExact(app)
    await ok(post('delete-logs', { date: '2026-02-01', confirmation: 'DELETE LOGS' }, { query: { app } }))
    expect((await expectIssueRollupExact(app)).find((row) => row.module === 'shop')).toMatchObject({ issues: 1, occurrences: 4 })
    const sources = (await ok(get('sources', { query: { app } }))).data
    const b = sources.find((file: { channel: string }) => file.channel === 'b.log')
    await ok(post('delete-logs', { source_id: b.id, confirmation: 'DELETE LOGS' }, { query: { app } }))
    expect((await expectIssueRollupExact(app)).find((row) => row.module === 'shop')).toMatchObject({ issues: 1, occurrences: 2 })
    // Retention keeps the newest 2 occurrences per issue.
    const keepTwo = { SERVICE_CONFIG: JSON.stringify({ retention: { max_occurrences_per_group: 2 } }) }
    await ok(upload(app, 'shop/c.log', laravelLines(5, { day: '2026-02-05', from: 900 }), { env: keepTwo }))
    expect((await expectIssueRollupExact(app)).find((row) => row.module === 'shop')).toMatchObject({ issues: 1, occurrences: 2 })
    // Reindex rebuilds the imported issues from the archived files (every severity admitted now).
    await upload(app, 'other/x.log', laravelLines(2, { level: 'INFO', from: 7 }))
    await allowSeverities(app, ['ERROR', 'WARNING', 'INFO'])
    await ok(post('reindex', undefined, { query: { app } }))
    const reindexed = await expectIssueRollupExact(app)
    expect(reindexed.find((row) => row.module === 'other')).toMatchObject({ severity: 'INFO', issues: 1, occurrences: 2 })
    expect(reindexed.find((row) => row.module === null)).toMatchObject({ issues: 1, occurrences: 0 })
  })

  it('counts the issues that existed before the migration (the backfill recounts, and running it again changes nothing)', async () => {
    const app = await createTestApp('rollup-backfill')
    await upload(app, 'billing/laravel.log', laravelLines(3) + laravelLines(2, { level: 'WARNING', from: 30 }))
    const db = await appDatabase(app)
    const exact = await expectIssueRollupExact(app)
    // Wrong on purpose, then the migration's statements again (as a racing or repeated migrator runs them).
    await db.db.execute({ sql: `UPDATE ${db.t.issueRollup} SET issues = issues + 5, occurrences = 0` })
    const { MIGRATIONS } = await import('../../drivers/migrations/index.ts')
    const step = MIGRATIONS[db.db.dialect.name].application.find((migration) => migration.version === 16)!
    const prefix = (await get('applications')).body.data.find((candidate: { id: string }) => candidate.id === app).table_prefix
    await db.db.batch(step.statements(prefix).map((sql) => ({ sql })))
    expect(await expectIssueRollupExact(app)).toEqual(exact)
    await upload(app, 'billing/more.log', laravelLines(1, { day: '2026-02-09' }))
    await expectIssueRollupExact(app)
  })
})
