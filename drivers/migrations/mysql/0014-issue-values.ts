import type { Migration } from '../migration.ts'
import { TABLE_OPTIONS } from './0001-issues.ts'

/**
 * Migration 0014 (application), MySQL 8 / MariaDB spelling of the SQLite migration of the same number. Values
 * are `utf8mb4_bin` (`/Admin` and `/admin` are different URLs, as on the other engines) and cut to 200
 * characters by the digest, which keeps the key under InnoDB's 3,072 bytes.
 */
export const application0014: Migration = {
  version: 14,
  name: 'issue-values',
  statements: (p) => [
    `CREATE TABLE IF NOT EXISTS \`${p}issue_values\` (
      group_id BIGINT NOT NULL,
      name VARCHAR(16) COLLATE utf8mb4_bin NOT NULL,
      value VARCHAR(255) COLLATE utf8mb4_bin NOT NULL,
      count BIGINT NOT NULL DEFAULT 0,
      PRIMARY KEY (group_id, name, value)
    ) ${TABLE_OPTIONS}`,
  ],
}
