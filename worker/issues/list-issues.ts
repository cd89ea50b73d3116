import type { IssueListItem } from '../../shared/schemas/issue.ts'
import { type Fragment, type Raw, raw, sql } from '../../drivers/sql.ts'
import { SEVERITIES } from '../../shared/constants.ts'
import { namedBatch } from '../../drivers/named-batch.ts'
import type { AppScope } from '../apps/app-scope.ts'
import { issueSelectList, toIssueListItem } from './issue-columns.ts'
import { issueCandidates } from './issue-candidates.ts'
import { issueFilterSql, issuesWhere } from './issue-filters.ts'
import { issueTotalSql } from './issue-total.ts'
import type { IssueSearch, IssueSort } from './issue-search.ts'
import { trendSql, trendWindow } from './issue-trend.ts'

const ORDER: Record<IssueSort, string> = {
  occurrences: 'g.count DESC, g.last_seen DESC, g.id DESC',
  newest: 'g.last_seen DESC, g.count DESC, g.id DESC',
  oldest: 'g.first_seen ASC, g.count DESC, g.id ASC',
  // Issue 17 item 3: the most severe band first (an EMERGENCY above a NOTICE whatever their counts), then the
  // recent frequency as `heat`, a count decayed with a 7-day half-life (issue-heat.ts), then the latest
  // activity. Both are columns (migration 0013) and `groups_priority` holds exactly this order, so the page
  // walks the index like the other sorts instead of summing the last week's `group_days` per issue (1.9 s at
  // 100,000 issues / 1,000,000 occurrences on SQLite; docs/performance.md "Priority sort").
  priority: 'g.severity_rank ASC, g.heat DESC, g.last_seen DESC, g.id DESC',
}

export interface IssuePage {
  readonly items: IssueListItem[]
  readonly total: number
  readonly pages: number
}

/**
 * The issue search behind `errors`, `issues` and `groups`: one page of issues (with module, tags and 14-day
 * trend) and the total, as one read batch — one round trip (PlanetScale: two concurrent requests).
 *
 * With `q` the page also counts: `q` is a substring test no index answers, so the page and the total each read
 * every issue — the page by walking the sort index and looking up every issue row in list order when few
 * match. One scan gives both instead: the total is a window count over the matches, and the page sorts them
 * (`unindexed`). At 100,000 issues on SQLite: a needle matching nothing 244 → 80 ms; one matching every
 * issue 34 → 61 ms (docs/performance.md "Search: one scan"). A page past the last match has no row to carry
 * the count: then the total is read on its own (a second round trip, for that page only).
 */
export async function searchIssues(scope: AppScope, search: IssueSearch, now: Date): Promise<IssuePage> {
  const { t, db } = scope
  const filter = sql`${issueFilterSql(scope, search.filters)}${priorityBand(search)}`
  const samples = { stack: search.includeStack, context: search.includeContext }
  const offset = (search.page - 1) * search.limit
  const window = trendWindow(now)
  const order = ORDER[search.sort]
  const counted = search.filters.q !== undefined
  const { page, count } = await namedBatch(
    db,
    {
      // The page's ids first, then their rows: a page that must sort its matches (`oldest` or `priority` with a
      // filter no index orders) sorts ids alone, and the tags and trend subqueries run for the 50 rows kept, not
      // for every match — `status=open&sort=priority` at 100,000 issues: 1.3 s when every match paid them
      // (issue 18, docs/performance.md "Late rows"). The outer ORDER BY re-sorts the page's rows only. CROSS JOIN
      // (an inner join; SQLite also keeps its left side outer) reads the page's rows first whatever SQLite
      // estimates for them: with a computed LIMIT (issue-candidates.ts) it scanned every issue and probed them.
      page: sql`SELECT ${raw(issueSelectList(scope, samples))}, ${trendSql(scope, window)} AS trend${raw(counted ? ', p.matched AS matched' : '')}
          FROM (${pageIds(scope, search, filter, offset)}) p CROSS JOIN ${raw(t.groups)} g LEFT JOIN ${raw(t.modules)} m ON m.id = g.module_id
          WHERE g.id = p.id ORDER BY ${raw(order)}`,
      // The total reads the narrowest index that answers it (issue 18: issue-total.ts).
      count: counted ? null : issueTotalSql(scope, search.filters),
    },
    { mode: 'read' },
  )
  const rows = page!.rows
  const total = counted ? await windowTotal(scope, search, rows, offset) : Number(count!.rows[0]!.total)
  return {
    items: rows.map((row) => toIssueListItem(row, { ...samples, skipVendor: search.skipVendor, window, now })),
    total,
    pages: Math.ceil(total / search.limit),
  }
}

