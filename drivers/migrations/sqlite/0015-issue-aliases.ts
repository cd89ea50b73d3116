import type { Migration } from '../migration.ts'

/**
 * Migration 0015 (application): fingerprint aliases of merged issues (issue 17 item 8, `merge-issues`,
 * docs/api.md). Each row says: events whose fingerprint is `fingerprint` group into the issue whose
 * fingerprint is `target_fingerprint`. Keyed by fingerprints rather than issue ids, so an alias survives the
 * target being emptied and re-created (reindex, retention, log deletion): the digest re-creates the issue
 * under the target's fingerprint. A merge re-points every alias that named a merged issue, so chains never
 * form and one lookup resolves any fingerprint. No foreign key: aliases outlive the issues they name.
 */
export const application0015: Migration = {
  version: 15,
  name: 'issue-aliases',
  statements: (p) => [
    `CREATE TABLE IF NOT EXISTS "${p}issue_aliases" (
      fingerprint TEXT NOT NULL PRIMARY KEY,
      target_fingerprint TEXT NOT NULL,
      created_at TEXT NOT NULL
    )`,
    `CREATE INDEX IF NOT EXISTS "${p}issue_aliases_target" ON "${p}issue_aliases" (target_fingerprint)`,
  ],
}
