import type { Migration } from '../migration.ts'
import { TABLE_OPTIONS } from './0001-issues.ts'

/**
 * Migration 0009 (application), MySQL 8 / MariaDB spelling of the SQLite migration of the same number. Every
 * text column is `utf8mb4_bin`: `/Admin` and `/admin` are different paths, as on the other engines, and one
 * collation keeps the analytics' UNION free of collation mixes. The key stays under InnoDB's 3,072 bytes
 * (items are cut to 200 characters by the importer).
 */
export const application0009: Migration = {
  version: 9,
  name: 'access-rollup',
  statements: (p) => [
    `CREATE TABLE IF NOT EXISTS \`${p}access_rollup\` (
      source_file_id BIGINT NOT NULL,
      day VARCHAR(10) COLLATE utf8mb4_bin NOT NULL,
      kind VARCHAR(1) COLLATE utf8mb4_bin NOT NULL,
      status_class VARCHAR(3) COLLATE utf8mb4_bin NOT NULL,
      method VARCHAR(16) COLLATE utf8mb4_bin NOT NULL,
      item VARCHAR(255) COLLATE utf8mb4_bin NOT NULL,
      count BIGINT NOT NULL DEFAULT 0,
      PRIMARY KEY (source_file_id, day, kind, status_class, method, item),
      INDEX \`${p}idx_access_rollup_day\` (kind, day)
    ) ${TABLE_OPTIONS}`,
  ],
}
