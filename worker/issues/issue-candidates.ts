import { type Fragment, join, raw, sql } from '../../drivers/sql.ts'
import type { AppScope } from '../apps/app-scope.ts'
import { createdOnDay, namesTag, sourceFiles } from './issue-filters.ts'
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
 * a tag on 10 of 100,000 issues took 894 ms, a day without events 198 ms); MySQL walked the sort index through
 * every issue for a quiet day (PlanetScale `date=` 5.78× from the small corpus to 300,000 occurrences).
 */
export interface IssueCandidates {
  /** Uncorrelated: true when a relation holds fewer than FEW_CANDIDATE_ROWS rows for its value (each count reads at most that many index entries). */
  readonly few: Fragment
  /** `FROM … WHERE …` over the candidates' issues `g`, with `where` applied: the candidates read first, then each issue by its key. */
  issues(where: Fragment): Fragment
  /** What makes an arm of `limit` rows run only `when` the value is rare (`few`) or not (`many`): a WHERE term, and the LIMIT. */
  gate(when: 'few' | 'many', limit: number): { readonly where: Fragment; readonly limit: Fragment }
}

/**
 * The candidates of the first of `tag`, `source`, `date` present whose value is rare, or null when none of them
 * is a filter, with `q` (a search reads every issue anyway), or where the engine cannot switch plans (`planGate`).
 * Each present relation's rows are counted (at most FEW_CANDIDATE_ROWS index entries each) and the first with
 * fewer is read: a common tag on a quiet day reads the day's rows, where deciding by the tag alone walked every
 * issue. Any rare relation bounds the candidates, so the first one will do; the list is `few` when one is.
 */
export function issueCandidates(scope: AppScope, filters: IssueFilters): IssueCandidates | null {
  const { t, db } = scope
  const mode = db.dialect.planGate
  if (mode === null || filters.q !== undefined) return null
  const relations = relationRows(scope, filters)
  if (relations.length === 0) return null
  const threshold = raw(String(FEW_CANDIDATE_ROWS))
  const rare = relations.map((rows) => sql`(SELECT COUNT(*) FROM (SELECT 1 AS one FROM (${rows}) r LIMIT ${threshold}) n) < ${threshold}`)
  const few = rare.length === 1 ? rare[0]! : sql`(${join(rare, ' OR ')})`
  const gate = (test: Fragment, limit: Fragment) =>
    mode === 'limit' ? { where: sql`1 = 1`, limit: sql`CASE WHEN ${test} THEN ${limit} ELSE 0 END` } : { where: test, limit: sql`${limit}` }
  // With several relations, each one's rows are an arm that runs only when it is the first rare one: a gate
  // as for the list's arms (on SQLite a LIMIT computed to 0, so a common value's rows are never read).
  const rows = relations.length === 1 ? relations[0]! : join(relations.map((relation, index) => {
    const first = join([...rare.slice(0, index).map((test) => sql`NOT (${test})`), rare[index]!], ' AND ')
    const arm = gate(first, sql`${threshold}`)
    return sql`SELECT ra.group_id FROM (SELECT r.group_id FROM (${relation}) r WHERE ${arm.where} LIMIT ${arm.limit}) ra`
  }), ' UNION ALL ')
  return {
    few,
    // The LIMIT never cuts (the candidates are read only when fewer), and bounds the list for the planner.
    issues: (where) => sql`${db.dialect.rowsById(t.groups, 'g', sql`SELECT r.group_id AS id FROM (${rows}) r LIMIT ${threshold}`)} AND ${where}`,
    gate: (when, limit) => gate(when === 'few' ? few : sql`NOT (${few})`, sql`${raw(String(limit))}`),
  }
}

/** The rows (`group_id`) of each relation filter present, in the order tag, source, date: each matching issue at least once. */
function relationRows(scope: AppScope, filters: IssueFilters): Fragment[] {
  const { t } = scope
  const relations: Fragment[] = []
  if (filters.tag !== undefined) {
    relations.push(sql`SELECT ct.group_id FROM ${raw(t.groupTags)} ct WHERE ct.tag_id IN (SELECT tc.id FROM ${raw(t.tags)} tc WHERE ${namesTag('tc', filters.tag)})`)
  }
  if (filters.source !== undefined) {
    // The callers stop every relation at FEW_CANDIDATE_ROWS; PostgreSQL reads a few files' ranges only as
    // limitedRowsOf writes them (a rare file's count read every pair of `group_sources` as `IN`).
    relations.push(scope.db.dialect.limitedRowsOf(t.groupSources, 'cs', 'source_file_id', sourceFiles(scope, filters.source, 'fs.id'), ['group_id'], FEW_CANDIDATE_ROWS))
  }
  if (filters.date !== undefined) {
    // The day's rows (its range of the (day, severity, group_id) index), and the non-ingested issues created
    // that day (the (origin, created_at) index), as the filter itself says (issue-filters.ts).
    relations.push(sql`SELECT cd.group_id FROM ${raw(t.groupDays)} cd WHERE cd.day = ${filters.date}
        UNION ALL SELECT cg.id AS group_id FROM ${raw(t.groups)} cg WHERE ${createdOnDay('cg', filters.date)}`)
  }
  return relations
}
