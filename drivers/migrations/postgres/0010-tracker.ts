import type { Migration } from '../migration.ts'

/** Migration 0010 (application), PostgreSQL spelling of the SQLite migration of the same number. */
export const application0010: Migration = {
  version: 10,
  name: 'tracker',
  statements: (p) => [
    `CREATE TABLE IF NOT EXISTS "${p}tracker_links" (
      group_id BIGINT PRIMARY KEY REFERENCES "${p}error_groups" (id) ON DELETE CASCADE,
      provider TEXT NOT NULL,
      external_id TEXT NOT NULL,
      identifier TEXT NOT NULL,
      url TEXT NOT NULL,
      state TEXT,
      via TEXT NOT NULL,
      created_at TEXT NOT NULL,
      updated_at TEXT,
      UNIQUE (provider, external_id)
    )`,
  ],
}
