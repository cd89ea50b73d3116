import type { Migration } from '../migration.ts'

/** Migration 0014 (application), PostgreSQL spelling of the SQLite migration of the same number. */
export const application0014: Migration = {
  version: 14,
  name: 'issue-values',
  statements: (p) => [
    `CREATE TABLE IF NOT EXISTS "${p}issue_values" (
      group_id BIGINT NOT NULL,
      name TEXT NOT NULL,
      value TEXT NOT NULL,
      count BIGINT NOT NULL DEFAULT 0,
      PRIMARY KEY (group_id, name, value)
    )`,
  ],
}
