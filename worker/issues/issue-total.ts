import { Fragment, join, raw, sql } from '../../drivers/sql.ts'
import { SEVERITIES } from '../../shared/constants.ts'
import type { AppScope } from '../apps/app-scope.ts'
import { nameKey } from '../tags/tag-queries.ts'
import { FEW_CANDIDATE_ROWS, issueCandidates } from './issue-candidates.ts'
import { asId, createdOnDay, issueFilterSql, issuesWhere, moduleIdSql, sourceFiles } from './issue-filters.ts'
import type { IssueFilters } from './issue-search.ts'

/**
 * The statement counting the issues a list's filters match (its `total`), always equal to the general form
 * `SELECT COUNT(*) FROM error_groups g WHERE <issueFilterSql>`. That form visits every matching issue and runs
 * the filter's probe for each — one EXISTS per issue for `tag` and `source`, two id membership tests for
 * `date` — so at 100,000 issues the total, not the page, made those lists grow past issue 18's 2× bound. When
 * such a filter stands alone, the count reads the relation's own index instead and never an issue
 * (docs/performance.md "Totals from the relation's index"):
 *
 * - `tag`: the tag's rows of `error_group_tags` over its (tag_id) index; (group_id, tag_id) is the key, so a
 *   row is an issue;
 * - `source` naming one file: that file's range of `group_sources (source_file_id, group_id)`; naming exactly
 *   one channel's files: the channel's range of `group_channels (channel, group_id)`; naming files that leave at
 *   most 2,000 pairs to the others: the issues less those without a pair in the named files, counted from the
 *   others' side;
 * - `date`, also with `severity` or `min_severity`: the day's (and severity's) range of
 *   `group_days (day, severity, group_id)` plus the non-ingested issues created that day without an
 *   occurrence that day;
 * - no filter, or only `module`, `severity`, `min_severity`, `status` and `log_type`: the matching rows of
 *   `issue_rollup` (migration 0016), never an issue.
 *
 * Combined with other filters the general form stays: driving from the relation and probing each issue's
 * other columns measured slower (severity + date from the day's rows joined to their issues: 39 → 397 ms,
 * which is why the day rows now carry the severity themselves). The general form takes the total's WHERE
 * (`issueFilterSql(…, 'total')`: `min_severity` as a severity list, which the covering indexes hold).
 * Counting relation rows relies on every row having its issue: deleting an issue deletes its rows (ON DELETE
 * CASCADE, or explicitly where SQLite does not enforce it: dialect `cascadesDeletes`); the tags list counts
 * assignments the same way (tag-queries.ts).
 */
export function issueTotalSql(scope: AppScope, filters: IssueFilters): Fragment {
  const set = (Object.keys(filters) as (keyof IssueFilters)[]).filter((key) => filters[key] !== undefined)
  const alone = (key: keyof IssueFilters) => set.length === 1 && set[0] === key
  const general = () => generalTotal(scope, filters)
  if (set.every((key) => ROLLUP_FILTERS.has(key))) return rollupTotal(scope, filters)
  if (filters.tag !== undefined && alone('tag')) return tagTotal(scope, filters.tag)
  if (filters.source !== undefined && alone('source')) return sourceTotal(scope, filters.source, general())
  if (filters.date !== undefined && set.every((key) => key === 'date' || key === 'severity' || key === 'minSeverity')) {
    return dateTotal(scope, filters.date, filteredSeverities(filters))
  }
  return general()
}

/** The filters that name columns of `issue_rollup`'s key (migration 0016): module, severity, status, log type. */
const ROLLUP_FILTERS: ReadonlySet<keyof IssueFilters> = new Set(['module', 'severity', 'minSeverity', 'status', 'logType'])

/**
 * No filter, or only `module`, `severity`, `min_severity`, `status` and `log_type`: the sum of the matching rows
 * of `issue_rollup` (migration 0016) — the issues per (module, severity, status, log type), kept exact by
 * triggers on every write to the issues, as the summary and the modules list read it. A few dozen rows, where
 * counting an index range of the issues grew with them: `status=open`, `module=`, `log_type=` and the plain
 * list were the reads closest to issue 18's 2× bound (1.5–1.9× from 2,305 to 99,992 issues), each counting
 * every issue at scale (docs/performance.md "Totals from the rollup").
 */
