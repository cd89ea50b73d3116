import type { Migration } from '../migration.ts'
import { SEVERITY_RANK_SQL } from '../sqlite/0013-issue-priority.ts'

/**
 * Migration 0013 (application), MySQL 8 / MariaDB spelling of the SQLite migration of the same number: ONE
 * `ALTER TABLE` adds both columns and the index, so the step is all or nothing (MySQL 8's atomic DDL; MySQL
 * has neither `ADD COLUMN IF NOT EXISTS` nor `CREATE INDEX IF NOT EXISTS`, migration.ts). A run that finds the
 * column already there (a racing migrator, or a crash between the DDL's implicit commit and the step's record)
 * fails with "Duplicate column name" and the probe records the step as applied. Descending index parts need
 * MySQL 8 or MariaDB ≥ 10.8.
 */
export const application0013: Migration = {
  version: 13,
  name: 'issue-priority',
  statements: (p) => [
    `ALTER TABLE \`${p}error_groups\`
      ADD COLUMN heat DOUBLE NOT NULL DEFAULT 0,
      ADD COLUMN severity_rank TINYINT AS (${SEVERITY_RANK_SQL}) VIRTUAL,
      ADD KEY \`${p}groups_priority\` (severity_rank, heat DESC, last_seen DESC, id DESC)`,
  ],
  appliedProbe: (p) =>
    `SELECT 1 AS applied FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = '${p}error_groups' AND COLUMN_NAME = 'heat'`,
}
