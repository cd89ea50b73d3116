import type { Migration } from '../migration.ts'

/**
 * Migration 0003 (application): drops `occurrences(occurred_day, group_id)`. Every occurrence index is paid
 * on each imported event (this one measured about a fifth of the occurrence insert); the day filter and
 * charts read the `group_days` rollup, and deletion by day uses the `occurred_at` range of
 * `occurrences_time`. The column stays: it is part of the occurrence shape (reference §1.2).
 */
export const application0003: Migration = {
  version: 3,
  name: 'import-indexes',
  statements: (p) => [`DROP INDEX IF EXISTS "${p}occurrences_day"`],
}
