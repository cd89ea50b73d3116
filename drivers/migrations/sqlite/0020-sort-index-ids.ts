import type { Migration } from '../migration.ts'

/**
 * Migration 0020 (application): recorded, nothing to change. On MySQL the unfiltered sort indexes gain their
 * `id DESC` tie-break (mysql/0020-sort-index-ids.ts), because MariaDB sorted every issue without it; this engine
 * sorts the ties of the index's (last_seen, count) prefix on its own, and the page walks the index as it is.
 */
export const application0020: Migration = {
  version: 20,
  name: 'sort-index-ids',
  statements: () => [],
}