function rollupTotal(scope: AppScope, filters: IssueFilters): Fragment {
  const conditions: Fragment[] = []
  if (filters.module !== undefined) conditions.push(sql`r.module_key = ${moduleIdSql(scope, filters.module)}`)
  const severities = filteredSeverities(filters)
  if (severities !== null) conditions.push(severities.length === 0 ? sql`1 = 0` : sql`r.severity IN (${join(severities.map((severity) => sql`${severity}`), ', ')})`)
  if (filters.status !== undefined) conditions.push(sql`r.status = ${filters.status}`)
  if (filters.logType !== undefined) conditions.push(sql`r.log_type = ${filters.logType}`)
  return sql`SELECT COALESCE(SUM(r.issues), 0) AS total FROM ${raw(scope.t.issueRollup)} r WHERE ${join(conditions, ' AND ', '1 = 1')}`
}

/**
 * The general form. With a `tag`, `source` or `date` among other filters, on SQLite and PostgreSQL, it counts
 * the value's own issues when they are few (issue-candidates.ts) instead of testing every issue the other
 * filters leave: a rare tag with `status=open` visited the 90,000 open issues of 100,000.
 */
function generalTotal(scope: AppScope, filters: IssueFilters): Fragment {
  const { t } = scope
  const where = issueFilterSql(scope, filters, 'total')
  const candidates = issueCandidates(scope, filters)
  if (candidates === null) return sql`SELECT COUNT(*) AS total ${issuesWhere(scope, filters, where)}`
  // The few candidates are tested as a page tests its rows (probes per issue): the total's id lists would
  // build a busy day's whole list (28,000 ids) to test 9 issues of a rare tag: 5.6 against 0.6 ms at 100,000
  // issues (docs/performance.md "Several relation filters").
  return sql`SELECT CASE WHEN ${candidates.few} THEN (SELECT COUNT(*) ${candidates.issues(issueFilterSql(scope, filters, 'page'))})
      ELSE (SELECT COUNT(*) FROM ${raw(t.groups)} g WHERE ${where}) END AS total`
}

/**
 * A tag value names the tag with that name and, when it is a number, the tag with that id — possibly two
 * tags (issue-filters.ts). The id's tag counts its rows; the name's tag (when it is another one) counts its
 * rows minus the issues that also carry the id's tag. The dashboard filters by id, so the second count
 * usually has no tag and reads nothing.
 */
function tagTotal(scope: AppScope, tag: string): Fragment {
  const { t } = scope
  const GT = raw(t.groupTags)
  const byName = sql`SELECT tn.id FROM ${raw(t.tags)} tn WHERE tn.name_key = ${nameKey(tag)}`
  const byId = asId(tag)
  if (byId === null) return sql`SELECT COUNT(*) AS total FROM ${GT} gt WHERE gt.tag_id = (${byName})`
  return sql`SELECT (SELECT COUNT(*) FROM ${GT} gt WHERE gt.tag_id = (SELECT ti.id FROM ${raw(t.tags)} ti WHERE ti.id = ${byId}))
      + (SELECT COUNT(*) FROM ${GT} gt WHERE gt.tag_id = (${byName} AND tn.id <> ${byId})
        AND NOT EXISTS (SELECT 1 FROM ${GT} gx WHERE gx.group_id = gt.group_id AND gx.tag_id = ${byId})) AS total`
}

