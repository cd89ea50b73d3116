import type { Migration } from '../migration.ts'

/**
 * Migration 0017 (application), PostgreSQL spelling of the SQLite migration of the same number: the issue's
 * severity on its `group_days` rows, the (day, severity, group_id) index in place of (day, group_id), and a
 * trigger following a severity change. Every statement is idempotent and the step runs in one transaction
 * (PostgreSQL DDL is transactional).
 */
export const application0017: Migration = {
  version: 17,
  name: 'day-severity',
  statements: (p) => {
    const GD = `"${p}group_days"`
    const G = `"${p}error_groups"`
    return [
      `ALTER TABLE ${GD} ADD COLUMN IF NOT EXISTS severity TEXT NOT NULL DEFAULT ''`,
      `CREATE OR REPLACE FUNCTION "${p}group_days_severity_sync"() RETURNS trigger LANGUAGE plpgsql AS $loupe$
      BEGIN
        UPDATE ${GD} SET severity = NEW.severity WHERE group_id = NEW.id;
        RETURN NULL;
      END
      $loupe$`,
      `DROP TRIGGER IF EXISTS "${p}group_days_severity" ON ${G}`,
      `CREATE TRIGGER "${p}group_days_severity" AFTER UPDATE OF severity ON ${G}
        FOR EACH ROW WHEN (NEW.severity IS DISTINCT FROM OLD.severity) EXECUTE FUNCTION "${p}group_days_severity_sync"()`,
      `UPDATE ${GD} gd SET severity = g.severity FROM ${G} g WHERE g.id = gd.group_id AND gd.severity IS DISTINCT FROM g.severity`,
      `CREATE INDEX IF NOT EXISTS "${p}group_days_day_severity" ON ${GD} (day, severity, group_id)`,
      `DROP INDEX IF EXISTS "${p}group_days_day"`,
    ]
  },
}
