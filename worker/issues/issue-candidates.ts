import { type Fragment, raw, sql } from '../../drivers/sql.ts'
import type { AppScope } from '../apps/app-scope.ts'
import { nameKey } from '../tags/tag-queries.ts'
import { asId, createdOnDay, sourceFiles } from './issue-filters.ts'
import type { IssueFilters } from './issue-search.ts'

/**
 * Below this many rows of a filter's relation, the list reads those rows first. A page that walks a sort index
 * and probes each issue costs about 50 × issues ÷ matches steps; reading the matches first costs one lookup
 * per match plus their sort. The two meet near √(50 × issues): 2,236 at 100,000 issues. With the threshold K
 * a page costs at most about K lookups or 50 × issues ÷ K steps, whichever plan runs — bounded both ways,
 * where walking alone cost every issue for a value that matches none (docs/performance.md "Rare values").
 */
export const FEW_CANDIDATE_ROWS = 2000

/**
 * The issues a `tag`, `source` or `date` value can match, read from its relation — for a list that must not
 * walk every issue when the value is rare. SQLite has no per-value statistics and walks by rule; PostgreSQL's
 * planner misjudges them too, as the tag and the files are named through another table (on the local engine
 * a tag on 10 of 100,000 issues took 894 ms, a day without events 198 ms). MySQL keeps its own choice (dialect
 * `planGate`: null).
 */
export interface IssueCandidates {
  /** Uncorrelated: true when the relation holds fewer than FEW_CANDIDATE_ROWS rows for the value (reads at most that many index entries). */
  readonly few: Fragment
  /** `FROM … WHERE …` over the candidates' issues `g`, with `where` applied: the candidates read first, then each issue by its key. */
  issues(where: Fragment): Fragment
  /** What makes an arm of `limit` rows run only `when` the value is rare (`few`) or not (`many`): a WHERE term, and the LIMIT. */
  gate(when: 'few' | 'many', limit: number): { readonly where: Fragment; readonly limit: Fragment }
}

/**
 * The candidates of the first of `tag`, `source`, `date` present (the likeliest to be rare first), or null when
 * none is, with `q` (a search reads every issue anyway), or where the engine cannot switch plans (MySQL).
 */
export function issueCandidates(scope: AppScope, filters: IssueFilters): IssueCandidates | null {
  const { t, db } = scope
  const mode = db.dialect.planGate
  if (mode === null || filters.q !== undefined) return null
  const rows = relationRows(scope, filters)
  if (rows === null) return null
  const threshold = raw(String(FEW_CANDIDATE_ROWS))
  const few = sql`(SELECT COUNT(*) FROM (SELECT 1 AS one FROM (${rows}) r LIMIT ${threshold}) n) < ${threshold}`
  return {
    few,
    // The LIMIT never cuts (the candidates are read only when fewer), and bounds the list for the planner.
    issues: (where) => sql`${db.dialect.rowsById(t.groups, 'g', sql`SELECT r.group_id AS id FROM (${rows}) r LIMIT ${threshold}`)} AND ${where}`,
    gate: (when, limit) => {
      const test = when === 'few' ? few : sql`NOT (${few})`
      const size = raw(String(limit))
      return mode === 'limit' ? { where: sql`1 = 1`, limit: sql`CASE WHEN ${test} THEN ${size} ELSE 0 END` } : { where: test, limit: sql`${size}` }
    },
  }
}

/** The relation's rows (`group_id`) for the filter's value: each matching issue at least once. */
function relationRows(scope: AppScope, filters: IssueFilters): Fragment | null {
  const { t } = scope
  if (filters.tag !== undefined) {
    const byId = asId(filters.tag)
    return sql`SELECT ct.group_id FROM ${raw(t.groupTags)} ct WHERE ct.tag_id IN (SELECT tc.id FROM ${raw(t.tags)} tc
        WHERE tc.name_key = ${nameKey(filters.tag)}${byId === null ? raw('') : sql` OR tc.id = ${byId}`})`
  }
  if (filters.source !== undefined) {
    return sql`SELECT cs.group_id FROM ${raw(t.groupSources)} cs WHERE cs.source_file_id IN (${sourceFiles(scope, filters.source, 'fs.id')})`
  }
  if (filters.date !== undefined) {
    // The day's rows (its range of the (day, severity, group_id) index), and the non-ingested issues created
    // that day (the (origin, created_at) index), as the filter itself says (issue-filters.ts).
    return sql`SELECT cd.group_id FROM ${raw(t.groupDays)} cd WHERE cd.day = ${filters.date}
        UNION ALL SELECT cg.id AS group_id FROM ${raw(t.groups)} cg WHERE ${createdOnDay('cg', filters.date)}`
  }
  return null
}
