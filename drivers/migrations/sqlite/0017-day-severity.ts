import type { Migration } from '../migration.ts'

/**
 * Migration 0017 (application): `group_days.severity`, the severity on each of its day rows, and the
 * index (day, severity, group_id) in place of (day, group_id) — so `severity=` with `date=` counts one index
 * range instead of visiting every issue of the severity (issue 18: 3.1× growth at 1,000,000 occurrences;
 * worker/issues/issue-total.ts, docs/performance.md "Day rows, channel rows and probing pages").
 *
 * The copy stays exact without touching the digest's hot path: an ingested issue's severity is part of its
 * fingerprint, so it never changes; the rows are written with the severity by the three paths that
 * write them (digest, merge, occurrence deletion), and the trigger follows the one write that can change a
 * severity (the tracker mirror's upsert of a tracker issue, which a merge may have given day rows). The index
 * replaces the old one rather than joining it, so an import writes as many index entries as before; a day's
 * range of it still serves `date` alone and the day's issue list.
 *
 * One atomic batch: the appliedProbe recognises a racing migrator's finished step (migration.ts).
 */
export const application0017: Migration = {
  version: 17,
  name: 'day-severity',
  statements: (p) => {
    const GD = `"${p}group_days"`
    const G = `"${p}error_groups"`
    return [
      `ALTER TABLE ${GD} ADD COLUMN severity TEXT NOT NULL DEFAULT ''`,
      `CREATE TRIGGER IF NOT EXISTS "${p}group_days_severity" AFTER UPDATE OF severity ON ${G}
      WHEN new.severity IS NOT old.severity BEGIN
        UPDATE ${GD} SET severity = new.severity WHERE group_id = new.id;
      END`,
      `UPDATE ${GD} SET severity = COALESCE((SELECT g.severity FROM ${G} g WHERE g.id = ${GD}.group_id), '')`,
      `CREATE INDEX IF NOT EXISTS "${p}group_days_day_severity" ON ${GD} (day, severity, group_id)`,
      `DROP INDEX IF EXISTS "${p}group_days_day"`,
    ]
  },
  appliedProbe: (p) => `SELECT 1 AS applied FROM pragma_table_info('${p}group_days') WHERE name = 'severity'`,
}
