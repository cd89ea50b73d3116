import { Fragment, join, raw, sql } from '../../drivers/sql.ts'
import { SEVERITIES } from '../../shared/constants.ts'
import type { AppScope } from '../apps/app-scope.ts'
import { nameKey } from '../tags/tag-queries.ts'
import type { IssueFilters } from './issue-search.ts'

/**
 * The WHERE clause (over `g`, the issues) for a set of filters, as a fragment whose arguments follow its
 * placeholders (drivers/sql.ts). Filters that would need
 * occurrences read the derived tables instead: `group_days` for `date`, `group_sources` for `source` and
 * the file part of `q` — so no filter scans the occurrences table.
 */
export function issueFilterSql(scope: AppScope, filters: IssueFilters): Fragment {
  const { t, db } = scope
  const d = db.dialect
  const T = (name: keyof typeof t) => raw(t[name])
  /** Case-insensitive substring test of a column against a value (never LIKE: see below). */
  const has = (column: string, value: string) => new Fragment(d.containsCi(column, '?'), [value])
  const conditions: Fragment[] = []

  if (filters.q !== undefined) {
    // A substring test, not LIKE: D1 refuses LIKE patterns over 50 bytes, and the text stays literal.
    const q = filters.q
    conditions.push(sql`(${has('g.title', q)} OR ${has('g.sample_message', q)} OR ${has('g.exception_class', q)} OR ${has('g.source_frame', q)}
        OR g.module_id IN (SELECT mq.id FROM ${T('modules')} mq WHERE ${has('mq.name', q)})
        OR g.id IN (SELECT gsq.group_id FROM ${T('groupSources')} gsq JOIN ${T('sourceFiles')} fq ON fq.id = gsq.source_file_id
          WHERE ${has('fq.path', q)} OR ${has('fq.channel', q)}))`)
  }
  if (filters.severity !== undefined) conditions.push(sql`g.severity = ${filters.severity}`)
  if (filters.minSeverity !== undefined) {
    // `min_severity`: this severity and worse (issue 17 item 3; SEVERITIES is most severe first), as a range of
    // the generated band (migration 0013), the leading column of the priority sort's index.
    conditions.push(sql`g.severity_rank <= ${SEVERITIES.indexOf(filters.minSeverity)}`)
  }
  if (filters.status !== undefined) conditions.push(sql`g.status = ${filters.status}`)
  if (filters.logType !== undefined) conditions.push(sql`g.log_type = ${filters.logType}`)
  if (filters.origin !== undefined) conditions.push(sql`g.origin = ${filters.origin}`)
  if (filters.kind !== undefined) conditions.push(sql`g.kind = ${filters.kind}`)
  if (filters.module !== undefined) {
    const byId = asId(filters.module)
    conditions.push(
      sql`g.module_id IN (SELECT mm.id FROM ${T('modules')} mm WHERE mm.slug = ${filters.module.toLowerCase()} OR mm.name_key = ${nameKey(filters.module)}${byId === null ? raw('') : sql` OR mm.id = ${byId}`})`,
    )
  }
  if (filters.source !== undefined) {
    conditions.push(sql`g.id IN (SELECT gss.group_id FROM ${T('groupSources')} gss JOIN ${T('sourceFiles')} fs ON fs.id = gss.source_file_id
        WHERE fs.channel = ${filters.source} OR ${has('fs.path', filters.source)})`)
  }
  if (filters.date !== undefined) {
    // Issues with an occurrence that day, or non-ingested issues created that day (reference §3.1 `date`).
    conditions.push(
      sql`(g.id IN (SELECT gd.group_id FROM ${T('groupDays')} gd WHERE gd.day = ${filters.date}) OR (g.origin <> 'ingested' AND substr(g.created_at, 1, 10) = ${filters.date}))`,
    )
  }
  if (filters.tag !== undefined) {
    const byId = asId(filters.tag)
    conditions.push(sql`g.id IN (SELECT gtt.group_id FROM ${T('groupTags')} gtt JOIN ${T('tags')} tt ON tt.id = gtt.tag_id
        WHERE tt.name_key = ${nameKey(filters.tag)}${byId === null ? raw('') : sql` OR tt.id = ${byId}`})`)
  }
  if (filters.hasStack !== undefined) {
    conditions.push(sql`${raw(filters.hasStack ? "(g.sample_stack IS NOT NULL AND g.sample_stack <> '')" : "(g.sample_stack IS NULL OR g.sample_stack = '')")}`)
  }
  return join(conditions, ' AND ', '1 = 1')
}

/** A filter value that is a plain positive integer may also be an id (only then is it compared to ids). */
function asId(value: string): number | null {
  return /^\d{1,15}$/.test(value) ? Number(value) : null
}
