import type { Migration } from '../migration.ts'
import { TABLE_OPTIONS } from './0001-issues.ts'

/** Migration 0010 (application), MySQL 8 / MariaDB spelling of the SQLite migration of the same number. */
export const application0010: Migration = {
  version: 10,
  name: 'tracker',
  statements: (p) => [
    `CREATE TABLE IF NOT EXISTS \`${p}tracker_links\` (
      group_id BIGINT PRIMARY KEY,
      provider VARCHAR(20) NOT NULL,
      external_id VARCHAR(191) COLLATE utf8mb4_bin NOT NULL,
      identifier VARCHAR(255) NOT NULL,
      url TEXT NOT NULL,
      state VARCHAR(255),
      via VARCHAR(10) NOT NULL,
      created_at VARCHAR(19) NOT NULL,
      updated_at VARCHAR(19),
      UNIQUE KEY \`${p}tracker_links_external\` (provider, external_id),
      FOREIGN KEY (group_id) REFERENCES \`${p}error_groups\` (id) ON DELETE CASCADE
    ) ${TABLE_OPTIONS}`,
  ],
}