/**
 * The issues of the matching files, by the narrowest relation that answers exactly:
 * - one file (a path naming one file): a plain range count of `group_sources (source_file_id, group_id)`, each
 *   (file, issue) pair one row. The file is an equality with a scalar (MIN: one row whatever the engine
 *   evaluates early), not an IN list, which PostgreSQL planned as a hash join over all of `group_sources`
 *   (101 ms against 3 ms);
 * - exactly the files of one channel (a channel is a base name: the same log from several servers or module
 *   folders): the channel's range of `group_channels (channel, group_id)` (migration 0018), one row per
 *   issue — 20 files, 100,000 issues: 130–153 → 5 ms in-process (docs/performance.md "Day rows, channel rows
 *   and probing pages");
 * - files of several channels holding nearly every pair (a fragment naming most files, as `laravel` names
 *   every daily `laravel-YYYY-MM-DD.log`): counted from the other side, `outsideTotal` below, when the files
 *   it does not name hold at most SMALL_OUTSIDE pairs;
 * - any other set: the general count (the distinct issues of their `group_sources` ranges read every
 *   (file, issue) pair: 316 ms against 162 ms for one probe per issue at 100,000 issues in 20 files).
 * "Exactly one channel's files": every matching file has the channel C of the first (MIN), and C has no more
 * files than match. SQLite, PostgreSQL (InitPlans) and MySQL evaluate a CASE branch's subquery only when the
 * branch is taken.
 */
function sourceTotal(scope: AppScope, source: string, general: Fragment): Fragment {
  const { t } = scope
  const files = (columns: string) => sourceFiles(scope, source, columns)
  const channel = () => sql`(SELECT MIN(f.channel) FROM (${files('fs.channel')}) f)`
  return sql`SELECT CASE WHEN (SELECT COUNT(*) FROM (${files('fs.id')}) f) <= 1
        THEN (SELECT COUNT(*) FROM ${raw(t.groupSources)} gs WHERE gs.source_file_id = (SELECT MIN(f.id) FROM (${files('fs.id')}) f))
      WHEN NOT EXISTS (SELECT 1 FROM (${files('fs.channel')}) f WHERE f.channel IS NULL OR f.channel <> ${channel()})
        AND (SELECT COUNT(*) FROM ${raw(t.sourceFiles)} fc WHERE fc.channel = ${channel()}) = (SELECT COUNT(*) FROM (${files('fs.id')}) f)
        THEN (SELECT COUNT(*) FROM ${raw(t.groupChannels)} gc WHERE gc.channel = ${channel()})
      WHEN (SELECT COUNT(*) FROM (${outsideIssueIds(scope, source, SMALL_OUTSIDE + 1)}) oq) <= ${raw(String(SMALL_OUTSIDE))}
        THEN (${outsideTotal(scope, source)})
      ELSE (${general}) END AS total`
}

/**
 * The most (file, issue) pairs the files a `source` value does not name may hold for its total to be counted
 * from their side: at most this many pairs read, each with its issue's pairs probed, whatever the number of
 * issues — the stop of the rare-value count (issue-candidates.ts), which answers the opposite case: a value
 * whose own files hold few pairs.
 */
const SMALL_OUTSIDE = FEW_CANDIDATE_ROWS

/**
 * The issues (`group_id`) of at most `limit` (file, issue) pairs of the files a `source` value does not name, read
 * from the files' ranges of `group_sources (source_file_id, group_id)` (dialect `limitedRowsOf`).
 */
function outsideIssueIds(scope: AppScope, source: string, limit: number): Fragment {
  const { t, db } = scope
  const files = sql`SELECT fo.id FROM ${raw(t.sourceFiles)} fo WHERE fo.id NOT IN (${sourceFiles(scope, source, 'fs.id')})`
  return db.dialect.limitedRowsOf(t.groupSources, 'go', 'source_file_id', files, ['group_id'], limit)
}

/**
 * The issues with a pair in the named files F, counted from the side of the files F' it does not name:
 *
 *   |issues with a pair in F| = |issues| − |issues with no pair| − |issues whose pairs all lie in F'|
 *
 * - |issues|: the sum of `issue_rollup` (migration 0016), a few dozen rows;
 * - issues with no pair are issues without an occurrence (each occurrence has its file, and `group_sources`
 *   follows the occurrences: digest, merge, deletion). An ingested issue is created with an occurrence, and a
 *   deletion that empties it deletes it unless it is a merge target (delete-occurrences.ts). So they are among
 *   the non-ingested issues (manual, tracker: their (origin) index ranges) and the ingested merge targets (read
 *   from `issue_aliases`), each probed for a pair; the plan test plants an ingested issue without a pair to
 *   show that this branch answered;
 * - issues whose pairs all lie in F': the distinct issues of F''s pairs (at most SMALL_OUTSIDE), each probed
 *   for a pair in F. The LIMIT (which the branch's condition makes a no-op) and the scalar probe keep
 *   PostgreSQL from estimating F''s pairs from averages (400,000 of 800,000) and hashing all of `group_sources`
 *   for an anti-join (373 ms), or compiling the statement with JIT (its estimated cost then passed
 *   jit_above_cost: 280 ms of compilation for a 1 ms count).
 * Exact, and bounded by the non-ingested issues, the merge targets and SMALL_OUTSIDE, not by the issues:
 * the bench's `source=laravel.log` names all 20 files of its 100,000 issues (docs/performance.md).
 */
