import type { Migration } from '../migration.ts'

/** Migration 0009 (application), PostgreSQL spelling of the SQLite migration of the same number. */
export const application0009: Migration = {
  version: 9,
  name: 'access-rollup',
  statements: (p) => [
    `CREATE TABLE IF NOT EXISTS "${p}access_rollup" (
      source_file_id BIGINT NOT NULL,
      day TEXT NOT NULL,
      kind TEXT NOT NULL,
      status_class TEXT NOT NULL,
      method TEXT NOT NULL,
      item TEXT NOT NULL,
      count BIGINT NOT NULL DEFAULT 0,
      PRIMARY KEY (source_file_id, day, kind, status_class, method, item)
    )`,
    `CREATE INDEX IF NOT EXISTS "${p}idx_access_rollup_day" ON "${p}access_rollup" (kind, day)`,
  ],
}
