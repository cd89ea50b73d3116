import type { Migration } from '../migration.ts'

/**
 * Migration 0003 (application) on MySQL: recorded, but the index stays. MySQL 8 (PlanetScale) has no
 * `DROP INDEX IF EXISTS`, and a plain DROP would fail for the loser of two isolates applying the step at once
 * (migration.ts requires idempotent statements). On PlanetScale an import is bound by its round trips, not by
 * this index, so keeping it costs little.
 */
export const application0003: Migration = {
  version: 3,
  name: 'import-indexes',
  statements: () => [],
}
