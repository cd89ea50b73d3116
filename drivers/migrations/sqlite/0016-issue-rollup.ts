import type { Migration } from '../migration.ts'

/**
 * Migration 0016 (application): `issue_rollup`, the issues counted per (module, severity, status, log type)
 * — how many (`issues`) and their occurrences (`occurrences`, the sum of `count`) — kept exact by the
 * database itself (issue 18). The summary's breakdown and per-module counts read these few dozen rows instead
 * of every issue, so their cost no longer grows with the issues (docs/performance.md "Summary rollup").
 *
 * Triggers rather than application code: issues are created, counted, re-stated and deleted by a dozen write
 * paths (digest upserts of every intake, manual creation, single and bulk status, merges, deletions, retention,
 * reindex, tracker sync); a trigger is one place none of them can forget. `module_key` is `module_id` with 0
 * for none (a primary key cannot hold NULL on PostgreSQL; module ids start at 1). Rows that fall to 0 issues
 * stay (the read skips them): deleting them would be a second statement on every decrement.
 *
 * Each write does ONE rollup statement in the common cases: an insert upserts its row, a delete decrements
 * its row, and an update that changes only `count` (every digest upsert of an existing issue) adds the
 * difference — `UPDATE OF` and `WHEN` keep every other update (samples, heat, assignment) from firing
 * anything. Only an update that moves an issue to another key (a status change, `fixed` → `reoccurred` on
 * import) does two: out of the old row, into the new one.
 *
 * `groups_breakdown` (0012) only served the summary's GROUP BY over every issue, which this replaces: it goes,
 * and with it one index entry rewritten by every import upsert (it held `count` and `last_seen`). Its other
 * reader, the total of `min_severity` with `status` (issue-total.ts), gets `groups_severity_status`, which
 * holds neither, so a count-only upsert leaves it alone. The summary's newest times walk `groups_last_seen`.
 *
 * D1 reports a statement's `changes` as the connection's `total_changes()` delta, which includes the rows
 * these triggers write: code reading `rowsAffected` of a write to the issues must not rely on it on D1
 * (delete-occurrences.ts counts the issues it empties with a SELECT there).
 *
 * The backfill recomputes the rollup from the issues (delete, then GROUP BY) in the step's batch, so running
 * the step again — a racing migrator, or a re-run after an out-of-order merge (drivers/migrate.ts) — leaves
 * it exact: SQLite runs the batch as one transaction, so no write lands between the triggers and the recount.
 */
export const application0016: Migration = {
  version: 16,
  name: 'issue-rollup',
  statements: (p) => {
    const G = `"${p}error_groups"`
    const R = `"${p}issue_rollup"`
    return [
      `CREATE TABLE IF NOT EXISTS ${R} (
        module_key INTEGER NOT NULL,
        severity TEXT NOT NULL,
        status TEXT NOT NULL,
        log_type TEXT NOT NULL,
        issues INTEGER NOT NULL DEFAULT 0,
        occurrences INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (module_key, severity, status, log_type)
      ) WITHOUT ROWID`,
      `CREATE TRIGGER IF NOT EXISTS "${p}issue_rollup_insert" AFTER INSERT ON ${G} BEGIN
        ${addTo(R, 'new')};
      END`,
      `CREATE TRIGGER IF NOT EXISTS "${p}issue_rollup_delete" AFTER DELETE ON ${G} BEGIN
        ${takeFrom(R, 'old')};
      END`,
      `CREATE TRIGGER IF NOT EXISTS "${p}issue_rollup_count" AFTER UPDATE OF count ON ${G}
      WHEN new.count IS NOT old.count AND NOT (${KEY_CHANGED}) BEGIN
        UPDATE ${R} SET occurrences = occurrences + new.count - old.count WHERE ${keyOf('new')};
      END`,
      `CREATE TRIGGER IF NOT EXISTS "${p}issue_rollup_move" AFTER UPDATE OF module_id, severity, status, log_type ON ${G}
      WHEN ${KEY_CHANGED} BEGIN
        ${takeFrom(R, 'old')};
        ${addTo(R, 'new')};
      END`,
      `CREATE INDEX IF NOT EXISTS "${p}groups_severity_status" ON ${G} (severity, status)`,
      `DROP INDEX IF EXISTS "${p}groups_breakdown"`,
      `DELETE FROM ${R}`,
      `INSERT INTO ${R} (module_key, severity, status, log_type, issues, occurrences)
        SELECT COALESCE(module_id, 0), severity, status, log_type, COUNT(*), COALESCE(SUM(count), 0) FROM ${G}
        GROUP BY COALESCE(module_id, 0), severity, status, log_type`,
    ]
  },
}

const KEY_CHANGED = 'new.module_id IS NOT old.module_id OR new.severity IS NOT old.severity OR new.status IS NOT old.status OR new.log_type IS NOT old.log_type'

/** The rollup row of the issue row `row` (`new` or `old`). */
function keyOf(row: 'new' | 'old'): string {
  return `module_key = COALESCE(${row}.module_id, 0) AND severity = ${row}.severity AND status = ${row}.status AND log_type = ${row}.log_type`
}

function addTo(rollup: string, row: 'new'): string {
  return `INSERT INTO ${rollup} (module_key, severity, status, log_type, issues, occurrences)
          VALUES (COALESCE(${row}.module_id, 0), ${row}.severity, ${row}.status, ${row}.log_type, 1, ${row}.count)
          ON CONFLICT (module_key, severity, status, log_type) DO UPDATE SET issues = issues + 1, occurrences = occurrences + excluded.occurrences`
}

function takeFrom(rollup: string, row: 'old'): string {
  return `UPDATE ${rollup} SET issues = issues - 1, occurrences = occurrences - ${row}.count WHERE ${keyOf(row)}`
}
