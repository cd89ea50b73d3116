import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Statement } from '../../../drivers/driver.ts'
import { MIGRATIONS } from '../../../drivers/migrations/index.ts'
import { READ_INDEXES, REPLACED_INDEXES } from '../../../drivers/migrations/sqlite/0012-read-indexes.ts'
import { wrapDriver } from '../../../drivers/wrap-driver.ts'
import type { IssueFilters, IssueSort } from '../../../worker/issues/issue-search.ts'
import { searchIssues } from '../../../worker/issues/list-issues.ts'
import { getSummary } from '../../../worker/summary/summary.ts'
import { TARGETS } from '../../drivers/driver-targets.ts'
import { migratedScope, type MigratedScope } from '../digest/persist/migrated-scope.ts'

/** The test corpus: issue `i` (1…40) and what each filter should make of it. */
const ISSUES = Array.from({ length: 40 }, (_, index) => {
  const i = index + 1
  return {
    i,
    fingerprint: `fp-${i}`,
    severity: i % 4 === 0 ? 'WARNING' : 'ERROR',
    status: i % 5 === 0 ? 'fixed' : 'open',
    logType: i % 2 ? 'laravel' : 'php',
    // Module "billing": slug of A, name of B — the slug wins (docs/deviations.md).
    module: i % 3 === 0 ? 'A' : i % 3 === 1 ? 'B' : null,
    count: (i * 7) % 11,
    lastSeen: `2026-10-${String(1 + (i % 28)).padStart(2, '0')} 10:00:00`,
    origin: i === 40 || i === 39 ? 'manual' : 'ingested',
    createdAt: i === 40 ? '2026-10-15 08:00:00' : '2026-09-01 00:00:00',
    onDay: i % 2 === 0 && i < 39,
    tagged: i % 3 === 0,
    file: i % 2 ? 'laravel' : 'other',
  }
})
type Issue = (typeof ISSUES)[number]

// The orders with a (filter, sort key) index of 0012; `priority` has its own index (migration 0013).
const ORDERS: Record<Exclude<IssueSort, 'priority'>, (a: Issue, b: Issue) => number> = {
  newest: (a, b) => cmp(b.lastSeen, a.lastSeen) || b.count - a.count || b.i - a.i,
  occurrences: (a, b) => b.count - a.count || cmp(b.lastSeen, a.lastSeen) || b.i - a.i,
  oldest: (a, b) => cmp('2026-09-01', '2026-09-01') || b.count - a.count || a.i - b.i,
}

const FILTERS: readonly { name: string; filters: IssueFilters; keep: (issue: Issue) => boolean }[] = [
  { name: 'severity', filters: { severity: 'WARNING' }, keep: (x) => x.severity === 'WARNING' },
  { name: 'status', filters: { status: 'fixed' }, keep: (x) => x.status === 'fixed' },
  { name: 'log_type', filters: { logType: 'php' }, keep: (x) => x.logType === 'php' },
  { name: 'module', filters: { module: 'billing' }, keep: (x) => x.module === 'A' },
  { name: 'module by name', filters: { module: 'Payments' }, keep: (x) => x.module === 'A' },
  { name: 'tag', filters: { tag: 'Checkout' }, keep: (x) => x.tagged },
  { name: 'source', filters: { source: 'laravel.log' }, keep: (x) => x.file === 'laravel' },
  { name: 'date', filters: { date: '2026-10-15' }, keep: (x) => x.onDay || (x.origin !== 'ingested' && x.createdAt.startsWith('2026-10-15')) },
  { name: 'severity and date', filters: { severity: 'ERROR', date: '2026-10-15' }, keep: (x) => x.severity === 'ERROR' && (x.onDay || (x.origin !== 'ingested' && x.createdAt.startsWith('2026-10-15'))) },
  { name: 'severity + date + tag', filters: { severity: 'ERROR', date: '2026-10-15', tag: 'checkout' }, keep: (x) => x.severity === 'ERROR' && x.onDay && x.tagged },
]

