import type { Migration } from '../migration.ts'
import { ddlSkippedWhen } from './0012-read-indexes.ts'

/**
 * Migration 0017 (application), MySQL 8 / MariaDB spelling of the SQLite migration of the same number. MySQL
 * has no `ADD COLUMN IF NOT EXISTS`, so ONE `ALTER TABLE` (atomic DDL) adds the column, adds the
 * (day, severity, group_id) index and drops (day, group_id), and runs only while the column is missing (a
 * prepared statement: `ddlSkippedWhen`). The trigger and the backfill after it are idempotent,
 * so a run interrupted after the ALTER's implicit commit completes on the next try.
 */
export const application0017: Migration = {
  version: 17,
  name: 'day-severity',
  statements: (p) => {
    const GD = `\`${p}group_days\``
    const G = `\`${p}error_groups\``
    const present = `(SELECT COUNT(*) FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = '${p}group_days' AND COLUMN_NAME = 'severity') > 0`
    // The column's default, '' (two quotes doubled inside the prepared text).
    const alter = `ALTER TABLE ${GD} ADD COLUMN severity VARCHAR(16) NOT NULL DEFAULT '''', ADD KEY \`${p}group_days_day_severity\` (day, severity, group_id), DROP KEY \`${p}group_days_day\``
    return [
      ...ddlSkippedWhen(present, alter),
      `CREATE TRIGGER IF NOT EXISTS \`${p}group_days_severity\` AFTER UPDATE ON ${G} FOR EACH ROW
        IF NEW.severity <> OLD.severity THEN
          UPDATE ${GD} SET severity = NEW.severity WHERE group_id = NEW.id;
        END IF`,
      `UPDATE ${GD} gd JOIN ${G} g ON g.id = gd.group_id SET gd.severity = g.severity WHERE gd.severity <> g.severity`,
    ]
  },
}
