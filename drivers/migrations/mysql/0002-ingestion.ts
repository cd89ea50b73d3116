import type { Migration } from '../migration.ts'

/** InnoDB, utf8mb4, case-insensitive text by default; key columns opt into utf8mb4_bin. */
const TABLE_OPTIONS = 'ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci'

/**
 * Migration 0002 (application), MySQL 8 / MariaDB spelling of the SQLite migration of the same number.
 * `origin_path` matches `source_files.path` (VARCHAR(600), binary collation: R2 keys are case-sensitive).
 */
export const application0002: Migration = {
  version: 2,
  name: 'ingestion',
  statements: (p) => [
    `CREATE TABLE IF NOT EXISTS \`${p}file_imports\` (
      source_file_id BIGINT NOT NULL PRIMARY KEY,
      origin_path VARCHAR(600) COLLATE utf8mb4_bin UNIQUE,
      etag VARCHAR(100) COLLATE utf8mb4_bin,
      prefix_hash VARCHAR(64) COLLATE utf8mb4_bin,
      parser_id VARCHAR(64) COLLATE utf8mb4_bin,
      next_offset BIGINT NOT NULL DEFAULT 0,
      inside_event INT NOT NULL DEFAULT 0,
      occurrence_count BIGINT NOT NULL DEFAULT 0,
      updated_at VARCHAR(19) NOT NULL,
      FOREIGN KEY (source_file_id) REFERENCES \`${p}source_files\` (id) ON DELETE CASCADE
    ) ${TABLE_OPTIONS}`,
    `CREATE TABLE IF NOT EXISTS \`${p}import_jobs\` (
      id BIGINT AUTO_INCREMENT PRIMARY KEY,
      kind VARCHAR(30) NOT NULL,
      status VARCHAR(30) NOT NULL,
      files_total INT NOT NULL DEFAULT 0,
      files_done INT NOT NULL DEFAULT 0,
      bytes_total BIGINT NOT NULL DEFAULT 0,
      bytes_done BIGINT NOT NULL DEFAULT 0,
      events BIGINT NOT NULL DEFAULT 0,
      current_file VARCHAR(600),
      message TEXT,
      result MEDIUMTEXT,
      created_at VARCHAR(19) NOT NULL,
      started_at VARCHAR(19),
      updated_at VARCHAR(19) NOT NULL,
      finished_at VARCHAR(19),
      KEY \`${p}import_jobs_status\` (status, updated_at)
    ) ${TABLE_OPTIONS}`,
    `CREATE TABLE IF NOT EXISTS \`${p}affected_refs\` (
      token VARCHAR(64) COLLATE utf8mb4_bin NOT NULL,
      kind VARCHAR(8) COLLATE utf8mb4_bin NOT NULL,
      ref_id BIGINT NOT NULL,
      PRIMARY KEY (token, kind, ref_id)
    ) ${TABLE_OPTIONS}`,
  ],
}
