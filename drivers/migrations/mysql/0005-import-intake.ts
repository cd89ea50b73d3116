import type { Migration } from '../migration.ts'
import { TABLE_OPTIONS } from './0001-issues.ts'

/**
 * Migration 0005 (application), MySQL 8 / MariaDB spelling of the SQLite migration of the same number. `ref`
 * stays short enough for a unique index (`object:` + a 64-character hash, never a raw R2 key of up to 1 KB).
 */
export const application0005: Migration = {
  version: 5,
  name: 'import-intake',
  statements: (p) => [
    `CREATE TABLE IF NOT EXISTS \`${p}file_contents\` (
      source_file_id BIGINT NOT NULL PRIMARY KEY,
      sha256 VARCHAR(64) COLLATE utf8mb4_bin NOT NULL,
      KEY \`${p}file_contents_sha256\` (sha256),
      FOREIGN KEY (source_file_id) REFERENCES \`${p}source_files\` (id) ON DELETE CASCADE
    ) ${TABLE_OPTIONS}`,
    `CREATE TABLE IF NOT EXISTS \`${p}import_failures\` (
      id BIGINT AUTO_INCREMENT PRIMARY KEY,
      ref VARCHAR(100) COLLATE utf8mb4_bin NOT NULL UNIQUE,
      source_file_id BIGINT,
      path TEXT NOT NULL,
      etag VARCHAR(100) COLLATE utf8mb4_bin,
      attempts INT NOT NULL DEFAULT 0,
      error TEXT NOT NULL,
      failed_at VARCHAR(19),
      updated_at VARCHAR(19) NOT NULL
    ) ${TABLE_OPTIONS}`,
  ],
}
