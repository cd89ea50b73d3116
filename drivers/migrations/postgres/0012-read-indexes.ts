import type { Migration } from '../migration.ts'
import { READ_INDEXES, REPLACED_INDEXES } from '../sqlite/0012-read-indexes.ts'

/** Migration 0012 (application), PostgreSQL: the same indexes as on SQLite (same syntax). */
export const application0012: Migration = {
  version: 12,
  name: 'read-indexes',
  statements: (p) => [
    ...READ_INDEXES.map(([name, columns]) => `CREATE INDEX IF NOT EXISTS "${p}${name}" ON "${p}error_groups" (${columns})`),
    ...REPLACED_INDEXES.map((name) => `DROP INDEX IF EXISTS "${p}${name}"`),
  ],
}
