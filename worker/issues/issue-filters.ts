import { Fragment, join, raw, sql } from '../../drivers/sql.ts'
import { SEVERITIES } from '../../shared/constants.ts'
import type { AppScope } from '../apps/app-scope.ts'
import { nameKey } from '../tags/tag-queries.ts'
import type { IssueFilters } from './issue-search.ts'
import { needleMask, signatureCandidates } from './search-signature.ts'

/**
 * The WHERE clause (over `g`, the issues) for a set of filters, as a fragment whose arguments follow its
 * placeholders (drivers/sql.ts). Filters that would need
 * occurrences read the derived tables instead: `group_days` for `date`, `group_sources` for `source` and
 * the file part of `q` — so no filter scans the occurrences table. Each filter is written so that the
 * page (ORDER BY … LIMIT) can walk an index in list order and the total can count an index: equalities on
 * indexed columns, EXISTS probes or id membership tests for related rows (docs/performance.md, issue 18).
 * `use`: the page's WHERE, or the total's (issue-total.ts), which may name the same issues by other columns.
 */
export function issueFilterSql(scope: AppScope, filters: IssueFilters, use: 'page' | 'total' = 'page'): Fragment {
  const { t, db } = scope
  const d = db.dialect
  const T = (name: keyof typeof t) => raw(t[name])
  /** Case-insensitive substring test of a column against a value (never LIKE: see below). */
  const has = (column: string, value: string) => new Fragment(d.containsCi(column, '?'), [value])
  const conditions: Fragment[] = []
  /** A page's per-issue test of related rows, kept a probe on every engine (dialect `existsProbe`); a total's EXISTS. */
  const related = (subquery: Fragment) => (use === 'page' ? d.existsProbe(subquery) : sql`EXISTS (${subquery})`)

  if (filters.q !== undefined) {
    // A substring test, not LIKE: D1 refuses LIKE patterns over 50 bytes, and the text stays literal.
    const q = filters.q
    // The exact test. Where the issues' text is indexed, `issuesWhere` reads only the issues it may admit.
    const { modules, files } = relatedMatches(scope, q)
    conditions.push(sql`(${has('g.title', q)} OR ${has('g.sample_message', q)} OR ${has('g.exception_class', q)} OR ${has('g.source_frame', q)}
        OR g.module_id IN (${modules}) OR g.id IN (${files}))`)
  }
  if (filters.severity !== undefined) conditions.push(sql`g.severity = ${filters.severity}`)
  if (filters.minSeverity !== undefined) {
    // `min_severity`: this severity and worse (issue 17 item 3; SEVERITIES is most severe first), as a range of
    // the generated band (migration 0013), the leading column of the priority sort's index.
    // A total counts the same issues as `severity IN (…)` (the band's CASE maps exactly those severities to
    // 0…n): SQLite reads the virtual `severity_rank` from each issue row — with `status=open` 1.1 s at 100,000
    // issues — while `severity` is in the covering indexes of 0012 (27 ms; docs/performance.md, issue 18).
    const band = SEVERITIES.slice(0, SEVERITIES.indexOf(filters.minSeverity) + 1)
    conditions.push(use === 'total' ? sql`g.severity IN (${join(band.map((severity) => sql`${severity}`), ', ')})` : sql`g.severity_rank <= ${band.length - 1}`)
  }
  if (filters.status !== undefined) conditions.push(sql`g.status = ${filters.status}`)
  if (filters.logType !== undefined) conditions.push(sql`g.log_type = ${filters.logType}`)
  if (filters.origin !== undefined) conditions.push(sql`g.origin = ${filters.origin}`)
  if (filters.kind !== undefined) conditions.push(sql`g.kind = ${filters.kind}`)
  if (filters.module !== undefined) {
    // One module, as an equality: `module_id = <scalar>` lets the (module_id, last_seen, count) index of
    // migration 0012 return the newest page in order (an IN list cannot: issue 18).
    conditions.push(sql`g.module_id = ${moduleIdSql(scope, filters.module)}`)
  }
  if (filters.source !== undefined) {
    // EXISTS probes each issue — not a list of every (issue, file) pair built and sorted (issue 18). The page
    // (it stops after its 50 rows) seeks (group_id, source_file_id) once per matching file. The total reads
    // each issue's few pairs instead and tests them against the files' list (`unindexed`): with 20 matching
    // files, 20 seeks per issue cost 111–116 ms at 100,000 issues against 47 ms (docs/performance.md).
    const file = use === 'total' ? d.unindexed('gss.source_file_id') : 'gss.source_file_id'
    conditions.push(related(sql`SELECT 1 FROM ${T('groupSources')} gss WHERE gss.group_id = g.id AND ${raw(file)} IN (${sourceFiles(scope, filters.source, 'fs.id')})`))
  }
  if (filters.date !== undefined) {
    // Issues with an occurrence that day, or non-ingested issues created that day (reference §3.1 `date`).
    // A page that walks a sort index probes each issue it reads: the (group_id, day) key of `group_days`, and
    // the issue's own columns — so 50 rows cost a few hundred probes, not the day's whole id list (28,000 at
    // 1,000,000 occurrences: 12 → 3 ms; docs/performance.md "Day rows, channel rows and probing pages").
    // A total, and a `q` page (which reads every issue anyway), test membership in two id lists instead, which
    // every index of the issues carries, so the count reads an index (with `severity=` too: 132 → 28 ms at
    // 100,000 issues; a `q` page 162 ms against 209 ms with probes). The unary `+` keeps SQLite from driving
    // the query from the lists; `< OR >` is `<>` as two ranges of the (origin, created_at) index of 0012.
    if (use === 'page' && filters.q === undefined) {
      conditions.push(sql`(EXISTS (SELECT 1 FROM ${T('groupDays')} gd WHERE gd.group_id = g.id AND gd.day = ${filters.date}) OR ${createdOnDay('g', filters.date)})`)
    } else {
      conditions.push(sql`(+g.id IN (SELECT gd.group_id FROM ${T('groupDays')} gd WHERE gd.day = ${filters.date})
          OR +g.id IN (SELECT gc.id FROM ${T('groups')} gc WHERE ${createdOnDay('gc', filters.date)}))`)
    }
  }
  if (filters.tag !== undefined) {
    // EXISTS on the (group_id, tag_id) key, as for `source`: the page reads its rows in list order.
    conditions.push(related(sql`SELECT 1 FROM ${T('groupTags')} gtt JOIN ${T('tags')} tt ON tt.id = gtt.tag_id
        WHERE gtt.group_id = g.id AND ${namesTag('tt', filters.tag)}`))
  }
  if (filters.hasStack !== undefined) {
    conditions.push(sql`${raw(filters.hasStack ? "(g.sample_stack IS NOT NULL AND g.sample_stack <> '')" : "(g.sample_stack IS NULL OR g.sample_stack = '')")}`)
  }
  return join(conditions, ' AND ', '1 = 1')
}