function outsideTotal(scope: AppScope, source: string): Fragment {
  const { t, db } = scope
  const GS = raw(t.groupSources)
  const named = () => sourceFiles(scope, source, 'fs.id')
  const noPair = (alias: string) => sql`NOT EXISTS (SELECT 1 FROM ${GS} np WHERE np.group_id = ${raw(alias)}.id)`
  const mergeTargets = sql`SELECT (SELECT gt.id FROM ${raw(t.groups)} gt WHERE gt.fingerprint = ia.target_fingerprint) AS id FROM ${raw(t.issueAliases)} ia`
  return sql`SELECT (SELECT COALESCE(SUM(r.issues), 0) FROM ${raw(t.issueRollup)} r)
      - (SELECT COUNT(*) FROM ${raw(t.groups)} gn WHERE (gn.origin < 'ingested' OR gn.origin > 'ingested') AND ${noPair('gn')})
      - (SELECT COUNT(*) ${db.dialect.rowsById(t.groups, 'gm', mergeTargets)} AND gm.origin = 'ingested' AND ${noPair('gm')})
      - (SELECT COUNT(*) FROM (SELECT DISTINCT op.group_id FROM (${outsideIssueIds(scope, source, SMALL_OUTSIDE)}) op) o
          WHERE (SELECT 1 FROM ${GS} gi WHERE gi.group_id = o.group_id AND gi.source_file_id IN (${named()}) LIMIT 1) IS NULL)`
}

/**
 * `date`, alone or with `severity` / `min_severity`: the day's rows of `group_days (day, severity, group_id)` —
 * one per issue with an occurrence that day, carrying the issue's severity (migration 0017) — plus the
 * non-ingested issues created that day that have none: disjoint, so the sum is the count of the filter's OR,
 * and the first part reads one range of the index, never an issue row. With a severity the general form
 * visited every issue of the severity (75,000 of 100,000) to probe the day's list: 9–10 ms against ~1 ms
 * (docs/performance.md "Day rows, channel rows and probing pages").
 */
function dateTotal(scope: AppScope, date: string, severities: readonly string[] | null): Fragment {
  const { t } = scope
  const GD = raw(t.groupDays)
  if (severities !== null && severities.length === 0) return sql`SELECT 0 AS total`
  const inBand = (column: string) => (severities === null ? raw('') : sql` AND ${raw(column)} IN (${join(severities.map((severity) => sql`${severity}`), ', ')})`)
  // The issues' severity test stays off the (severity, status) index — SQLite would walk the severity's 75,000
  // issues with it — so the few non-ingested issues created that day come from the (origin, created_at) index.
  return sql`SELECT (SELECT COUNT(*) FROM ${GD} gd WHERE gd.day = ${date}${inBand('gd.severity')})
      + (SELECT COUNT(*) FROM ${raw(t.groups)} g WHERE ${createdOnDay('g', date)}${inBand(scope.db.dialect.unindexed('g.severity'))}
        AND NOT EXISTS (SELECT 1 FROM ${GD} gn WHERE gn.group_id = g.id AND gn.day = ${date})) AS total`
}

/** The severities `severity` and `min_severity` leave (both: the one, if inside the band), or null for any. */
function filteredSeverities(filters: IssueFilters): readonly string[] | null {
  const band = filters.minSeverity === undefined ? null : SEVERITIES.slice(0, SEVERITIES.indexOf(filters.minSeverity) + 1)
  if (filters.severity === undefined) return band
  return band === null || band.includes(filters.severity) ? [filters.severity] : []
}
