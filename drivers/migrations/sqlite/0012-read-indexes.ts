import type { Migration } from '../migration.ts'

/**
 * The issue indexes of migration 0012, shared by SQLite and PostgreSQL (same syntax): name, then columns.
 *
 * Issue 18: a filtered list is a page (`ORDER BY … LIMIT 50`) and a total (`COUNT(*)`) over the same filter.
 * With a one-column index per filter, the page read every matching issue and sorted it (a 25,000-issue
 * `severity=WARNING` sorted 25,000 full rows, the tags subquery run for each). A (filter, sort key) index
 * returns the page in order and stops after 50 rows, and still counts the total from the index alone. The
 * index holds the whole ORDER BY, `id DESC` included: MySQL cannot sort only the tail of an order (SQLite and
 * PostgreSQL can), and InnoDB's implicit primary-key suffix is ascending, so without it MySQL sorted every
 * match ("Using filesort"). Each
 * filter gets one for the two orders people use — `newest` (the API's default) and `occurrences` (the
 * dashboard's); the one-column indexes they replace are their prefixes. `groups_breakdown` covers the
 * summary's GROUP BY severity, status, log type (count, last seen, and origin for its newest ingested event)
 * without reading the issue rows (a million
 * occurrences: 243 ms → 19 ms in the SQLite shell). `groups_origin_created` covers the non-ingested half of
 * the `date` filter. docs/performance.md has the plans before and after, and what the extra indexes cost
 * the import.
 */
export const READ_INDEXES: readonly (readonly [name: string, columns: string])[] = [
  ['groups_severity_seen', 'severity, last_seen DESC, count DESC, id DESC'],
  ['groups_severity_count', 'severity, count DESC, last_seen DESC, id DESC'],
  ['groups_status_seen', 'status, last_seen DESC, count DESC, id DESC'],
  ['groups_status_count', 'status, count DESC, last_seen DESC, id DESC'],
  ['groups_log_type_seen', 'log_type, last_seen DESC, count DESC, id DESC'],
  ['groups_log_type_count', 'log_type, count DESC, last_seen DESC, id DESC'],
  ['groups_module_seen', 'module_id, last_seen DESC, count DESC, id DESC'],
  ['groups_module_count', 'module_id, count DESC, last_seen DESC, id DESC'],
  ['groups_origin_created', 'origin, created_at'],
  ['groups_breakdown', 'severity, status, log_type, count, last_seen, origin'],
]

/** The one-column indexes of migration 0001 that the ones above start with. */
export const REPLACED_INDEXES: readonly string[] = ['groups_severity', 'groups_status', 'groups_log_type', 'groups_module', 'groups_origin']

/** Migration 0012 (application): read indexes for issue 18 (see READ_INDEXES). */
export const application0012: Migration = {
  version: 12,
  name: 'read-indexes',
  statements: (p) => [
    ...READ_INDEXES.map(([name, columns]) => `CREATE INDEX IF NOT EXISTS "${p}${name}" ON "${p}error_groups" (${columns})`),
    ...REPLACED_INDEXES.map((name) => `DROP INDEX IF EXISTS "${p}${name}"`),
  ],
}
