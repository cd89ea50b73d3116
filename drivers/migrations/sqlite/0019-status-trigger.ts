import type { Migration } from '../migration.ts'

/**
 * Migration 0019 (application): recorded, nothing to change. On MySQL this step lets a status-history row apply
 * its status to the issue (mysql/0019-status-trigger.ts), because PlanetScale sends each statement as its own
 * request; here a status change's whole batch is already one round trip.
 */
export const application0019: Migration = {
  version: 19,
  name: 'status-trigger',
  statements: () => [],
}
