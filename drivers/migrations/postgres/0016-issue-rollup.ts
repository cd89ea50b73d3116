import { advisoryLockKey } from '../../migrate.ts'
import type { Migration } from '../migration.ts'

/**
 * Migration 0016 (application), PostgreSQL: `issue_rollup` as on SQLite (sqlite/0016-issue-rollup.ts says
 * what and why), kept by one plpgsql function.
 *
 * Concurrency: the rollup's rows are hot (every import batch adds to the `open` row of its log type), and a
 * row trigger locks them as it goes. Fired immediately, an import would hold the rollup row from its first
 * upsert to its commit — serialising every concurrent import — and deadlock against a status change that
 * holds an issue the import upserts later while waiting for that rollup row. So the triggers are constraint
 * triggers `DEFERRABLE INITIALLY DEFERRED`: they run at commit, when the transaction holds every issue row
 * it will ever hold, and each first takes one transaction advisory lock per application, so the commit-time
 * rollup updates of concurrent transactions queue instead of locking rollup rows in different orders. The
 * wait is bounded by the other commits' rollup updates (a few statements each), not by their imports.
 *
 * The backfill takes the same advisory lock, so a writer that has not committed yet is neither in the recount
 * nor lost: it applies its change after it.
 */
export const application0016: Migration = {
  version: 16,
  name: 'issue-rollup',
  statements: (p) => {
    const G = `"${p}error_groups"`
    const R = `"${p}issue_rollup"`
    const lock = `pg_advisory_xact_lock(${rollupLockKey(p)})`
    const key = (row: 'NEW' | 'OLD') =>
      `module_key = COALESCE(${row}.module_id, 0) AND severity = ${row}.severity AND status = ${row}.status AND log_type = ${row}.log_type`
    return [
      `CREATE TABLE IF NOT EXISTS ${R} (
        module_key BIGINT NOT NULL,
        severity TEXT NOT NULL,
        status TEXT NOT NULL,
        log_type TEXT NOT NULL,
        issues BIGINT NOT NULL DEFAULT 0,
        occurrences BIGINT NOT NULL DEFAULT 0,
        PRIMARY KEY (module_key, severity, status, log_type)
      )`,
      `CREATE OR REPLACE FUNCTION "${p}issue_rollup_sync"() RETURNS trigger LANGUAGE plpgsql AS $loupe$
      BEGIN
        PERFORM ${lock};
        IF TG_OP = 'UPDATE' AND NOT (${KEY_CHANGED}) THEN
          UPDATE ${R} SET occurrences = occurrences + NEW.count - OLD.count WHERE ${key('NEW')};
          RETURN NULL;
        END IF;
        IF TG_OP <> 'INSERT' THEN
          UPDATE ${R} SET issues = issues - 1, occurrences = occurrences - OLD.count WHERE ${key('OLD')};
        END IF;
        IF TG_OP <> 'DELETE' THEN
          INSERT INTO ${R} AS r (module_key, severity, status, log_type, issues, occurrences)
          VALUES (COALESCE(NEW.module_id, 0), NEW.severity, NEW.status, NEW.log_type, 1, NEW.count)
          ON CONFLICT (module_key, severity, status, log_type) DO UPDATE SET issues = r.issues + 1, occurrences = r.occurrences + EXCLUDED.occurrences;
        END IF;
        RETURN NULL;
      END
      $loupe$`,
      // Drop and create in the step's transaction (PostgreSQL DDL is transactional): no write sees neither.
      `DROP TRIGGER IF EXISTS "${p}issue_rollup_write" ON ${G}`,
      `CREATE CONSTRAINT TRIGGER "${p}issue_rollup_write" AFTER INSERT OR DELETE ON ${G}
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "${p}issue_rollup_sync"()`,
      `DROP TRIGGER IF EXISTS "${p}issue_rollup_update" ON ${G}`,
      `CREATE CONSTRAINT TRIGGER "${p}issue_rollup_update" AFTER UPDATE OF count, module_id, severity, status, log_type ON ${G}
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW.count IS DISTINCT FROM OLD.count OR ${KEY_CHANGED})
        EXECUTE FUNCTION "${p}issue_rollup_sync"()`,
      `CREATE INDEX IF NOT EXISTS "${p}groups_severity_status" ON ${G} (severity, status)`,
      `DROP INDEX IF EXISTS "${p}groups_breakdown"`,
      `SELECT ${lock}`,
      `DELETE FROM ${R}`,
      `INSERT INTO ${R} (module_key, severity, status, log_type, issues, occurrences)
        SELECT COALESCE(module_id, 0), severity, status, log_type, COUNT(*), COALESCE(SUM(count), 0) FROM ${G}
        GROUP BY COALESCE(module_id, 0), severity, status, log_type`,
    ]
  },
}

const KEY_CHANGED =
  'NEW.module_id IS DISTINCT FROM OLD.module_id OR NEW.severity IS DISTINCT FROM OLD.severity OR NEW.status IS DISTINCT FROM OLD.status OR NEW.log_type IS DISTINCT FROM OLD.log_type'

/** The advisory lock that orders the commit-time rollup updates of one application (see above). */
function rollupLockKey(prefix: string): number {
  return advisoryLockKey(`${prefix}issue_rollup`)
}
