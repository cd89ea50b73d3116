import type { Migration } from '../migration.ts'

/**
 * Migration 0009 (application): `access_rollup`, every access-log line counted at import time whatever the
 * severity allow-list (issue 14; worker/digest/access-rollup.ts, docs/access-analytics.md). `kind` 'p' rows
 * count requests per day × status class × method × path; 'a' rows count requests per day × user agent (class
 * and method ''). Keyed by source file, so re-reading a file (reindex, rotation) first drops that file's rows
 * and never counts a line twice. No backfill: occurrences hold only the lines the allow-list kept, which is
 * exactly the blind spot this table removes — a reindex fills it for files imported before.
 */
export const application0009: Migration = {
  version: 9,
  name: 'access-rollup',
  statements: (p) => [
    `CREATE TABLE IF NOT EXISTS "${p}access_rollup" (
      source_file_id INTEGER NOT NULL,
      day TEXT NOT NULL,
      kind TEXT NOT NULL,
      status_class TEXT NOT NULL,
      method TEXT NOT NULL,
      item TEXT NOT NULL,
      count INTEGER NOT NULL DEFAULT 0,
      PRIMARY KEY (source_file_id, day, kind, status_class, method, item)
    )`,
    `CREATE INDEX IF NOT EXISTS "${p}idx_access_rollup_day" ON "${p}access_rollup" (kind, day)`,
  ],
}
