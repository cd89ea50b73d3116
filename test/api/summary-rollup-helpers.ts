import { expect } from 'vitest'
import { appDatabase } from './ingestion-helpers.ts'

export interface RollupRow {
  /** The module's slug; null for issues without a module. */
  module: string | null
  severity: string
  status: string
  log_type: string
  issues: number
  occurrences: number
}

/**
 * Asserts that `issue_rollup` (migration 0016) equals a GROUP BY of the application's issues — rows that fell
 * to zero excepted, which the triggers keep and the summary skips — and returns it, ordered by module slug
 * (none first), severity, status and log type.
 */
export async function expectIssueRollupExact(app: string): Promise<RollupRow[]> {
  const { t, rows } = await appDatabase(app)
  const rollup = await rows(
    `SELECT m.slug AS module, r.severity, r.status, r.log_type, r.issues, r.occurrences FROM ${t.issueRollup} r LEFT JOIN ${t.modules} m ON m.id = r.module_key
     WHERE r.issues <> 0 OR r.occurrences <> 0`,
  )
  const issues = await rows(
    `SELECT m.slug AS module, g.severity, g.status, g.log_type, COUNT(*) AS issues, COALESCE(SUM(g.count), 0) AS occurrences
     FROM ${t.groups} g LEFT JOIN ${t.modules} m ON m.id = g.module_id GROUP BY m.slug, g.severity, g.status, g.log_type`,
  )
  // A module key that names no module would read as "no module": it must not exist.
  expect(await rows(`SELECT module_key FROM ${t.issueRollup} r WHERE r.module_key <> 0 AND NOT EXISTS (SELECT 1 FROM ${t.modules} m WHERE m.id = r.module_key)`)).toEqual([])
  const actual = normalise(rollup)
  expect(actual).toEqual(normalise(issues))
  return actual
}

function normalise(rows: Record<string, unknown>[]): RollupRow[] {
  return rows
    .map((row) => ({
      module: row.module === null || row.module === undefined ? null : String(row.module),
      severity: String(row.severity),
      status: String(row.status),
      log_type: String(row.log_type),
      issues: Number(row.issues),
      occurrences: Number(row.occurrences),
    }))
    .sort((a, b) => compare(a.module ?? '', b.module ?? '') || compare(a.severity, b.severity) || compare(a.status, b.status) || compare(a.log_type, b.log_type))
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}
