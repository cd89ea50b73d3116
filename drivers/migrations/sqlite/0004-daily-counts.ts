import type { Migration } from '../migration.ts'

/**
 * Migration 0004 (application): `daily_counts`, occurrences per day and severity, so that the summary's
 * `trend` and `daily_severity` read a few hundred rows instead of every `group_days` row (at 1,000,000
 * occurrences over 100,000 issues they took 1.7 s). Imports fold new occurrences into it by id
 * (`rollups.through_id`, worker/digest/persist/daily-counts.ts); the backfill and the first mark are
 * insert-ignores, so a second run of this step changes nothing.
 */
export const application0004: Migration = {
  version: 4,
  name: 'daily-counts',
  statements: (p) => [
    `CREATE TABLE IF NOT EXISTS "${p}daily_counts" (
      day TEXT NOT NULL,
      severity TEXT NOT NULL,
      count INTEGER NOT NULL DEFAULT 0,
      PRIMARY KEY (day, severity)
    )`,
    `CREATE TABLE IF NOT EXISTS "${p}rollups" (
      name TEXT NOT NULL PRIMARY KEY,
      through_id INTEGER NOT NULL DEFAULT 0
    )`,
    `INSERT OR IGNORE INTO "${p}daily_counts" (day, severity, count)
      SELECT occurred_day, severity, COUNT(*) FROM "${p}occurrences" GROUP BY occurred_day, severity`,
    `INSERT OR IGNORE INTO "${p}rollups" (name, through_id) SELECT 'daily_counts', COALESCE(MAX(id), 0) FROM "${p}occurrences"`,
  ],
}