/**
 * `FROM … WHERE <where>` over the issues (`g`) a search with these filters reads. With `q`, where the issues'
 * text is indexed — signatures (SQLite 0021, MySQL 0023), a trigram-indexed search text (PostgreSQL 0022) —
 * only the issues the index admits, plus those of matching modules and files: that id list is read first and
 * each issue found by its key (dialect `rowsById`), instead of a scan of every issue; `where` (issueFilterSql)
 * still tests each exactly. Otherwise every issue.
 */
export function issuesWhere(scope: AppScope, filters: IssueFilters, where: Fragment): Fragment {
  const { t, db } = scope
  const admitted = filters.q === undefined ? null : textCandidates(scope, filters.q)
  if (admitted === null) return sql`FROM ${raw(t.groups)} g WHERE ${where}`
  const { modules, files } = relatedMatches(scope, filters.q!)
  const ids = sql`${admitted} UNION ALL SELECT gmq.id FROM ${raw(t.groups)} gmq WHERE gmq.module_id IN (${modules}) UNION ALL ${files}`
  return sql`${db.dialect.rowsById(t.groups, 'g', ids)} AND ${where}`
}

/**
 * `q`'s matches apart from the issues' own text: the modules whose name holds it, and the issues of the files
 * whose path or channel does — read from the matching files' ranges of group_sources (source_file_id,
 * group_id), not from every (issue, file) pair joined to its file.
 */
