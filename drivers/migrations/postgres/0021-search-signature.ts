import type { Migration } from '../migration.ts'

/**
 * Migration 0021 (application): recorded, nothing to change. On SQLite each issue gains a trigram signature
 * that narrows `q` (sqlite/0021-search-signature.ts). This engine's `lower()` folds Unicode, and a signature is
 * only sound when it folds exactly as the substring test does; its `q` reads every issue as before
 * (docs/performance.md "Search: trigram signatures").
 */
export const application0021: Migration = {
  version: 21,
  name: 'search-signature',
  statements: () => [],
}
