import type { Migration } from '../migration.ts'
import { TABLE_OPTIONS } from './0001-issues.ts'

/** Migration 0004 (application), MySQL spelling of the SQLite migration of the same number. */
export const application0004: Migration = {
  version: 4,
  name: 'daily-counts',
  statements: (p) => [
    `CREATE TABLE IF NOT EXISTS \`${p}daily_counts\` (
      day VARCHAR(10) NOT NULL,
      severity VARCHAR(16) NOT NULL,
      count BIGINT NOT NULL DEFAULT 0,
      PRIMARY KEY (day, severity)
    ) ${TABLE_OPTIONS}`,
    `CREATE TABLE IF NOT EXISTS \`${p}rollups\` (
      name VARCHAR(64) COLLATE utf8mb4_bin NOT NULL PRIMARY KEY,
      through_id BIGINT NOT NULL DEFAULT 0
    ) ${TABLE_OPTIONS}`,
    `INSERT IGNORE INTO \`${p}daily_counts\` (day, severity, count)
      SELECT occurred_day, severity, COUNT(*) FROM \`${p}occurrences\` GROUP BY occurred_day, severity`,
    `INSERT IGNORE INTO \`${p}rollups\` (name, through_id) SELECT 'daily_counts', COALESCE(MAX(id), 0) FROM \`${p}occurrences\``,
  ],
}