function relatedMatches(scope: AppScope, q: string): { modules: Fragment; files: Fragment } {
  const { t, db } = scope
  const has = (column: string) => new Fragment(db.dialect.containsCi(column, '?'), [q])
  return {
    modules: sql`SELECT mq.id FROM ${raw(t.modules)} mq WHERE ${has('mq.name')}`,
    files: sql`SELECT gsq.group_id FROM ${raw(t.groupSources)} gsq WHERE gsq.source_file_id IN (SELECT fq.id FROM ${raw(t.sourceFiles)} fq
          WHERE ${has('fq.path')} OR ${has('fq.channel')})`,
  }
}

/**
 * The issues whose own text may contain `q` (a superset), from the dialect's index of it, or null where there
 * is none or it cannot narrow this needle: a signature needs a trigram of the needle (needleMask); pg_trgm
 * looks a LIKE pattern up by its runs of three letters or digits, and without one it reads every entry of the
 * index — more than the scan it would replace.
 */
function textCandidates(scope: AppScope, q: string): Fragment | null {
  const { t, db } = scope
  const d = db.dialect
  if (d.searchSignature) {
    const mask = needleMask(q)
    return mask ? signatureCandidates(t.searchSignatures, 'gsig', mask) : null
  }
  if (d.searchTextMatch !== null && /[\p{L}\p{N}]{3}/u.test(q)) {
    return sql`SELECT gst.group_id FROM ${raw(t.searchText)} gst WHERE ${new Fragment(d.searchTextMatch('gst.haystack', '?'), [q])}`
  }
  return null
}

/**
 * The id of the module a `module` value names, as a scalar (NULL when none): slug, name and id are each
 * unique, so a value names at most three modules; the slug wins, then the name (docs/deviations.md).
 */
export function moduleIdSql(scope: AppScope, module: string): Fragment {
  const byId = asId(module)
  const named = (where: Fragment) => sql`(SELECT mm.id FROM ${raw(scope.t.modules)} mm WHERE ${where})`
  const candidates = [named(sql`mm.slug = ${module.toLowerCase()}`), named(sql`mm.name_key = ${nameKey(module)}`)]
  if (byId !== null) candidates.push(named(sql`mm.id = ${byId}`))
  return sql`COALESCE(${join(candidates, ', ')})`
}

/** `columns` of the source files (`fs`) a `source` value names: its channel, or a substring of its path (reference §3.1). */
export function sourceFiles(scope: AppScope, source: string, columns: string): Fragment {
  const { t, db } = scope
  return sql`SELECT ${raw(columns)} FROM ${raw(t.sourceFiles)} fs WHERE fs.channel = ${source} OR ${new Fragment(db.dialect.containsCi('fs.path', '?'), [source])}`
}

/**
 * The `date` filter's second half over the issue alias `alias`: a non-ingested issue (manual, tracker) created
 * that day (reference §3.1). `< OR >` is `<>` as two ranges of the (origin, created_at) index of migration 0012.
 */
export function createdOnDay(alias: string, date: string): Fragment {
  return sql`(${raw(alias)}.origin < 'ingested' OR ${raw(alias)}.origin > 'ingested') AND substr(${raw(alias)}.created_at, 1, 10) = ${date}`
}

/**
 * Whether the tag row `alias` is one a `tag` value names: the tag with that name (case-insensitive, as tags are
 * unique by `name_key`) or, when the value is a number, the tag with that id — so a value names at most two tags
 * (the filter here, the candidates' rows in issue-candidates.ts; issue-total.ts counts the two apart).
 */
export function namesTag(alias: string, tag: string): Fragment {
  const byId = asId(tag)
  return sql`(${raw(alias)}.name_key = ${nameKey(tag)}${byId === null ? raw('') : sql` OR ${raw(alias)}.id = ${byId}`})`
}

/** A filter value that is a plain positive integer may also be an id (only then is it compared to ids). */
export function asId(value: string): number | null {
  return /^\d{1,15}$/.test(value) ? Number(value) : null
}
