import type { Migration } from '../migration.ts'

/**
 * Migration 0022 (application): recorded, nothing to change. On PostgreSQL each issue's searched text gets a
 * table of its own under a trigram index (postgres/0022-search-text.ts); here the search signatures of migration 0021 narrow `q`.
 */
export const application0022: Migration = {
  version: 22,
  name: 'search-text',
  statements: () => [],
}
