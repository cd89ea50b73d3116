import type { Migration } from '../migration.ts'
import { SEVERITY_RANK_SQL } from '../sqlite/0013-issue-priority.ts'

/**
 * Migration 0013 (application), PostgreSQL spelling of the SQLite migration of the same number: the generated
 * column is STORED (PostgreSQL has no virtual ones); every statement is idempotent (IF NOT EXISTS).
 */
export const application0013: Migration = {
  version: 13,
  name: 'issue-priority',
  statements: (p) => [
    `ALTER TABLE "${p}error_groups"
      ADD COLUMN IF NOT EXISTS heat DOUBLE PRECISION NOT NULL DEFAULT 0,
      ADD COLUMN IF NOT EXISTS severity_rank SMALLINT GENERATED ALWAYS AS (${SEVERITY_RANK_SQL}) STORED`,
    `CREATE INDEX IF NOT EXISTS "${p}groups_priority" ON "${p}error_groups" (severity_rank, heat DESC, last_seen DESC, id DESC)`,
  ],
}
