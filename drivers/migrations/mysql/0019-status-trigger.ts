import type { Migration } from '../migration.ts'
import { ddlSkippedWhen } from './0012-read-indexes.ts'

/**
 * Migration 0019 (application), MySQL 8 / MariaDB only: a status change is ONE statement (issue 18).
 *
 * PlanetScale's HTTP API takes one statement per request, so the status change's batch — BEGIN, the history
 * row, the UPDATE, the `from_status` read, COMMIT — cost five requests, and a bulk change four. Here the
 * history row does the rest: a row inserted with a `change_token` takes its `from_status` from the issue under
 * the row lock (so concurrent changes of one issue chain, as the batch's `FOR UPDATE` read made them)
 * and moves the issue to its `to_status`, in a BEFORE INSERT trigger. One `INSERT … VALUES` is atomic on its
 * own, so no BEGIN/COMMIT; the caller reads `from_status` back by the token after it (dialect
 * `historyAppliesStatus`, worker/issues/issue-status.ts). An issue that does not exist fails the row's
 * foreign key, and the statement writes nothing.
 *
 * Rows without a token (the digest's reopenings, merges, a new manual issue, the tracker's mirror) are left
 * as they are: those statements write the issue themselves, and some read the issues table, which a trigger
 * may not update while its statement reads it (MySQL error 1442 — raised only when the branch runs).
 *
 * `change_token` is added by ONE `ALTER TABLE`, only while missing (MySQL has no `ADD COLUMN IF NOT EXISTS`);
 * the trigger is idempotent, so a run interrupted after the ALTER's implicit commit completes on the next try.
 * SQLite and PostgreSQL send a whole batch in one round trip and keep the batch: their 0019 is empty.
 */
export const application0019: Migration = {
  version: 19,
  name: 'status-trigger',
  statements: (p) => {
    const H = `\`${p}issue_status_history\``
    const G = `\`${p}error_groups\``
    const present = `(SELECT COUNT(*) FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = '${p}issue_status_history' AND COLUMN_NAME = 'change_token') > 0`
    return [
      ...ddlSkippedWhen(present, `ALTER TABLE ${H} ADD COLUMN change_token CHAR(32) NULL`),
      `CREATE TRIGGER IF NOT EXISTS \`${p}status_history_applies\` BEFORE INSERT ON ${H} FOR EACH ROW
        IF NEW.change_token IS NOT NULL THEN
          SET NEW.from_status = (SELECT status FROM ${G} WHERE id = NEW.group_id FOR UPDATE);
          UPDATE ${G} SET status = NEW.to_status, status_updated_at = NEW.created_at WHERE id = NEW.group_id;
        END IF`,
    ]
  },
}
