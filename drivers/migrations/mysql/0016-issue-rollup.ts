import type { Migration } from '../migration.ts'
import { TABLE_OPTIONS } from './0001-issues.ts'
import { ddlUnless } from './0012-read-indexes.ts'

/**
 * Migration 0016 (application), MySQL 8 / MariaDB: `issue_rollup` as on SQLite (sqlite/0016-issue-rollup.ts
 * says what and why). Its text columns have the issues' collation, so its keys group exactly as a GROUP BY of
 * the issues does.
 *
 * MySQL has no `UPDATE OF` column list and no `WHEN` on a trigger, so one AFTER UPDATE trigger tests in its
 * body: a key change moves the issue (two statements), a `count` change adds the difference (one), anything
 * else does nothing. `CREATE TRIGGER IF NOT EXISTS` (MariaDB 10.1.4+, MySQL 8.0.29+) keeps the step
 * idempotent without dropping a trigger that concurrent writes rely on; hosted PlanetScale's support for
 * triggers is not verified here (docs/deviations.md). MySQL has no deferred triggers: an import holds the
 * rollup rows it touched until it commits, so a status change racing it may deadlock and is retried by the
 * driver (drivers/planetscale.ts), and concurrent imports of the same kind of issue queue on their rollup row.
 *
 * The table and triggers are DDL, each committed on its own; the recount runs after the triggers exist,
 * so a write that lands between them is counted by the recount's read, or by its trigger after it.
 */
export const application0016: Migration = {
  version: 16,
  name: 'issue-rollup',
  statements: (p) => {
    const G = `\`${p}error_groups\``
    const R = `\`${p}issue_rollup\``
    const key = (row: 'NEW' | 'OLD') =>
      `module_key = COALESCE(${row}.module_id, 0) AND severity = ${row}.severity AND status = ${row}.status AND log_type = ${row}.log_type`
    const addNew = `INSERT INTO ${R} (module_key, severity, status, log_type, issues, occurrences)
          VALUES (COALESCE(NEW.module_id, 0), NEW.severity, NEW.status, NEW.log_type, 1, NEW.count)
          ON DUPLICATE KEY UPDATE issues = issues + 1, occurrences = occurrences + NEW.count`
    const takeOld = `UPDATE ${R} SET issues = issues - 1, occurrences = occurrences - OLD.count WHERE ${key('OLD')}`
    return [
      `CREATE TABLE IF NOT EXISTS ${R} (
        module_key BIGINT NOT NULL,
        severity VARCHAR(16) NOT NULL,
        status VARCHAR(30) NOT NULL,
        log_type VARCHAR(30) NOT NULL,
        issues BIGINT NOT NULL DEFAULT 0,
        occurrences BIGINT NOT NULL DEFAULT 0,
        PRIMARY KEY (module_key, severity, status, log_type)
      ) ${TABLE_OPTIONS}`,
      `CREATE TRIGGER IF NOT EXISTS \`${p}issue_rollup_insert\` AFTER INSERT ON ${G} FOR EACH ROW ${addNew}`,
      `CREATE TRIGGER IF NOT EXISTS \`${p}issue_rollup_delete\` AFTER DELETE ON ${G} FOR EACH ROW ${takeOld}`,
      `CREATE TRIGGER IF NOT EXISTS \`${p}issue_rollup_update\` AFTER UPDATE ON ${G} FOR EACH ROW
      BEGIN
        IF NOT (NEW.module_id <=> OLD.module_id) OR NEW.severity <> OLD.severity OR NEW.status <> OLD.status OR NEW.log_type <> OLD.log_type THEN
          ${takeOld};
          ${addNew};
        ELSEIF NEW.count <> OLD.count THEN
          UPDATE ${R} SET occurrences = occurrences + NEW.count - OLD.count WHERE ${key('NEW')};
        END IF;
      END`,
      ...ddlUnless(p, 'groups_severity_status', true, `CREATE INDEX \`${p}groups_severity_status\` ON \`${p}error_groups\` (severity, status)`),
      ...ddlUnless(p, 'groups_breakdown', false, `DROP INDEX \`${p}groups_breakdown\` ON \`${p}error_groups\``),
      `DELETE FROM ${R}`,
      `INSERT INTO ${R} (module_key, severity, status, log_type, issues, occurrences)
        SELECT COALESCE(module_id, 0), severity, status, log_type, COUNT(*), COALESCE(SUM(count), 0) FROM ${G}
        GROUP BY COALESCE(module_id, 0), severity, status, log_type`,
    ]
  },
}
