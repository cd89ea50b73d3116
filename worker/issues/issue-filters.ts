import type { SqlValue } from '../../drivers/driver.ts'
import type { AppScope } from '../apps/app-scope.ts'
import { nameKey } from '../tags/tag-queries.ts'
import type { IssueFilters } from './issue-search.ts'

/**
 * The WHERE clause (over `g`, the issues) and its arguments for a set of filters. Filters that would need
 * occurrences read the derived tables instead: `group_days` for `date`, `group_sources` for `source` and
 * the file part of `q` — so no filter scans the occurrences table.
 */
export function issueFilterSql(scope: AppScope, filters: IssueFilters): { where: string; args: SqlValue[] } {
  const { t, db } = scope
  const d = db.dialect
  const conditions: string[] = []
  const args: SqlValue[] = []
  const add = (condition: string, ...values: SqlValue[]) => {
    conditions.push(condition)
    args.push(...values)
  }

  if (filters.q !== undefined) {
    // A substring test, not LIKE: D1 refuses LIKE patterns over 50 bytes, and the text stays literal.
    const has = (column: string) => d.containsCi(column, '?')
    add(
      `(${has('g.title')} OR ${has('g.sample_message')} OR ${has('g.exception_class')} OR ${has('g.source_frame')}
        OR g.module_id IN (SELECT mq.id FROM ${t.modules} mq WHERE ${has('mq.name')})
        OR g.id IN (SELECT gsq.group_id FROM ${t.groupSources} gsq JOIN ${t.sourceFiles} fq ON fq.id = gsq.source_file_id
          WHERE ${has('fq.path')} OR ${has('fq.channel')}))`,
      ...Array<string>(7).fill(filters.q),
    )
  }
  if (filters.severity !== undefined) add('g.severity = ?', filters.severity)
  if (filters.status !== undefined) add('g.status = ?', filters.status)
  if (filters.logType !== undefined) add('g.log_type = ?', filters.logType)
  if (filters.origin !== undefined) add('g.origin = ?', filters.origin)
  if (filters.kind !== undefined) add('g.kind = ?', filters.kind)
  if (filters.module !== undefined) {
    const byId = asId(filters.module)
    add(
      `g.module_id IN (SELECT mm.id FROM ${t.modules} mm WHERE mm.slug = ? OR mm.name_key = ?${byId === null ? '' : ' OR mm.id = ?'})`,
      filters.module.toLowerCase(), nameKey(filters.module), ...(byId === null ? [] : [byId]),
    )
  }
  if (filters.source !== undefined) {
    add(
      `g.id IN (SELECT gss.group_id FROM ${t.groupSources} gss JOIN ${t.sourceFiles} fs ON fs.id = gss.source_file_id
        WHERE fs.channel = ? OR ${d.containsCi('fs.path', '?')})`,
      filters.source, filters.source,
    )
  }
  if (filters.date !== undefined) {
    // Issues with an occurrence that day, or non-ingested issues created that day (reference §3.1 `date`).
    add(
      `(g.id IN (SELECT gd.group_id FROM ${t.groupDays} gd WHERE gd.day = ?) OR (g.origin <> 'ingested' AND substr(g.created_at, 1, 10) = ?))`,
      filters.date, filters.date,
    )
  }
  if (filters.tag !== undefined) {
    const byId = asId(filters.tag)
    add(
      `g.id IN (SELECT gtt.group_id FROM ${t.groupTags} gtt JOIN ${t.tags} tt ON tt.id = gtt.tag_id
        WHERE tt.name_key = ?${byId === null ? '' : ' OR tt.id = ?'})`,
      nameKey(filters.tag), ...(byId === null ? [] : [byId]),
    )
  }
  if (filters.hasStack !== undefined) {
    add(filters.hasStack ? "(g.sample_stack IS NOT NULL AND g.sample_stack <> '')" : "(g.sample_stack IS NULL OR g.sample_stack = '')")
  }
  return { where: conditions.length ? conditions.join(' AND ') : '1 = 1', args }
}

/** A filter value that is a plain positive integer may also be an id (only then is it compared to ids). */
function asId(value: string): number | null {
  return /^\d{1,15}$/.test(value) ? Number(value) : null
}
