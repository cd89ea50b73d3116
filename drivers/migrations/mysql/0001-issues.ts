import type { Migration } from '../migration.ts'

/** InnoDB, utf8mb4, case-insensitive text by default; key columns opt into utf8mb4_bin. */
export const TABLE_OPTIONS = 'ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci'

/**
 * Migration 0001 (application), MySQL 8 / MariaDB spelling of the SQLite migration of the same number.
 * Indexed text columns are VARCHARs sized under InnoDB's 3072-byte key limit; indexes are declared inside
 * CREATE TABLE because MySQL 8 has no `CREATE INDEX IF NOT EXISTS`. `release` and `key` are reserved words.
 */
export const application0001: Migration = {
  version: 1,
  name: 'issues',
  statements: (p) => [
    `CREATE TABLE IF NOT EXISTS \`${p}modules\` (
      id BIGINT AUTO_INCREMENT PRIMARY KEY,
      name VARCHAR(200) NOT NULL,
      name_key VARCHAR(200) COLLATE utf8mb4_bin NOT NULL UNIQUE,
      slug VARCHAR(64) COLLATE utf8mb4_bin NOT NULL UNIQUE,
      color VARCHAR(7) NOT NULL DEFAULT '#6366f1',
      created_at VARCHAR(19) NOT NULL
    ) ${TABLE_OPTIONS}`,
    `CREATE TABLE IF NOT EXISTS \`${p}source_files\` (
      id BIGINT AUTO_INCREMENT PRIMARY KEY,
      path VARCHAR(600) COLLATE utf8mb4_bin NOT NULL UNIQUE,
      size BIGINT NOT NULL DEFAULT 0,
      modified_at VARCHAR(19),
      last_offset BIGINT NOT NULL DEFAULT 0,
      imported_at VARCHAR(19),
      created_at VARCHAR(19) NOT NULL,
      parser_version INT NOT NULL DEFAULT 0,
      log_type VARCHAR(30) NOT NULL DEFAULT 'laravel',
      channel VARCHAR(255),
      module_id BIGINT,
      source_stream_id BIGINT,
      KEY \`${p}source_files_log_type\` (log_type),
      KEY \`${p}source_files_module\` (module_id),
      KEY \`${p}source_files_imported\` (imported_at),
      FOREIGN KEY (module_id) REFERENCES \`${p}modules\` (id) ON DELETE SET NULL
    ) ${TABLE_OPTIONS}`,
    `CREATE TABLE IF NOT EXISTS \`${p}error_groups\` (
      id BIGINT AUTO_INCREMENT PRIMARY KEY,
      fingerprint VARCHAR(64) COLLATE utf8mb4_bin NOT NULL UNIQUE,
      severity VARCHAR(16) NOT NULL,
      environment VARCHAR(255),
      title TEXT NOT NULL,
      exception_class VARCHAR(500),
      source_frame TEXT,
      count BIGINT NOT NULL DEFAULT 0,
      first_seen VARCHAR(19) NOT NULL,
      last_seen VARCHAR(19) NOT NULL,
      sample_message MEDIUMTEXT,
      sample_stack MEDIUMTEXT,
      sample_context MEDIUMTEXT,
      created_at VARCHAR(19) NOT NULL,
      status VARCHAR(30) NOT NULL DEFAULT 'open',
      status_updated_at VARCHAR(19),
      log_type VARCHAR(30) NOT NULL DEFAULT 'laravel',
      channel VARCHAR(255),
      origin VARCHAR(30) NOT NULL DEFAULT 'ingested',
      kind VARCHAR(30) NOT NULL DEFAULT 'error',
      module_id BIGINT,
      external_source VARCHAR(30),
      external_id VARCHAR(191),
      external_url TEXT,
      assignee VARCHAR(255),
      assigned_to_id VARCHAR(191),
      assigned_to_label VARCHAR(255),
      KEY \`${p}groups_last_seen\` (last_seen DESC, count DESC),
      KEY \`${p}groups_first_seen\` (first_seen, count DESC),
      KEY \`${p}groups_count\` (count DESC, last_seen DESC),
      KEY \`${p}groups_severity\` (severity),
      KEY \`${p}groups_status\` (status),
      KEY \`${p}groups_log_type\` (log_type),
      KEY \`${p}groups_origin\` (origin),
      KEY \`${p}groups_kind\` (kind),
      KEY \`${p}groups_module\` (module_id),
      KEY \`${p}groups_external\` (external_source, external_id),
      FOREIGN KEY (module_id) REFERENCES \`${p}modules\` (id) ON DELETE SET NULL
    ) ${TABLE_OPTIONS}`,
    `CREATE TABLE IF NOT EXISTS \`${p}occurrences\` (
      id BIGINT AUTO_INCREMENT PRIMARY KEY,
      group_id BIGINT NOT NULL,
      source_file_id BIGINT NOT NULL,
      exact_fingerprint VARCHAR(64) COLLATE utf8mb4_bin,
      occurred_at VARCHAR(19) NOT NULL,
      occurred_day VARCHAR(10) NOT NULL,
      severity VARCHAR(16) NOT NULL,
      environment VARCHAR(255),
      byte_start BIGINT NOT NULL,
      byte_end BIGINT NOT NULL,
      context_preview MEDIUMTEXT,
      event_hash VARCHAR(64) COLLATE utf8mb4_bin,
      \`release\` VARCHAR(191),
      import_batch VARCHAR(64) COLLATE utf8mb4_bin,
      UNIQUE KEY \`${p}occurrences_dedupe\` (source_file_id, byte_start),
      KEY \`${p}occurrences_group_time\` (group_id, occurred_at DESC),
      KEY \`${p}occurrences_time\` (occurred_at DESC),
      KEY \`${p}occurrences_day\` (occurred_day, group_id),
      FOREIGN KEY (group_id) REFERENCES \`${p}error_groups\` (id) ON DELETE CASCADE,
      FOREIGN KEY (source_file_id) REFERENCES \`${p}source_files\` (id) ON DELETE CASCADE
    ) ${TABLE_OPTIONS}`,
    `CREATE TABLE IF NOT EXISTS \`${p}group_days\` (
      group_id BIGINT NOT NULL,
      day VARCHAR(10) NOT NULL,
      count BIGINT NOT NULL DEFAULT 0,
      PRIMARY KEY (group_id, day),
      KEY \`${p}group_days_day\` (day, group_id),
      FOREIGN KEY (group_id) REFERENCES \`${p}error_groups\` (id) ON DELETE CASCADE
    ) ${TABLE_OPTIONS}`,
    `CREATE TABLE IF NOT EXISTS \`${p}group_sources\` (
      group_id BIGINT NOT NULL,
      source_file_id BIGINT NOT NULL,
      PRIMARY KEY (group_id, source_file_id),
      KEY \`${p}group_sources_file\` (source_file_id, group_id),
      FOREIGN KEY (group_id) REFERENCES \`${p}error_groups\` (id) ON DELETE CASCADE,
      FOREIGN KEY (source_file_id) REFERENCES \`${p}source_files\` (id) ON DELETE CASCADE
    ) ${TABLE_OPTIONS}`,
    `CREATE TABLE IF NOT EXISTS \`${p}issue_status_history\` (
      id BIGINT AUTO_INCREMENT PRIMARY KEY,
      group_id BIGINT NOT NULL,
      from_status VARCHAR(30),
      to_status VARCHAR(30) NOT NULL,
      note TEXT,
      created_at VARCHAR(19) NOT NULL,
      actor VARCHAR(255),
      KEY \`${p}status_history_group\` (group_id, created_at DESC),
      FOREIGN KEY (group_id) REFERENCES \`${p}error_groups\` (id) ON DELETE CASCADE
    ) ${TABLE_OPTIONS}`,
    `CREATE TABLE IF NOT EXISTS \`${p}tags\` (
      id BIGINT AUTO_INCREMENT PRIMARY KEY,
      name VARCHAR(200) NOT NULL,
      name_key VARCHAR(200) COLLATE utf8mb4_bin NOT NULL UNIQUE,
      color VARCHAR(7) NOT NULL DEFAULT '#64748b',
      icon VARCHAR(60) NOT NULL DEFAULT 'tag',
      created_at VARCHAR(19) NOT NULL,
      updated_at VARCHAR(19),
      created_by VARCHAR(255),
      updated_by VARCHAR(255)
    ) ${TABLE_OPTIONS}`,
    `CREATE TABLE IF NOT EXISTS \`${p}tag_rules\` (
      id BIGINT AUTO_INCREMENT PRIMARY KEY,
      tag_id BIGINT NOT NULL,
      match_word VARCHAR(800) NOT NULL,
      enabled INT NOT NULL DEFAULT 1,
      created_at VARCHAR(19) NOT NULL,
      KEY \`${p}tag_rules_tag\` (tag_id),
      FOREIGN KEY (tag_id) REFERENCES \`${p}tags\` (id) ON DELETE CASCADE
    ) ${TABLE_OPTIONS}`,
    `CREATE TABLE IF NOT EXISTS \`${p}error_group_tags\` (
      group_id BIGINT NOT NULL,
      tag_id BIGINT NOT NULL,
      source VARCHAR(30) NOT NULL DEFAULT 'manual',
      created_at VARCHAR(19) NOT NULL,
      PRIMARY KEY (group_id, tag_id),
      KEY \`${p}error_group_tags_tag\` (tag_id),
      FOREIGN KEY (group_id) REFERENCES \`${p}error_groups\` (id) ON DELETE CASCADE,
      FOREIGN KEY (tag_id) REFERENCES \`${p}tags\` (id) ON DELETE CASCADE
    ) ${TABLE_OPTIONS}`,
    `CREATE TABLE IF NOT EXISTS \`${p}app_settings\` (
      \`key\` VARCHAR(191) COLLATE utf8mb4_bin NOT NULL PRIMARY KEY,
      value MEDIUMTEXT NOT NULL,
      updated_at VARCHAR(19) NOT NULL
    ) ${TABLE_OPTIONS}`,
  ],
}
