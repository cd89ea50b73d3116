import type { Migration } from '../migration.ts'

/** Migration 0004 (application), PostgreSQL spelling of the SQLite migration of the same number. */
export const application0004: Migration = {
  version: 4,
  name: 'daily-counts',
  statements: (p) => [
    `CREATE TABLE IF NOT EXISTS "${p}daily_counts" (
      day TEXT NOT NULL,
      severity TEXT NOT NULL,
      count BIGINT NOT NULL DEFAULT 0,
      PRIMARY KEY (day, severity)
    )`,
    `CREATE TABLE IF NOT EXISTS "${p}rollups" (
      name TEXT NOT NULL PRIMARY KEY,
      through_id BIGINT NOT NULL DEFAULT 0
    )`,
    `INSERT INTO "${p}daily_counts" (day, severity, count)
      SELECT occurred_day, severity, COUNT(*) FROM "${p}occurrences" GROUP BY occurred_day, severity
      ON CONFLICT DO NOTHING`,
    `INSERT INTO "${p}rollups" (name, through_id) SELECT 'daily_counts', COALESCE(MAX(id), 0) FROM "${p}occurrences" ON CONFLICT DO NOTHING`,
  ],
}
