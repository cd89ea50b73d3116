import type { Migration } from '../migration.ts'

/** Migration 0003 (application), PostgreSQL spelling of the SQLite migration of the same number. */
export const application0003: Migration = {
  version: 3,
  name: 'import-indexes',
  statements: (p) => [`DROP INDEX IF EXISTS "${p}occurrences_day"`],
}