describe.each(TARGETS)('issue filters over migration 0012 on %s', { timeout: 60_000 }, (target) => {
  let m: MigratedScope
  const ids = new Map<number, number>()
  /** The statements of one searchIssues call, its round trips and its page. */
  const search = async (filters: IssueFilters, sort: IssueSort) => {
    const statements: Statement[] = []
    const db = wrapDriver(m.scope.db, (call, proceed) => {
      statements.push(...call.statements)
      return proceed()
    })
    const before = m.opened.roundTrips()
    const page = await searchIssues({ ...m.scope, db }, { page: 1, limit: 50, sort, includeStack: false, includeContext: false, skipVendor: false, filters }, new Date('2026-10-20T00:00:00Z'))
    return { page, statements, roundTrips: m.opened.roundTrips() - before }
  }

  beforeAll(async () => {
    m = await migratedScope(target, 'plans')
    const { t } = m.scope
    const now = '2026-09-01 00:00:00'
    await m.scope.db.batch([
      { sql: `INSERT INTO ${t.modules} (name, name_key, slug, created_at) VALUES ('Payments', 'payments', 'billing', ?), ('Billing', 'billing', 'payments-x', ?)`, args: [now, now] },
      { sql: `INSERT INTO ${t.tags} (name, name_key, created_at) VALUES ('Checkout', 'checkout', ?)`, args: [now] },
      { sql: `INSERT INTO ${t.sourceFiles} (path, size, created_at, channel) VALUES ('processed/x/laravel.log', 1, ?, 'laravel.log'), ('processed/x/other.log', 1, ?, 'other.log')`, args: [now, now] },
      ...ISSUES.map((x) => ({
        sql: `INSERT INTO ${t.groups} (fingerprint, severity, title, count, first_seen, last_seen, created_at, status, log_type, origin, module_id)
              VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, (SELECT id FROM ${t.modules} WHERE name = ?))`,
        args: [x.fingerprint, x.severity, `Issue ${x.i}`, x.count, '2026-09-01 00:00:00', x.lastSeen, x.createdAt, x.status, x.logType, x.origin, x.module === 'A' ? 'Payments' : x.module === 'B' ? 'Billing' : null],
      })),
    ])
    for (const row of await m.rows<{ id: number; fingerprint: string }>(`SELECT id, fingerprint FROM ${t.groups}`)) ids.set(Number(row.fingerprint.slice(3)), Number(row.id))
    const issue = (x: Issue) => ids.get(x.i)!
    await m.scope.db.batch([
      ...ISSUES.filter((x) => x.onDay).map((x) => ({ sql: `INSERT INTO ${t.groupDays} (group_id, day, count) VALUES (?, '2026-10-15', 1)`, args: [issue(x)] })),
      ...ISSUES.map((x) => ({ sql: `INSERT INTO ${t.groupDays} (group_id, day, count) VALUES (?, '2026-10-16', 1)`, args: [issue(x)] })),
      ...ISSUES.filter((x) => x.tagged).map((x) => ({
        sql: `INSERT INTO ${t.groupTags} (group_id, tag_id, created_at) SELECT ?, id, ? FROM ${t.tags}`,
        args: [issue(x), now],
      })),
      ...ISSUES.map((x) => ({
        sql: `INSERT INTO ${t.groupSources} (group_id, source_file_id) SELECT ?, id FROM ${t.sourceFiles} WHERE channel = ?`,
        args: [issue(x), `${x.file}.log`],
      })),
    ])
  })
  afterAll(() => m?.close())

  for (const { name, filters, keep } of FILTERS) {
    for (const sort of ['newest', 'occurrences'] as const) {
      it(`${name}, ${sort}: the matching issues in list order and their total, in one read batch`, async () => {
        const { page, roundTrips } = await search(filters, sort)
        const expected = ISSUES.filter(keep).sort(ORDERS[sort]).map((x) => ids.get(x.i))
        expect(expected.length).toBeGreaterThan(0)
        expect(page.items.map((item) => item.id)).toEqual(expected)
        expect(page.total).toBe(expected.length)
        // One round trip; PlanetScale sends a read batch's two statements as two concurrent requests.
        expect(roundTrips).toBe(target === 'planetscale' ? 2 : 1)
      })
    }
  }

  it('has the read indexes of migration 0012 and not the one-column ones they replace; running it again changes nothing', async () => {
    const migration = MIGRATIONS[m.scope.db.dialect.name].application.find((step) => step.version === 12)!
    await m.scope.db.batch(migration.statements(m.prefix).map((sql) => ({ sql })))
    const table = `${m.prefix}error_groups`
    const names =
      m.scope.db.dialect.name === 'sqlite'
        ? await m.rows<{ name: string }>(`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ?`, [table])
        : m.scope.db.dialect.name === 'postgres'
          ? await m.rows<{ name: string }>(`SELECT indexname AS name FROM pg_indexes WHERE tablename = ?`, [table])
          : await m.rows<{ name: string }>(`SELECT DISTINCT index_name AS name FROM information_schema.statistics WHERE table_schema = DATABASE() AND table_name = ?`, [table])
    const present = new Set(names.map((row) => row.name))
    for (const [name] of READ_INDEXES) expect(present.has(`${m.prefix}${name}`), name).toBe(true)
    for (const name of REPLACED_INDEXES) expect(present.has(`${m.prefix}${name}`), name).toBe(false)
  })

  // Plans are the engine's choice; SQLite's (D1, libSQL) are deterministic for these shapes, so they are
  // pinned here: no filter sorts all its matching rows for the page (docs/performance.md).
  if (target === 'd1' || target === 'libsql') {
    for (const { name, filters } of FILTERS.filter((f) => !f.name.includes('+'))) {
      for (const sort of ['newest', 'occurrences'] as const) {
        it(`${name}, ${sort}: the page walks an index in list order, the total reads no issue row`, async () => {
          const { statements } = await search(filters, sort)
          const [page, count] = statements
          const plan = async (statement: Statement) =>
            (await m.rows<{ detail: string }>(`EXPLAIN QUERY PLAN ${statement.sql}`, statement.args as (string | number | null)[])).map((row) => row.detail)
          const pagePlan = await plan(page!)
          expect(pagePlan, pagePlan.join('\n')).not.toContain('USE TEMP B-TREE FOR ORDER BY')
          const countPlan = (await plan(count!)).filter((line) => / g\b/.test(line))
          expect(countPlan.length, countPlan.join('\n')).toBeGreaterThan(0)
          for (const line of countPlan) expect(line, countPlan.join('\n')).toMatch(/COVERING INDEX|INTEGER PRIMARY KEY/)
        })
      }
    }

    it('summary: the breakdown and module counts read issue_rollup; the newest times one index entry each (migration 0018)', async () => {
      const statements: Statement[] = []
      const db = wrapDriver(m.scope.db, (call, proceed) => {
        statements.push(...call.statements)
        return proceed()
      })
      const summary = await getSummary({ ...m.scope, db }, new Date('2026-10-20T00:00:00Z'), { stale_after_hours: 24 })
      expect(summary.total.groups_count).toBe(ISSUES.length)
      expect(summary.total.occurrences).toBe(ISSUES.reduce((sum, x) => sum + x.count, 0))
      expect(summary.total.last_seen).toBe(ISSUES.map((x) => x.lastSeen).sort().at(-1))
      expect(summary.total.last_event).toBe(ISSUES.filter((x) => x.origin === 'ingested').map((x) => x.lastSeen).sort().at(-1))
      const plan = (await m.rows<{ detail: string }>(`EXPLAIN QUERY PLAN ${statements[0]!.sql}`, statements[0]!.args as (string | number | null)[])).map((row) => row.detail)
      const issueReads = plan.filter((line) => line.includes(`${m.prefix}error_groups`))
      // Two probes: ORDER BY last_seen DESC LIMIT 1 walks groups_last_seen from its top; the ingested one seeks
      // groups_origin_seen (origin = 'ingested') and takes its last entry. No other read of the issues.
      expect(issueReads, plan.join('\n')).toEqual([
        expect.stringMatching(new RegExp(`^SCAN ${m.prefix}error_groups USING COVERING INDEX ${m.prefix}groups_last_seen$`)),
        expect.stringMatching(new RegExp(`^SEARCH ${m.prefix}error_groups USING COVERING INDEX ${m.prefix}groups_origin_seen \\(origin=\\?\\)$`)),
      ])
      // The breakdown scans the rollup (a few dozen rows); each module's count seeks its primary key.
      expect(plan, plan.join('\n')).toContain(`SCAN ${m.prefix}issue_rollup`)
      expect(plan, plan.join('\n')).toContain('SEARCH r USING PRIMARY KEY (module_key=?)')
    })
  }
})

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}
