import type { Migration } from '../migration.ts'

/**
 * `severity_rank`'s expression: 0 for EMERGENCY … 7 for DEBUG (the order of SEVERITIES in shared/constants.ts,
 * reference-behaviour.md §2.1), 8 for anything else. Written out rather than built from SEVERITIES: a
 * migration's text never changes once shipped. The same text on every engine (the PostgreSQL and MySQL steps
 * import it); test/worker/issues/issue-heat.test.ts checks it against SEVERITIES.
 */
export const SEVERITY_RANK_SQL =
  "CASE severity WHEN 'EMERGENCY' THEN 0 WHEN 'ALERT' THEN 1 WHEN 'CRITICAL' THEN 2 WHEN 'ERROR' THEN 3 WHEN 'WARNING' THEN 4 WHEN 'NOTICE' THEN 5 WHEN 'INFO' THEN 6 WHEN 'DEBUG' THEN 7 ELSE 8 END"

/**
 * Migration 0013 (application): what the `priority` sort (issue 17 item 3, docs/api.md "Issues") orders by,
 * stored on the issue so that one index serves it (issue 18: list reads at 1,000,000 occurrences within 2× the
 * small corpus; summing the last week's `group_days` per issue took 1.9 s there):
 * - `heat`: the occurrences weighted by day, `Σ count × 2^((day − 2025-01-01) / 7)` — ranking by it is
 *   ranking by an exponentially decayed count with a 7-day half-life (worker/issues/issue-heat.ts). Kept in
 *   step by the digest, merges and occurrence deletion in the statements that change `count`.
 * - `severity_rank`: the severity band, generated from `severity` (SQLite adds only VIRTUAL columns).
 * - `groups_priority`: (severity_rank, heat DESC, last_seen DESC, id DESC), the sort's order.
 * Existing issues start at heat 0 (SQL cannot compute the weights without math functions, which D1 and
 * libSQL do not promise): they rank by `last_seen` within their band until their next events arrive.
 *
 * `ALTER TABLE … ADD COLUMN` has no IF NOT EXISTS on SQLite (migration.ts): the step is one atomic batch, so
 * when it fails with the column in place (another migrator won the race) it is recorded as applied.
 */
export const application0013: Migration = {
  version: 13,
  name: 'issue-priority',
  statements: (p) => [
    `ALTER TABLE "${p}error_groups" ADD COLUMN heat REAL NOT NULL DEFAULT 0`,
    `ALTER TABLE "${p}error_groups" ADD COLUMN severity_rank INTEGER GENERATED ALWAYS AS (${SEVERITY_RANK_SQL}) VIRTUAL`,
    `CREATE INDEX IF NOT EXISTS "${p}groups_priority" ON "${p}error_groups" (severity_rank, heat DESC, last_seen DESC, id DESC)`,
  ],
  appliedProbe: (p) => `SELECT 1 AS applied FROM pragma_table_info('${p}error_groups') WHERE name = 'heat'`,
}
