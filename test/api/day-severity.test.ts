import { describe, expect, it } from 'vitest'
import { createTestApp, get, post } from './helpers/api.ts'
import { createIssue } from './helpers/fixtures.ts'
import { appDatabase, laravelLines, ok, upload } from './ingestion-helpers.ts'

/**
 * `group_days.severity` (migration 0017, issue 18) copies the issue's severity onto its day rows, so that
 * `severity=` / `min_severity=` with `date=` count one index range (worker/issues/issue-total.ts). The copy must
 * follow every path that writes day rows — digest, merge (into an issue of another severity), occurrence
 * deletion (which rebuilds them from occurrences a merge moved without rewriting their severity) — and the
 * trigger following a severity change; the totals must stay those of the general form.
 */
describe('day rows carry their issue severity (migration 0017)', { timeout: 120_000 }, () => {
  /** Day rows whose severity is not their issue's: none, ever. */
  const expectCopiesExact = async (app: string) => {
    const { t, rows } = await appDatabase(app)
    expect(await rows(`SELECT gd.group_id, gd.day, gd.severity, g.severity AS issue_severity FROM ${t.groupDays} gd JOIN ${t.groups} g ON g.id = gd.group_id WHERE gd.severity <> g.severity`)).toEqual([])
  }
  /** The list's ids and total for `query`, and the general form's count (every issue tested on its own). */
  const list = async (app: string, query: Record<string, string>) => {
    const page = await ok(get('issues', { query: { app, ...query } }))
    return { ids: page.data.map((issue: { id: number }) => issue.id).sort((a: number, b: number) => a - b), total: page.meta.total }
  }

  it('digest, merge, deleting logs and a severity change keep the copies; severity and date totals stay exact', async () => {
    const app = await createTestApp('day-severity')
    await upload(app, 'shop/a.log', laravelLines(2, { day: '2026-03-01' }) + laravelLines(2, { day: '2026-03-01', level: 'WARNING', from: 50 }))
    await expectCopiesExact(app)
    const issues = (await ok(get('issues', { query: { app } }))).data as { id: number; severity: string }[]
    const error = issues.find((issue) => issue.severity === 'ERROR')!.id
    const warning = issues.find((issue) => issue.severity === 'WARNING')!.id
    expect(await list(app, { date: '2026-03-01', severity: 'ERROR' })).toEqual({ ids: [error], total: 1 })
    expect(await list(app, { date: '2026-03-01', min_severity: 'WARNING' })).toEqual({ ids: [error, warning].sort((a, b) => a - b), total: 2 })
    expect(await list(app, { date: '2026-03-01', severity: 'WARNING', min_severity: 'ERROR' })).toEqual({ ids: [], total: 0 })

    // Merged into a CRITICAL manual issue created that day: the ERROR issue's day rows become the target's.
    const target = (await createIssue(app, { title: 'Day severity target', severity: 'CRITICAL' })).id as number
    await ok(post('merge-issues', { target, ids: [error] }, { query: { app } }))
    await expectCopiesExact(app)
    expect(await list(app, { date: '2026-03-01', severity: 'CRITICAL' })).toEqual({ ids: [target], total: 1 })
    expect(await list(app, { date: '2026-03-01', severity: 'ERROR' })).toEqual({ ids: [], total: 0 })
    expect(await list(app, { date: '2026-03-01', min_severity: 'ERROR' })).toEqual({ ids: [target], total: 1 })

    // The merged fingerprint's later events land on the target; deleting that day rebuilds the day rows from
    // the occurrences left, which the merge moved with their own severity (ERROR) still on them.
    await upload(app, 'shop/b.log', laravelLines(2, { day: '2026-03-02' }))
    await expectCopiesExact(app)
    expect(await list(app, { date: '2026-03-02', severity: 'CRITICAL' })).toEqual({ ids: [target], total: 1 })
    await ok(post('delete-logs', { date: '2026-03-02', confirmation: 'DELETE LOGS' }, { query: { app } }))
    await expectCopiesExact(app)
    expect(await list(app, { date: '2026-03-01', severity: 'CRITICAL' })).toEqual({ ids: [target], total: 1 })
    expect(await list(app, { date: '2026-03-02', severity: 'CRITICAL' })).toEqual({ ids: [], total: 0 })

    // A severity change (the tracker mirror's upsert is the one write that makes one) moves the day rows along.
    const { t, db } = await appDatabase(app)
    await db.execute({ sql: `UPDATE ${t.groups} SET severity = 'ALERT' WHERE id = ?`, args: [target] })
    await expectCopiesExact(app)
    expect(await list(app, { date: '2026-03-01', severity: 'ALERT' })).toEqual({ ids: [target], total: 1 })
    expect(await list(app, { date: '2026-03-01', severity: 'CRITICAL' })).toEqual({ ids: [], total: 0 })
  })

  it('the migration copies the severity onto day rows written before it, and running it again changes nothing', async () => {
    const app = await createTestApp('day-severity-backfill')
    await upload(app, 'shop/a.log', laravelLines(3, { day: '2026-03-01' }) + laravelLines(1, { day: '2026-03-02', level: 'WARNING', from: 70 }))
    const { t, db, rows } = await appDatabase(app)
    const copies = () => rows(`SELECT gd.day, gd.severity FROM ${t.groupDays} gd ORDER BY gd.day, gd.severity`)
    expect(await copies()).toEqual([{ day: '2026-03-01', severity: 'ERROR' }, { day: '2026-03-02', severity: 'WARNING' }])
    // As before the column existed (its default), then the step's statements again. SQLite's ADD COLUMN cannot
    // run twice (the runner's appliedProbe covers a racing migrator there); PostgreSQL and MySQL skip theirs.
    await db.execute({ sql: `UPDATE ${t.groupDays} SET severity = ''` })
    const { MIGRATIONS } = await import('../../drivers/migrations/index.ts')
    const step = MIGRATIONS[db.dialect.name].application.find((migration) => migration.version === 17)!
    const prefix = (await get('applications')).body.data.find((candidate: { id: string }) => candidate.id === app).table_prefix
    const statements = step.statements(prefix).slice(db.dialect.name === 'sqlite' ? 1 : 0)
    await db.batch(statements.map((sql) => ({ sql })))
    expect(await copies()).toEqual([{ day: '2026-03-01', severity: 'ERROR' }, { day: '2026-03-02', severity: 'WARNING' }])
    await db.batch(statements.map((sql) => ({ sql })))
    expect(await copies()).toEqual([{ day: '2026-03-01', severity: 'ERROR' }, { day: '2026-03-02', severity: 'WARNING' }])
    expect(await list(app, { date: '2026-03-02', min_severity: 'WARNING' })).toMatchObject({ total: 1 })
  })
})
