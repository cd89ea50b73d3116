import type { Migration } from '../migration.ts'

/**
 * Migration 0023 (application): recorded, nothing to change. MySQL gains the trigram signatures that SQLite has
 * kept since migration 0021 (mysql/0023-search-signature.ts).
 */
export const application0023: Migration = {
  version: 23,
  name: 'mysql-search-signature',
  statements: () => [],
}
