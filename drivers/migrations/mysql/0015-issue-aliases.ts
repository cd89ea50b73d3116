import type { Migration } from '../migration.ts'
import { TABLE_OPTIONS } from './0001-issues.ts'

/**
 * Migration 0015 (application), MySQL 8 / MariaDB spelling of the SQLite migration of the same number.
 * Fingerprints as in `error_groups` (64 characters, compared byte for byte).
 */
export const application0015: Migration = {
  version: 15,
  name: 'issue-aliases',
  statements: (p) => [
    `CREATE TABLE IF NOT EXISTS \`${p}issue_aliases\` (
      fingerprint VARCHAR(64) COLLATE utf8mb4_bin NOT NULL PRIMARY KEY,
      target_fingerprint VARCHAR(64) COLLATE utf8mb4_bin NOT NULL,
      created_at VARCHAR(19) NOT NULL,
      KEY \`${p}issue_aliases_target\` (target_fingerprint)
    ) ${TABLE_OPTIONS}`,
  ],
}
