import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Statement } from '../../../drivers/driver.ts'
import { MIGRATIONS } from '../../../drivers/migrations/index.ts'
import { READ_INDEXES, REPLACED_INDEXES } from '../../../drivers/migrations/sqlite/0012-read-indexes.ts'
import { wrapDriver } from '../../../drivers/wrap-driver.ts'
import type { IssueFilters, IssueSort } from '../../../worker/issues/issue-search.ts'
import { recordedSearch } from './recorded-search.ts'
import { issueFilterSql } from '../../../worker/issues/issue-filters.ts'
import { FEW_CANDIDATE_ROWS } from '../../../worker/issues/issue-candidates.ts'
import { getSummary } from '../../../worker/summary/summary.ts'
import { TARGETS } from '../../drivers/driver-targets.ts'
import { migratedScope, type MigratedScope } from '../digest/persist/migrated-scope.ts'
import { FILTERS, ISSUES, ORDERS, cmp, onDate, type Issue } from './issue-filter-corpus.ts'

describe.each(TARGETS)('issue filters over migration 0012 on %s', { timeout: 60_000 }, (target) => {
  let m: MigratedScope
  const ids = new Map<number, number>()
  const tags = { checkout: 0, numbered: 0, self: 0 }
  const search = (filters: IssueFilters, sort: IssueSort, paging = { page: 1, limit: 50 }) => recordedSearch(m, filters, sort, paging)

  beforeAll(async () => {
    m = await migratedScope(target, 'plans')
    const { t } = m.scope
    const now = '2026-09-01 00:00:00'
    await m.scope.db.batch([
      { sql: `INSERT INTO ${t.modules} (name, name_key, slug, created_at) VALUES ('Payments', 'payments', 'billing', ?), ('Billing', 'billing', 'payments-x', ?)`, args: [now, now] },
      { sql: `INSERT INTO ${t.tags} (name, name_key, created_at) VALUES ('Checkout', 'checkout', ?), ('Self', 'self', ?)`, args: [now, now] },
      { sql: `INSERT INTO ${t.sourceFiles} (path, size, created_at, channel) VALUES ('processed/x/laravel.log', 1, ?, 'laravel.log'), ('processed/x/other.log', 1, ?, 'other.log'),
              ('processed/y/laravel.log', 1, ?, 'worker'), ('processed/z/rotated-2.log', 1, ?, 'other.log')`, args: [now, now, now, now] },
      ...ISSUES.map((x) => ({
        sql: `INSERT INTO ${t.groups} (fingerprint, severity, title, count, first_seen, last_seen, created_at, status, log_type, origin, module_id)
              VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, (SELECT id FROM ${t.modules} WHERE name = ?))`,
        args: [x.fingerprint, x.severity, `Issue ${x.i}`, x.count, '2026-09-01 00:00:00', x.lastSeen, x.createdAt, x.status, x.logType, x.origin, x.module === 'A' ? 'Payments' : x.module === 'B' ? 'Billing' : null],
      })),
    ])
    for (const row of await m.rows<{ id: number; fingerprint: string }>(`SELECT id, fingerprint FROM ${t.groups}`)) ids.set(Number(row.fingerprint.slice(3)), Number(row.id))
    const issue = (x: Issue) => ids.get(x.i)!
    // A tag value that is a number names the tag with that id and the tag with that name (issue-filters.ts):
    // a tag named after Checkout's id, and `Self`, renamed to its own id (one tag named twice).
    const tagId = async (name: string) => Number((await m.rows<{ id: number }>(`SELECT id FROM ${t.tags} WHERE name = ?`, [name]))[0]!.id)
    tags.checkout = await tagId('Checkout')
    tags.self = await tagId('Self')
    await m.scope.db.batch([
      { sql: `INSERT INTO ${t.tags} (name, name_key, created_at) VALUES (?, ?, ?)`, args: [String(tags.checkout), String(tags.checkout), now] },
      { sql: `UPDATE ${t.tags} SET name = ?, name_key = ? WHERE id = ?`, args: [String(tags.self), String(tags.self), tags.self] },
    ])
    tags.numbered = await tagId(String(tags.checkout))
    const tagRows = (keep: (x: Issue) => boolean, tag: number) =>
      ISSUES.filter(keep).map((x) => ({ sql: `INSERT INTO ${t.groupTags} (group_id, tag_id, created_at) VALUES (?, ?, ?)`, args: [issue(x), tag, now] }))
    await m.scope.db.batch([
      // Day rows carry their issue's severity (migration 0017), as the digest writes them.
      ...ISSUES.filter((x) => x.onDay).map((x) => ({ sql: `INSERT INTO ${t.groupDays} (group_id, day, severity, count) VALUES (?, '2026-10-15', ?, 1)`, args: [issue(x), x.severity] })),
      ...ISSUES.map((x) => ({ sql: `INSERT INTO ${t.groupDays} (group_id, day, severity, count) VALUES (?, '2026-10-16', ?, 1)`, args: [issue(x), x.severity] })),
      ...tagRows((x) => x.tagged, tags.checkout),
      ...tagRows((x) => x.numbered, tags.numbered),
      ...tagRows((x) => x.self, tags.self),
      ...ISSUES.filter((x) => x.worker).map((x) => ({
        sql: `INSERT INTO ${t.groupSources} (group_id, source_file_id) SELECT ?, id FROM ${t.sourceFiles} WHERE channel = 'worker'`,
        args: [issue(x)],
      })),
      // One file per channel but `other.log`, which also has the rotated copy (issues with `self`).
      ...ISSUES.map((x) => ({
        sql: `INSERT INTO ${t.groupSources} (group_id, source_file_id) SELECT ?, id FROM ${t.sourceFiles} WHERE channel = ? AND path NOT LIKE '%rotated%'`,
        args: [issue(x), `${x.file}.log`],
      })),
      ...ISSUES.filter((x) => x.self).map((x) => ({
        sql: `INSERT INTO ${t.groupSources} (group_id, source_file_id) SELECT ?, id FROM ${t.sourceFiles} WHERE path LIKE '%rotated%'`,
        args: [issue(x)],
      })),
    ])
  })
  afterAll(() => m?.close())

  /** The count of the general form, `COUNT(*)` of the issues under the filters' WHERE (issue-total.ts). */
  const generalTotal = async (filters: IssueFilters) => {
    const where = issueFilterSql(m.scope, filters)
    const [row] = await m.rows<{ total: number }>(`SELECT COUNT(*) AS total FROM ${m.scope.t.groups} g WHERE ${where.sql}`, where.args as (string | number | null)[])
    return Number(row!.total)
  }

  const check = async (name: string, filters: IssueFilters, keep: (issue: Issue) => boolean, sort: Exclude<IssueSort, 'priority'>) => {
    const { page, roundTrips } = await search(filters, sort)
    const expected = ISSUES.filter(keep).sort(ORDERS[sort]).map((x) => ids.get(x.i))
    // Every filter matches some issue, except those named for matching none.
    if (!name.includes('no module')) expect(expected.length).toBeGreaterThan(0)
    expect(page.items.map((item) => item.id)).toEqual(expected)
    expect(page.total).toBe(expected.length)
    expect(page.total).toBe(await generalTotal(filters))
    // One round trip; PlanetScale sends a read batch's two statements as two concurrent requests (`q`: one).
    expect(roundTrips).toBe(target === 'planetscale' && filters.q === undefined ? 2 : 1)
  }

  for (const { name, filters, keep } of FILTERS) {
    for (const sort of ['newest', 'occurrences'] as const) {
      it(`${name}, ${sort}: the matching issues in list order and their total (the general form's), in one read batch`, async () => {
        await check(name, filters, keep, sort)
      })
    }
  }

  // A number names a tag by id and a tag by name; the total counts each issue once (issue-total.ts).
  const TAG_VALUES: readonly { name: string; filters: () => IssueFilters; keep: (issue: Issue) => boolean }[] = [
    { name: "Checkout's id, also another tag's name (issues tagged with both)", filters: () => ({ tag: String(tags.checkout) }), keep: (x) => x.tagged || x.numbered },
    { name: 'the id and the name of one tag', filters: () => ({ tag: String(tags.self) }), keep: (x) => x.self },
    { name: 'the numbered tag by its own id', filters: () => ({ tag: String(tags.numbered) }), keep: (x) => x.numbered },
    { name: "Checkout's id with severity", filters: () => ({ tag: String(tags.checkout), severity: 'WARNING' }), keep: (x) => (x.tagged || x.numbered) && x.severity === 'WARNING' },
  ]
  it('q: the total counts every match on every page; a page past the last match reads the total on its own', async () => {
    const expected = ISSUES.filter((x) => String(x.i).startsWith('1')).sort(ORDERS.newest).map((x) => ids.get(x.i))
    expect(expected).toHaveLength(11)
    for (const [page, from] of [[1, 0], [3, 8]] as const) {
      const result = await search({ q: 'issue 1' }, 'newest', { page, limit: 4 })
      expect(result.page.items.map((item) => item.id)).toEqual(expected.slice(from, from + 4))
      expect(result.page).toMatchObject({ total: 11, pages: 3 })
      expect(result.statements).toHaveLength(1)
      expect(result.roundTrips).toBe(1)
    }
    const past = await search({ q: 'issue 1' }, 'newest', { page: 4, limit: 4 })
    expect(past.page).toEqual({ items: [], total: 11, pages: 3 })
    expect(past.roundTrips).toBe(2)
    const none = await search({ q: 'no such issue' }, 'newest')
    expect(none.page).toEqual({ items: [], total: 0, pages: 0 })
    expect(none.roundTrips).toBe(1)
  })

  // `severity` under the priority sort also names its band (list-issues.ts `priorityBand`): same issues, same order.
  const RANK = ['EMERGENCY', 'ALERT', 'CRITICAL', 'ERROR', 'WARNING', 'NOTICE', 'INFO', 'DEBUG']
  const byPriority = (a: Issue, b: Issue) => RANK.indexOf(a.severity) - RANK.indexOf(b.severity) || cmp(b.lastSeen, a.lastSeen) || b.i - a.i
  for (const [name, filters, keep] of [
    ['severity ERROR', { severity: 'ERROR' }, (x: Issue) => x.severity === 'ERROR'],
    ['severity CRITICAL', { severity: 'CRITICAL' }, (x: Issue) => x.severity === 'CRITICAL'],
    ['severity WARNING and date', { severity: 'WARNING', date: '2026-10-15' }, (x: Issue) => x.severity === 'WARNING' && onDate(x)],
    ['severity ERROR and status', { severity: 'ERROR', status: 'open' }, (x: Issue) => x.severity === 'ERROR' && x.status === 'open'],
  ] as const) {
    it(`${name}, priority: the matching issues in priority order and their total`, async () => {
      const { page } = await search(filters, 'priority')
      const expected = ISSUES.filter(keep).sort(byPriority).map((x) => ids.get(x.i))
      // Every filter matches some issue, except those named for matching none.
      if (!name.includes('no module')) expect(expected.length).toBeGreaterThan(0)
      expect(page.items.map((item) => item.id)).toEqual(expected)
      expect(page.total).toBe(expected.length)
    })
  }

  it('source: exactly one channel\'s files count its group_channels rows; files of two channels, or one file, do not', async () => {
    const { t } = m.scope
    // A row no file backs (issue 1 is in no `other.log` file): only a total that reads group_channels counts it.
    const stray = ISSUES.find((x) => !(x.file === 'other' || x.self))!
    await m.scope.db.execute({ sql: `INSERT INTO ${t.groupChannels} (channel, group_id) VALUES ('other.log', ?)`, args: [ids.get(stray.i)!] })
    try {
      const expected = ISSUES.filter((x) => x.file === 'other' || x.self).length
      expect((await search({ source: 'other.log' }, 'newest')).page.total).toBe(expected + 1)
      expect((await search({ source: 'laravel.log' }, 'newest')).page.total).toBe(ISSUES.filter((x) => x.file === 'laravel' || x.worker).length)
      expect((await search({ source: 'rotated' }, 'newest')).page.total).toBe(ISSUES.filter((x) => x.self).length)
    } finally {
      await m.scope.db.execute({ sql: `DELETE FROM ${t.groupChannels} WHERE channel = 'other.log' AND group_id = ?`, args: [ids.get(stray.i)!] })
    }
  })

  it('source naming files of several channels, with few pairs outside them: counted from the issues without one, exactly', async () => {
    const { t } = m.scope
    const now = '2026-09-01 00:00:00'
    const named = ISSUES.filter((x) => x.file === 'laravel' || x.worker).length
    const total = async () => (await search({ source: 'laravel.log' }, 'newest')).page.total
    // Issues without a pair: a manual one, an emptied ingested merge target (both subtracted), and an ingested
    // issue that is neither — which no write leaves (issue-total.ts), so only the count from the other side
    // counts it: it shows which branch answered.
    await m.scope.db.batch([
      ...(['manual', 'ingested', 'ingested'] as const).map((origin, n) => ({
        sql: `INSERT INTO ${t.groups} (fingerprint, severity, title, count, first_seen, last_seen, created_at, status, log_type, origin)
              VALUES (?, 'ERROR', 'No pair', 0, ?, ?, ?, 'open', 'laravel', ?)`,
        args: [`bare-${n}`, now, now, now, origin],
      })),
      { sql: `INSERT INTO ${t.issueAliases} (fingerprint, target_fingerprint, created_at) VALUES ('merged-away', 'bare-1', ?)`, args: [now] },
    ])
    // Enough files of pairs with every corpus issue to pass the stop of the count from the other side.
    const extraFiles = Math.ceil((FEW_CANDIDATE_ROWS + 1) / ISSUES.length)
    try {
      expect(await total()).toBe(named + 1)
      expect(await generalTotal({ source: 'laravel.log' })).toBe(named)
      // More than FEW_CANDIDATE_ROWS pairs outside the named files: the general count answers.
      await m.scope.db.batch([
        ...Array.from({ length: extraFiles }, (_, n) => ({
          sql: `INSERT INTO ${t.sourceFiles} (path, size, created_at, channel) VALUES (?, 1, ?, ?)`,
          args: [`extra/f-${n}.log`, now, `f-${n}.log`],
        })),
        {
          sql: `INSERT INTO ${t.groupSources} (group_id, source_file_id) SELECT g.id, f.id FROM ${t.groups} g CROSS JOIN ${t.sourceFiles} f
                WHERE f.path LIKE 'extra/%' AND g.fingerprint NOT LIKE 'bare-%'`,
        },
      ])
      expect(await total()).toBe(named)
      // Exactly FEW_CANDIDATE_ROWS pairs outside (the extra files' pairs, less f-0's and one of f-1's, plus bare-2's
      // one), counted from that side again: bare-2 has all its pairs outside and is not counted; the issues with
      // pairs on both sides are.
      expect(extraFiles * ISSUES.length - ISSUES.length - 1 + 1).toBe(FEW_CANDIDATE_ROWS)
      await m.scope.db.batch([
        { sql: `DELETE FROM ${t.groupSources} WHERE source_file_id = (SELECT id FROM ${t.sourceFiles} WHERE path = 'extra/f-0.log')` },
        { sql: `DELETE FROM ${t.groupSources} WHERE source_file_id = (SELECT id FROM ${t.sourceFiles} WHERE path = 'extra/f-1.log') AND group_id = ?`, args: [ids.get(1)!] },
        { sql: `INSERT INTO ${t.groupSources} (group_id, source_file_id) SELECT (SELECT id FROM ${t.groups} WHERE fingerprint = 'bare-2'), id FROM ${t.sourceFiles} WHERE path = 'extra/f-0.log'` },
      ])
      expect(await total()).toBe(named)
      expect(await generalTotal({ source: 'laravel.log' })).toBe(named)
    } finally {
      await m.scope.db.batch([
        { sql: `DELETE FROM ${t.groupChannels} WHERE channel LIKE 'f-%'` },
        { sql: `DELETE FROM ${t.groupSources} WHERE source_file_id IN (SELECT id FROM ${t.sourceFiles} WHERE path LIKE 'extra/%')` },
        { sql: `DELETE FROM ${t.sourceFiles} WHERE path LIKE 'extra/%'` },
        { sql: `DELETE FROM ${t.issueAliases} WHERE fingerprint = 'merged-away'` },
        { sql: `DELETE FROM ${t.groups} WHERE fingerprint LIKE 'bare-%'` },
      ])
    }
    expect(await total()).toBe(named)
  })

  for (const { name, filters, keep } of TAG_VALUES) {
    it(`tag by ${name}: the matching issues and their total, in one read batch`, async () => {
      await check(name, filters(), keep, 'newest')
    })
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
    const plan = async (statement: Statement) =>
      (await m.rows<{ detail: string }>(`EXPLAIN QUERY PLAN ${statement.sql}`, statement.args as (string | number | null)[])).map((row) => row.detail)
    /**
     * The plan of the page's id subquery `p` (list-issues.ts): it chooses and orders the page; the outer query
     * only joins and re-sorts the page's own rows. With a `tag`, `source` or `date` value the ids have two arms
     * (issue-candidates.ts): `pw` walks the sort index, `pr` reads the value's rows first; `arm` picks one. The
     * arms' guard — an uncorrelated scalar subquery counting the value's rows — is left out.
     */
    const idPlan = async (statement: Statement, arm: 'walk' | 'read' = 'walk') => {
      const rows = await m.rows<{ id: number; parent: number; detail: string }>(`EXPLAIN QUERY PLAN ${statement.sql}`, statement.args as (string | number | null)[])
      const named = (name: string) => rows.find((row) => new RegExp(`^(CO-ROUTINE|MATERIALIZE) ${name}$`).test(row.detail))
      const root = arm === 'read' ? named('pr') : (named('pw') ?? named('p'))
      expect(root, rows.map((row) => row.detail).join('\n')).toBeDefined()
      const inside = new Set([Number(root!.id)])
      const guard = new Set<number>()
      for (const row of rows) {
        if (guard.has(Number(row.parent)) || (inside.has(Number(row.parent)) && /^SCALAR SUBQUERY \d+$/.test(row.detail))) guard.add(Number(row.id))
        else if (inside.has(Number(row.parent))) inside.add(Number(row.id))
      }
      return rows.filter((row) => row !== root && inside.has(Number(row.id))).map((row) => row.detail)
    }
    // The filters whose total counts a relation's index (issue-total.ts), with the index each reads.
    const RELATION_TOTALS: Record<string, RegExp> = { tag: /gt USING COVERING INDEX \S*error_group_tags_tag \(tag_id=\?\)/, date: /gd USING COVERING INDEX \S*group_days_day_severity \(day=\?\)/,
      'source, one channel': /gc USING PRIMARY KEY \(channel=\?\)/,
      'severity and date': /gd USING COVERING INDEX \S*group_days_day_severity \(day=\? AND severity=\?\)/, 'source, one file': /gs USING COVERING INDEX \S*group_sources_file \(source_file_id=\?\)/ }
    // The filters whose total sums `issue_rollup` rows (issue-total.ts).
    const ROLLUP_TOTALS = ['severity', 'status', 'log_type', 'module', 'module by name', 'module naming no module', 'no filter']
    // `min_severity` belongs to the priority sort (its index leads with the band): pinned below.
    for (const { name, filters } of FILTERS.filter((f) => !f.name.includes('+') && !f.name.startsWith('min_severity') && f.filters.q === undefined)) {
      for (const sort of ['newest', 'occurrences'] as const) {
        it(`${name}, ${sort}: the page walks an index in list order, the total reads no issue row`, async () => {
          const { statements } = await search(filters, sort)
          const [page, count] = statements
          const pagePlan = await idPlan(page!)
          expect(pagePlan, pagePlan.join('\n')).not.toContain('USE TEMP B-TREE FOR ORDER BY')
          const countPlan = await plan(count!)
          const issueLines = countPlan.filter((line) => / g\b/.test(line))
          // Columns of the rollup's key: the total sums its rows and reads no issue (below).
          if (ROLLUP_TOTALS.includes(name)) {
            expect(countPlan.join('\n')).toMatch(/(SCAN|SEARCH) r\b/)
            expect(issueLines, countPlan.join('\n')).toEqual([])
          } else if (RELATION_TOTALS[name] === undefined) expect(issueLines.length, countPlan.join('\n')).toBeGreaterThan(0)
          // With a severity, the non-ingested issues created that day are read from their own index (below).
          const issueIndex = name === 'severity and date' ? /INDEX \S*groups_origin_created/ : /COVERING INDEX|INTEGER PRIMARY KEY/
          for (const line of issueLines) expect(line, countPlan.join('\n')).toMatch(issueIndex)
        })
      }
    }

    // Issue 18: alone, these totals read the relation's index — never the issues' (`date` also reads the
    // (origin, created_at) index for the few non-ingested issues created that day; `source`'s plan also lists
    // the general count, its branch for several matching files).
    for (const [name, index] of Object.entries(RELATION_TOTALS)) {
      it(`${name}: the total counts a range of the relation's index`, async () => {
        const { filters } = FILTERS.find((f) => f.name === name)!
        const countPlan = await plan((await search(filters, 'newest')).statements[1]!)
        const text = countPlan.join('\n')
        expect(text).toMatch(index)
        // `date` reads the (origin, created_at) index for the few non-ingested issues created that day; with a
        // severity also their rows (the severity is not in that index), never the severity's issues.
        const created = name === 'date' ? /SEARCH g USING COVERING INDEX \S*groups_origin_created/ : /SEARCH g USING INDEX \S*groups_origin_created \(origin[<>]\?\)/
        if (name.includes('date')) for (const line of countPlan.filter((l) => / g\b/.test(l))) expect(line, text).toMatch(created)
        if (name === 'tag') expect(text).not.toMatch(/ g\b/)
        expect(text).not.toMatch(/SCAN (gt|gd|gs)\b/)
      })
    }
    it('q: one read of the matches gives the page and its window total; the sort index is not walked', async () => {
      const pagePlanOf = async (q: string) => {
        const { statements } = await search({ q }, 'newest')
        expect(statements).toHaveLength(1)
        const pagePlan = (await idPlan(statements[0]!)).join('\n')
        expect(pagePlan).toContain('USE TEMP B-TREE FOR ORDER BY')
        return pagePlan
      }
      // Every issue is read (one scan) for a needle under three characters, which has no trigram, and for every
      // needle where the issues keep no search signature (PostgreSQL, MySQL).
      const signatures = m.scope.db.dialect.searchSignature
      for (const q of signatures ? ['ue'] : ['ue', 'issue 1']) {
        const pagePlan = await pagePlanOf(q)
        expect(pagePlan).toMatch(/SCAN g\b/)
        expect(pagePlan).not.toMatch(/SCAN g USING (COVERING )?INDEX/)
      }
      // SQLite (migration 0021): the signature rows and the matching modules' and files' rows name the issues
      // read, by rowid.
      if (signatures) {
        const pagePlan = await pagePlanOf('issue 1')
        expect(pagePlan).toMatch(/^SEARCH g USING INTEGER PRIMARY KEY \(rowid=\?\)$/m)
        expect(pagePlan).toMatch(/^SCAN gsig$/m)
        expect(pagePlan).toMatch(/^SEARCH gmq USING COVERING INDEX \S*groups_module_count \(module_id=\?\)$/m)
        expect(pagePlan).toMatch(/^SEARCH gsq USING COVERING INDEX \S*group_sources_file \(source_file_id=\?\)$/m)
        expect(pagePlan).not.toMatch(/SCAN g\b/)
      }
    })

    it('a page that must sort its matches (oldest or priority with a filter) sorts ids only: tags and trend run for the page rows', async () => {
      for (const [filters, sort] of [[{ severity: 'WARNING' }, 'oldest'], [{ status: 'open' }, 'priority']] as const) {
        const [page] = (await search(filters, sort)).statements
        const ids = (await idPlan(page!)).join('\n')
        // The correlated subqueries (tags, trend) read error_group_tags and group_days: never inside the id choice.
        expect(ids).not.toMatch(/error_group_tags|group_days|\bgt\b|\bgd\b/)
        const whole = (await plan(page!)).join('\n')
        expect(whole).toMatch(/CORRELATED SCALAR SUBQUERY/)
      }
    })

    it('min_severity, priority: the page walks the priority index range, the total sums rollup rows', async () => {
      const [page, count] = (await search({ minSeverity: 'ERROR' }, 'priority')).statements
      const pagePlan = (await idPlan(page!)).join('\n')
      expect(pagePlan).toMatch(/SEARCH g USING (COVERING )?INDEX \S*groups_priority \(severity_rank<\?\)/)
      expect(pagePlan).not.toContain('USE TEMP B-TREE FOR ORDER BY')
      const countPlan = (await plan(count!)).join('\n')
      expect(countPlan).toMatch(/(SCAN|SEARCH) r\b/)
      expect(countPlan).not.toMatch(/ g\b/)
    })

    it('date, newest: the page probes each issue it walks (the day rows\' key), never building the day\'s id list', async () => {
      for (const filters of [{ date: '2026-10-15' }, { severity: 'ERROR', date: '2026-10-15' }] as const) {
        const pagePlan = (await idPlan((await search(filters, 'newest')).statements[0]!)).join('\n')
        expect(pagePlan).toMatch(/SEARCH gd USING (COVERING )?INDEX \S*group_days_1 \(group_id=\? AND day=\?\)/)
        expect(pagePlan).not.toMatch(/LIST SUBQUERY|group_days_day/)
      }
      // A `q` page reads every issue anyway: it tests the day's id list (one build, then a lookup per issue).
      const qPlan = (await idPlan((await search({ q: 'issue', date: '2026-10-15' }, 'newest')).statements[0]!)).join('\n')
      expect(qPlan).toMatch(/LIST SUBQUERY/)
    })

    it('source naming files of several channels: the total reads each issue\'s pairs once or counts from the other side, the page seeks each file', async () => {
      const [page, count] = (await search({ source: 'laravel.log' }, 'newest')).statements
      const countPlan = (await plan(count!)).join('\n')
      expect(countPlan).toMatch(/SEARCH gss USING COVERING INDEX \S*group_sources_1 \(group_id=\?\)$/m)
      // The count from the other side (issue-total.ts `outsideTotal`): the pairs outside the named files by their
      // files' index (the stopped count, then the distinct issues, each probed for a named file's pair), the
      // rollup's rows, the non-ingested issues by their origin index and the merge targets by key, each probed
      // for any pair. No scan of the issues or of the pairs.
      for (const line of [
        /^SEARCH go USING COVERING INDEX \S*group_sources_file \(source_file_id=\?\)$/m,
        /^SEARCH gi USING COVERING INDEX \S*group_sources_1 \(group_id=\? AND source_file_id=\?\)$/m,
        /^SCAN r$/m,
        /^SEARCH gn USING COVERING INDEX \S*groups_origin_created \(origin<\?\)$/m,
        /^SEARCH gn USING COVERING INDEX \S*groups_origin_created \(origin>\?\)$/m,
        /^SEARCH gm USING INTEGER PRIMARY KEY \(rowid=\?\)$/m,
        /^SEARCH np USING COVERING INDEX \S*group_sources_1 \(group_id=\?\)$/m,
      ]) expect(countPlan).toMatch(line)
      expect(countPlan).not.toMatch(/^SCAN (go|gi|gn|gm|np)\b/m)
      expect((await idPlan(page!)).join('\n')).toMatch(/SEARCH gss USING COVERING INDEX \S*group_sources_1 \(group_id=\? AND source_file_id=\?\)/)
    })

    it('severity, priority: the page walks the band of the priority index in list order (with date: probing each issue)', async () => {
      for (const filters of [{ severity: 'WARNING' }, { severity: 'ERROR', date: '2026-10-15' }] as const) {
        const [page] = (await search(filters, 'priority')).statements
        const pagePlan = (await idPlan(page!)).join('\n')
        expect(pagePlan).toMatch(/SEARCH g USING (COVERING )?INDEX \S*groups_priority \(severity_rank=\?\)/)
        expect(pagePlan).not.toContain('USE TEMP B-TREE FOR ORDER BY')
        if ('date' in filters) expect(pagePlan).toMatch(/SEARCH gd USING (COVERING )?INDEX \S*group_days_1 \(group_id=\? AND day=\?\)/)
      }
    })

    it('min_severity with status, module with log type: the total sums rollup rows, never reading an issue', async () => {
      for (const filters of [{ minSeverity: 'ERROR', status: 'open' }, { module: 'billing', logType: 'php' }, {}] as const) {
        const [, count] = (await search(filters, 'priority')).statements
        const countPlan = (await plan(count!)).join('\n')
        expect(countPlan).toMatch(/(SCAN|SEARCH) r\b/)
        expect(countPlan).not.toMatch(/ g\b/)
      }
    })

    it("tag by Checkout's id: the total counts the tag's rows, and the other tag's rows only for issues without it", async () => {
      const countPlan = await plan((await search({ tag: String(tags.checkout) }, 'newest')).statements[1]!)
      const text = countPlan.join('\n')
      expect(text).toMatch(/SEARCH gt USING COVERING INDEX \S*error_group_tags_tag \(tag_id=\?\)/)
      expect(text).toMatch(/SEARCH gx USING COVERING INDEX sqlite_autoindex_\S*error_group_tags_1 \(group_id=\? AND tag_id=\?\)/)
      expect(text).not.toMatch(/ g\b/)
    })

    it('summary: the breakdown and module counts read issue_rollup; the newest times walk groups_last_seen from its top (migration 0016)', async () => {
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
      // Two walks of groups_last_seen from its top (ORDER BY last_seen DESC LIMIT 1): the ingested one stops at
      // the first ingested issue. No other read of the issues.
      expect(issueReads, plan.join('\n')).toEqual([
        expect.stringMatching(new RegExp(`^SCAN ${m.prefix}error_groups USING COVERING INDEX ${m.prefix}groups_last_seen$`)),
        expect.stringMatching(new RegExp(`^SCAN ${m.prefix}error_groups USING INDEX ${m.prefix}groups_last_seen$`)),
      ])
      // The breakdown scans the rollup (a few dozen rows); each module's count seeks its primary key.
      expect(plan, plan.join('\n')).toContain(`SCAN ${m.prefix}issue_rollup`)
      expect(plan, plan.join('\n')).toContain('SEARCH r USING PRIMARY KEY (module_key=?)')
    })
  }
})

