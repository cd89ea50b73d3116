import type { Migration } from '../migration.ts'

/** Migration 0015 (application), PostgreSQL spelling of the SQLite migration of the same number. */
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