/**
 * The page's ids (`id`, and with `q` the window count `matched`), in list order. Usually the sort index walked in
 * list order, each issue tested against the filters, stopping at the page's end. For a rare `tag`, `source` or
 * `date` value that walk reads every issue before it has 50 (a tag on 9 of 100,000 issues, a day without
 * events), and neither SQLite nor PostgreSQL sees it coming: then the value's own rows are read first and their
 * issues sorted (issue-candidates.ts). Both plans are in the statement, and a count of at most 2,000 index
 * entries decides which one runs, before either reads an issue. With `q` the page sorts every match anyway.
 */
function pageIds(scope: AppScope, search: IssueSearch, filter: Fragment, offset: number): Fragment {
  const { t, db } = scope
  const order = ORDER[search.sort]
  if (search.filters.q !== undefined) {
    return sql`SELECT g.id, COUNT(*) OVER () AS matched ${issuesWhere(scope, search.filters, filter)}
        ORDER BY ${raw(db.dialect.unindexed(order))} LIMIT ${raw(String(search.limit))} OFFSET ${raw(String(offset))}`
  }
  const candidates = issueCandidates(scope, search.filters)
  const tail = (limit: Fragment) => sql`ORDER BY ${raw(order)} LIMIT ${limit} OFFSET ${raw(String(offset))}`
  if (candidates === null) return sql`SELECT g.id FROM ${raw(t.groups)} g WHERE ${filter} ${tail(sql`${raw(String(search.limit))}`)}`
  // The sort index walked, or the value's rows read first: each arm runs only when the other does not.
  const walk = candidates.gate('many', search.limit)
  const read = candidates.gate('few', search.limit)
  return sql`SELECT pw.id FROM (SELECT g.id FROM ${raw(t.groups)} g WHERE ${filter} AND ${walk.where} ${tail(walk.limit)}) pw
      UNION ALL SELECT pr.id FROM (SELECT g.id ${candidates.issues(sql`${filter} AND ${read.where}`)} ${tail(read.limit)}) pr`
}

/**
 * `severity` under the priority sort, also as its band: `severity_rank = <rank>` names the same issues (the rank
 * is migration 0013's CASE over `severity`, in SEVERITIES order), and lets the page walk that range of
 * `groups_priority` in list order instead of sorting every issue of the severity — the dashboard's default
 * sort with its most used filter: 75,000 issues sorted, 46 → 2 ms at 1,000,000 occurrences (docs/performance.md).
 */
function priorityBand(search: IssueSearch): Fragment | Raw {
  const { severity } = search.filters
  return search.sort === 'priority' && severity !== undefined ? sql` AND g.severity_rank = ${SEVERITIES.indexOf(severity)}` : raw('')
}

/** A `q` page's total: its rows' window count, or — for a page past the last match — the total read on its own. */
async function windowTotal(scope: AppScope, search: IssueSearch, rows: readonly Record<string, unknown>[], offset: number): Promise<number> {
  if (rows.length > 0) return Number(rows[0]!.matched)
  if (offset === 0) return 0
  const { rows: counted } = await scope.db.execute(issueTotalSql(scope, search.filters))
  return Number(counted[0]!.total)
}
